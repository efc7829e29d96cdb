// Spatial navigation, for the TV view (tv.js): which of the things on screen an arrow key moves to,
// by where they are drawn, as a remote's D-pad moves. A pure choice over rectangles.

/** `{x, y}`: a rectangle's centre. */
export const centre = (r) => ({ x: (r.left + r.right) / 2, y: (r.top + r.bottom) / 2 });

/** The axis an arrow moves along, and which way. */
const ARROWS = {
  ArrowLeft: { along: 'x', sign: -1 }, ArrowRight: { along: 'x', sign: 1 },
  ArrowUp: { along: 'y', sign: -1 }, ArrowDown: { along: 'y', sign: 1 },
};
export const isArrow = (key) => key in ARROWS;
const EDGES = { x: ['left', 'right'], y: ['top', 'bottom'] };
const OUT_OF_LINE = 1e6; // px: what being out of line weighs, more than any distance on a screen

/** Whether `a` and `b` overlap across the axis `along` moves on (a row for x, a column for y). */
function inBeam(a, b, along) {
  return along === 'x' ? a.top < b.bottom && b.top < a.bottom : a.left < b.right && b.left < a.right;
}

/**
 * The one of `candidates` (elements) that arrow `key` moves to from `from`, or null: among those whose
 * centre lies that way, the nearest (the gap between facing edges, plus thrice the offset across),
 * preferring those in line with `from` (its row or column). Left and right stay in line: from the last
 * poster of a row, → goes nowhere. `box(el)` is the rectangle an element is drawn in.
 */
export function nextInDirection(from, candidates, key, box) {
  const { along, sign } = ARROWS[key];
  const across = along === 'x' ? 'y' : 'x';
  const [low, high] = EDGES[along];
  const here = box(from);
  const c0 = centre(here);
  let best = null;
  for (const el of candidates) {
    if (el === from) continue;
    const r = box(el);
    const c = centre(r);
    if ((c[along] - c0[along]) * sign <= 1) continue;
    const beam = inBeam(here, r, along);
    if (!beam && along === 'x') continue;
    const gap = Math.max(0, sign > 0 ? r[low] - here[high] : here[low] - r[high]);
    const score = (beam ? 0 : OUT_OF_LINE) + gap + 3 * Math.abs(c[across] - c0[across]);
    if (!best || score < best.score) best = { el, score };
  }
  return best?.el ?? null;
}

/** The one of `candidates` drawn nearest to the point `at` ({x, y}), or null when there are none. */
export function nearest(candidates, at, box) {
  let best = null;
  for (const el of candidates) {
    const c = centre(box(el));
    const d = Math.hypot(c.x - at.x, c.y - at.y);
    if (!best || d < best.d) best = { el, d };
  }
  return best?.el ?? null;
}
