// A movie of a pick as one card to vote on, for Tonight and the guest page: its poster (its title on
// a quiet gradient while the poster loads, or when there is none), title, year, runtime and overview;
// a horizontal swipe of it votes. The TV's movie view shows a movie with it too, without the swipe.
import { POSTER, h, picture } from './dom.js';

const titleOf = (c) => c.title || `Movie ${c.movieId}`;
/** "The Matrix (1999)". */
export const cardName = (c) => `${titleOf(c)}${c.year ? ` (${c.year})` : ''}`;

/** 136 → "2 h 16 min". */
function runtimeText(minutes) {
  if (!(minutes > 0)) return '';
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return [hours ? `${hours} h` : '', rest ? `${rest} min` : ''].filter(Boolean).join(' ');
}

/**
 * `c` (a pick's card: movieId, title, year, runtime, overview, posterPath) as `article.vote-card`
 * with its title in `heading` (h2, h3), and `more` (nodes) under the overview; a swipe calls
 * `vote(yes)` when there is a `vote`.
 */
export function voteCard(c, { heading = 'h3', more = [], vote }) {
  const art = h('article', 'vote-card');
  art.dataset.movieId = c.movieId;
  const box = h('div', `vote-poster hue-${c.movieId % 8}`);
  const ph = h('span', 'ph-title', titleOf(c));
  ph.setAttribute('aria-hidden', 'true');
  box.append(ph);
  const img = picture(POSTER, c.posterPath, 342, 513, `Poster of ${cardName(c)}`);
  if (img) box.append(img);
  const text = h('div', 'vote-text');
  const meta = h('p', 'vote-meta');
  for (const [cls, value] of [['year', c.year], ['runtime', runtimeText(c.runtime)]]) {
    if (value) meta.append(h('span', cls, String(value)));
  }
  text.append(h(heading, 'vote-title', titleOf(c)), meta);
  if (c.overview) text.append(h('p', 'vote-overview', c.overview));
  text.append(...more);
  art.append(box, text);
  if (vote) swipe(art, vote);
  return art;
}

/** A horizontal drag on the card past a third of its width (80 px at least) votes: right yes, left no. */
function swipe(el, vote) {
  let x0 = null;
  let id = null;
  el.addEventListener('pointerdown', (e) => {
    if (e.pointerType === 'mouse') return;
    x0 = e.clientX;
    id = e.pointerId;
    el.setPointerCapture?.(id);
  });
  el.addEventListener('pointermove', (e) => {
    if (e.pointerId !== id || x0 == null) return;
    el.style.transform = `translateX(${e.clientX - x0}px)`;
  });
  const end = (e) => {
    if (e.pointerId !== id || x0 == null) return;
    const dx = e.clientX - x0;
    x0 = id = null;
    el.style.transform = '';
    if (e.type === 'pointerup' && Math.abs(dx) >= Math.max(80, el.clientWidth / 3)) vote(dx > 0);
  };
  el.addEventListener('pointerup', end);
  el.addEventListener('pointercancel', end);
}
