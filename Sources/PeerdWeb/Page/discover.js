// The Discover view (#discover, proto/WEB.md): rows of TMDB's lists and one per genre, each a strip
// of tiles that loads as it comes into view, and more as it scrolls sideways. The movie view's row
// of similar movies is one such row.
import { $, button, h, picture } from './dom.js';
import { listButton } from './listbutton.js';
import { ago, ask, known } from './page.js';

const TILE = 'https://image.tmdb.org/t/p/w185';

const ui = { rows: $('rows') };
/** `built`: the rows are made (their tiles load as they come into view); `rendered`: the first row's
 * tiles are on screen. */
const view = { built: false, rendered: false };

/** TMDB's average, in hundredths: "★ 8.2". */
export const rating = (hundredths) => (hundredths == null ? '' : `★ ${(hundredths / 100).toFixed(1)}`);

// ---------------------------------------------------------------- rows of tiles

function tile(r) {
  known.set(r.movieId, r);
  const li = h('li', 'tile');
  li.dataset.movieId = r.movieId;
  const link = h('a', 'tile-link');
  link.href = `#movie/${r.movieId}`;
  const box = h('div', `tile-poster hue-${r.movieId % 8}`);
  box.append(h('span', 'ph-title', r.title));
  const img = picture(TILE, r.posterPath, 185, 278);
  if (img) box.append(img);
  const meta = [r.year, rating(r.voteAverage)].filter(Boolean).join(' · ');
  link.append(box, h('span', 'tile-title', r.title), h('span', 'tile-meta', meta));
  li.append(link, listButton(r));
  return li;
}

/** A row of a list: its heading, a note (age, errors) and a strip that loads more at its end. */
export function makeRow(title, request, heading = 'h3') {
  const section = h('section', 'row');
  const id = `row-${Math.random().toString(36).slice(2, 10)}`;
  const head = h(heading, 'row-title', title);
  head.id = id;
  section.setAttribute('aria-labelledby', id);
  const note = h('p', 'row-note');
  const strip = h('ul', 'strip');
  const end = h('li', 'strip-end');
  end.setAttribute('aria-hidden', 'true');
  strip.append(end);
  section.append(head, note, strip);
  const row = { title, request, section, note, strip, end, page: 0, pages: 1, loading: false };
  row.more = new IntersectionObserver((seen) => {
    if (seen.some((e) => e.isIntersecting)) loadRow(row);
  }, { root: strip, rootMargin: '0px 600px 0px 0px' });
  return row;
}

export async function loadRow(row) {
  if (row.loading || row.page >= row.pages) return;
  row.loading = true;
  row.section.setAttribute('aria-busy', 'true');
  row.more.unobserve(row.end);
  try {
    const res = await ask({ ...row.request, page: row.page + 1 });
    row.page = res.page;
    row.pages = Math.min(res.totalPages, 500);
    const on = new Set([...row.strip.querySelectorAll('li.tile')].map((li) => li.dataset.movieId));
    row.end.before(...res.results.filter((r) => !on.has(String(r.movieId))).map(tile));
    const empty = row.page === 1 && res.results.length === 0;
    row.note.replaceChildren(empty ? 'Nothing here.' : res.stale ? `As TMDB listed it ${ago(res.fetchedAt)}: ${res.stale}` : '');
    row.note.classList.toggle('stale', Boolean(res.stale));
    if (!view.rendered && res.results.length && row.section === ui.rows.firstElementChild) firstRender();
  } catch (err) {
    failed(row, err);
  } finally {
    row.loading = false;
    row.section.removeAttribute('aria-busy');
  }
  if (row.page > 0 && row.page < row.pages) row.more.observe(row.end);
}

function failed(row, err) {
  const again = button('quiet retry', 'Try again');
  again.addEventListener('click', () => {
    row.note.replaceChildren();
    loadRow(row);
  });
  const page = row.page + 1 > 1 ? `, page ${row.page + 1}` : '';
  row.note.replaceChildren(`Could not load ${row.title}${page}: ${String(err.message || err)} `, again);
  row.note.classList.add('stale');
}

function firstRender() {
  view.rendered = true;
  performance.mark('discover-render');
  document.body.dataset.discover = 'ready';
}

// ---------------------------------------------------------------- the Discover view

// Rows load as they come near the screen, two at a time: a peer without a token asks the one that
// holds it at most 2 queries a second (PEER.md), so a screenful of rows asked at once would mostly wait.
const waiting = [];
let loading = 0;
async function pump() {
  while (loading < 2 && waiting.length) {
    const row = waiting.shift();
    loading++;
    loadRow(row).finally(() => {
      loading--;
      pump();
    });
  }
}

const rowsSeen = new IntersectionObserver((seen) => {
  for (const e of seen) {
    if (!e.isIntersecting) continue;
    rowsSeen.unobserve(e.target);
    waiting.push(e.target.row);
  }
  pump();
}, { rootMargin: '200px 0px' });

function addRow(title, request) {
  const row = makeRow(title, request);
  row.section.row = row;
  ui.rows.append(row.section);
  rowsSeen.observe(row.section);
}

/** Makes the rows, once: each loads as it comes near the screen. */
export async function buildDiscover() {
  if (view.built) return;
  view.built = true;
  addRow('Popular now', { type: 'discover' });
  addRow('Trending this week', { type: 'discover', list: 'trending-week' });
  addRow('Top rated', { type: 'discover', list: 'top-rated' });
  addRow('In cinemas now', { type: 'discover', list: 'now-playing' });
  addRow('Coming soon', { type: 'discover', list: 'upcoming' });
  try {
    const { genres } = await ask({ type: 'genres' });
    for (const g of genres) addRow(g.name, { type: 'discover', genre: g.id });
  } catch (err) {
    const note = h('p', 'row-note stale', `Could not load the genres: ${String(err.message || err)} `);
    const again = button('quiet retry', 'Try again');
    again.addEventListener('click', () => {
      note.remove();
      view.built = false;
      ui.rows.replaceChildren();
      buildDiscover();
    });
    note.append(again);
    ui.rows.append(note);
  }
}

