// The search box (proto/WEB.md, "The page"): TMDB search by title when this daemon or a connected
// peer holds a token (`status`'s `search`), else add by id or TMDB link; the results, each with
// Discover's add button, kept true to the list.
import { $, h, picture } from './dom.js';
import { add } from './list.js';
import { listButton } from './listbutton.js';
import { api, busy, clearError, fail, known } from './page.js';

const THUMB = 'https://image.tmdb.org/t/p/w92';

const ui = {
  form: $('search'), query: $('query'), label: $('query-label'), go: $('go'), hint: $('hint'),
  found: $('found'), foundHeading: $('found-heading'), results: $('results'),
  closeResults: $('close-results'), moreResults: $('more-results'),
};

/** `tmdb`: whether a title is searched (else an id is added); `shown`: the search on screen,
 * {query, page, totalPages}. */
const state = { tmdb: false, shown: null };

function movieIdIn(text) {
  const t = text.trim();
  const m = /^(tmdb:\s*)?(\d{1,15})$/i.exec(t) ||
    /^(?:https?:\/\/)?(?:www\.)?themoviedb\.org\/(?:[a-z]{2}(?:-[a-z]{2})?\/)?movie\/(\d{1,15})(?=$|[-/?#])/i.exec(t);
  if (!m) return null;
  const bare = m.length === 3 && !m[1];
  const id = Number(m[m.length - 1]);
  return id > 0 && Number.isSafeInteger(id) ? { id, bare } : null;
}

async function submit(event) {
  event.preventDefault();
  const text = ui.query.value.trim();
  if (!text) {
    ui.query.focus();
    return;
  }
  const found = movieIdIn(text);
  if (found && !(state.tmdb && found.bare)) {
    if (await add({ id: found.id }, ui.go)) ui.query.value = '';
    return;
  }
  // Without a token here or on a connected peer a title is still asked for: a peer that holds one
  // may have connected since, and if none has, peerd's answer says who holds one and when it was
  // last seen.
  await search(text, 1);
}

async function search(query, page) {
  await busy(page === 1 ? ui.go : ui.moreResults, async () => {
    try {
      const res = await api({ type: 'search', query, page });
      clearError();
      state.shown = { query, page: res.page, totalPages: res.totalPages };
      showResults(res, page > 1);
    } catch (err) {
      const hint = state.tmdb ? '' : ' Or add it by id: 603, tmdb:603 or a themoviedb.org/movie/… link.';
      fail(`Could not search for “${query}”`, `${String(err?.message || err).trim().replace(/[.]?$/, '.')}${hint}`);
    }
  });
}

function showResults(res, more) {
  const items = res.results.map((r) => {
    const li = h('li', 'result');
    li.dataset.movieId = r.movieId;
    const thumb = h('div', `thumb hue-${r.movieId % 8}`);
    const img = picture(THUMB, r.posterPath, 92, 138);
    if (img) thumb.append(img);
    const text = h('div', 'result-text');
    const head = h('p', 'result-title');
    const link = h('a', 'movie-link', r.title);
    link.href = `#movie/${r.movieId}`;
    head.append(link);
    known.set(r.movieId, r);
    if (r.year) head.append(' ', h('span', 'result-year', `(${r.year})`));
    text.append(head);
    if (r.overview) text.append(h('p', 'overview', r.overview));
    // Discover's add button, kept true to the list: "Add", or "On the list" and disabled.
    li.append(thumb, text, listButton(r));
    return li;
  });
  if (more) ui.results.append(...items);
  else ui.results.replaceChildren(...items);
  const n = res.totalResults;
  const leftOut = res.leftOut
    ? ` · ${res.leftOut} on this page left out by this list’s ceiling`
    : '';
  ui.foundHeading.textContent = (n
    ? `${n} ${n === 1 ? 'result' : 'results'} for “${res.query}”`
    : `No movies found for “${res.query}”`) + leftOut;
  ui.moreResults.hidden = !(res.page < res.totalPages);
  ui.found.hidden = false;
}

function closeResults() {
  ui.found.hidden = true;
  ui.results.replaceChildren();
  state.shown = null;
}

/** How the box reads `status` (`search`, else `tmdb`): a title to search, or an id to add. */
export function heardStatus(status) {
  const tmdb = (status.search ?? status.tmdb) === true;
  if (tmdb === state.tmdb && ui.form.dataset.mode) return;
  state.tmdb = tmdb;
  ui.form.dataset.mode = tmdb ? 'search' : 'id';
  ui.label.textContent = tmdb ? 'Find a movie' : 'Add a movie';
  ui.query.placeholder = tmdb ? 'Search TMDB by title' : 'TMDB id or link';
  ui.go.textContent = tmdb ? 'Search' : 'Add';
  ui.hint.textContent = tmdb
    ? 'Search by title, or add directly with tmdb:603 or a themoviedb.org/movie/… link'
    : 'A TMDB id (603), tmdb:603, or a link like themoviedb.org/movie/603-the-matrix';
}

ui.form.addEventListener('submit', submit);
ui.closeResults.addEventListener('click', () => {
  closeResults();
  ui.query.focus();
});
ui.moreResults.addEventListener('click', () => {
  if (state.shown) search(state.shown.query, state.shown.page + 1);
});
document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape' && !ui.found.hidden && !document.querySelector('dialog[open]')) {
    event.preventDefault();
    closeResults();
    ui.query.focus();
  }
});
