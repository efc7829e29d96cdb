// The list view (proto/WEB.md, "The page"): the shared watch list as cards, 50 at a time as you
// scroll, its filters and sort, and its changes live. Unfiltered, a change puts its row in place by
// its cursor; filtered or sorted otherwise, a change lists again as far as was loaded.
import { $, button, h, sleep } from './dom.js';
import { card, fill, badges, stamp } from './listcard.js';
import { api, busy, changed, clearError, cmpCursor, fail, notice, page, quoted } from './page.js';

const PAGE = 50; // rows per list page

const ui = {
  movies: $('movies'), empty: $('empty'), more: $('more'), count: $('count'),
  filters: $('filters'), unseen: $('f-unseen'), mine: $('f-mine'), sort: $('sort'),
};

const state = {
  ready: false,
  total: 0,
  next: null, // the cursor after which rows are not loaded yet; null once every page is
  loading: false,
  pageFailed: false,
  holding: 1, // while > 0, changes wait in `pending` (the first page, or a page, is on its way)
  pending: [],
  query: {}, // the list request's filters and sort (proto/CONTROL.md, "list"); {} is the whole list in its order
  listed: 0, // movies on the whole list (status.movies), to say how many a filter keeps
};
/** Whether the list on screen is filtered or sorted: then it can't place live rows by cursor, and asks again. */
const filtered = () => Object.keys(state.query).length > 0;
const listRequest = (fields) => ({ type: 'list', ...state.query, ...fields });
/** movieId → {row, li}: the cards on screen, in list order in the DOM. */
const shown = new Map();

/** The row of a movie on screen, as last heard. */
export const rowOf = (id) => shown.get(id)?.row;

/** `firstPage` is told once the first page is on screen, `changed` after each change (the peers,
 * whose counts move with the list, are asked again). */
let told = { firstPage() {}, changed() {} };

function place(row) {
  const id = row.movieId;
  let entry = shown.get(id);
  if (state.next && cmpCursor(row.cursor, state.next) > 0) {
    if (entry) drop(id);
    return null;
  }
  if (entry) {
    entry.row = row;
  } else {
    entry = { row, li: card(row) };
    shown.set(id, entry);
  }
  fill(entry.li, row);
  // New rows mostly come last: look from the end for the first card that goes after this one.
  let before = null;
  for (let at = ui.movies.lastElementChild; at; at = at.previousElementSibling) {
    if (at === entry.li) continue;
    if (cmpCursor(shown.get(Number(at.dataset.movieId)).row.cursor, row.cursor) <= 0) break;
    before = at;
  }
  if (entry.li.parentNode !== ui.movies || entry.li.nextElementSibling !== before) {
    keepFocus(() => ui.movies.insertBefore(entry.li, before));
  }
  return entry.li;
}

function drop(id) {
  const entry = shown.get(id);
  if (!entry) return;
  shown.delete(id);
  const { li } = entry;
  if (li.contains(document.activeElement)) {
    const near = li.nextElementSibling || li.previousElementSibling;
    li.remove();
    (near ? near.querySelector('.remove') : ui.movies).focus();
  } else {
    li.remove();
  }
}

/** Moving a node blurs what is focused inside it; put the focus back. */
function keepFocus(move) {
  const active = document.activeElement;
  move();
  if (active && active !== document.activeElement && active.isConnected) active.focus({ preventScroll: true });
}

/** Adds a page of rows after those on screen (they come after them in list order). */
function appendPage(rows) {
  const fresh = document.createDocumentFragment();
  const moved = [];
  for (const row of rows.movies) {
    if (shown.has(row.movieId)) {
      moved.push(row);
      continue;
    }
    const li = card(row);
    fill(li, row);
    shown.set(row.movieId, { row, li });
    fresh.append(li);
  }
  ui.movies.append(fresh);
  state.total = rows.total;
  state.next = rows.next || null;
  for (const row of moved) {
    if (filtered()) refill(row); // its place is the answer's, which the next relist() sets
    else place(row);
  }
}

function refill(row) {
  const entry = shown.get(row.movieId);
  if (!entry) return;
  entry.row = row;
  fill(entry.li, row);
}

/** Shows the rows of a list answer and only those, in its order, keeping the cards that stay (and their
 * focus). */
function reconcile(rows) {
  const keep = new Set(rows.movies.map((row) => row.movieId));
  for (const id of [...shown.keys()]) if (!keep.has(id)) drop(id);
  let at = ui.movies.firstElementChild;
  for (const row of rows.movies) {
    let entry = shown.get(row.movieId);
    if (!entry) {
      entry = { row, li: card(row) };
      shown.set(row.movieId, entry);
    }
    entry.row = row;
    fill(entry.li, row);
    if (entry.li === at) at = at.nextElementSibling;
    else keepFocus(() => ui.movies.insertBefore(entry.li, at));
  }
  state.total = rows.total;
  state.next = rows.next || null;
}

/** Lists again as far as was loaded (after the stream was down, a change under a filter, a new
 * filter), keeping the cards that stay. */
async function relist(limit = Math.max(PAGE, shown.size)) {
  const query = state.query;
  state.holding++;
  try {
    const rows = await api(listRequest({ limit: Math.min(10000, limit) }));
    if (query === state.query) reconcile(rows); // else the new filter's answer is on its way
  } catch (err) {
    fail('Could not bring the list up to date', err);
  } finally {
    release();
  }
}
/** Lists again as far as was loaded: after the stream was down, the changes made meanwhile were not heard. */
export const resync = () => relist();

let relistTimer = 0;
function relistSoon() {
  clearTimeout(relistTimer);
  relistTimer = setTimeout(() => relist(), 30);
}

/** The filters and sort as chosen: the list from its start, under them. */
async function refilter() {
  const query = {};
  if (ui.unseen.checked) query.unseen = true;
  if (ui.mine.checked) query.wantedBy = ['me'];
  if (ui.sort.value !== 'added') query.sort = ui.sort.value;
  state.query = query;
  state.pageFailed = false;
  ui.movies.setAttribute('aria-busy', 'true');
  await relist(PAGE);
  if (query === state.query) ui.movies.setAttribute('aria-busy', 'false');
}

function release() {
  state.holding--;
  if (state.holding === 0) {
    const waiting = state.pending;
    state.pending = [];
    waiting.forEach(apply);
  }
  showCounts();
  sentinel();
}

const moreButton = button('quiet wide load-more', 'Show more');
const moreText = h('span');
ui.more.append(moreButton, moreText);

function showCounts() {
  const n = state.total;
  const all = filtered() ? state.listed : n; // a filter's count is "3 of 12 movies"
  ui.count.textContent = state.ready ? ` · ${n}${filtered() ? ` of ${all}` : ''} ${all === 1 ? 'movie' : 'movies'}` : '';
  ui.empty.hidden = !state.ready || shown.size > 0 || n > 0;
  ui.empty.textContent = filtered() ? 'No movie on the list fits these filters.'
    : 'Nothing on the list yet. Add a movie above, or wait for a peer to add one.';
  moreButton.hidden = !state.ready || !state.next;
  moreButton.textContent = state.loading ? 'Loading…' : `Show more (${shown.size} of ${n})`;
  moreText.textContent = state.ready && !state.next && shown.size > PAGE ? `All ${shown.size} movies shown.` : '';
}

// ---------------------------------------------------------------- paging

async function loadFirst() {
  for (let delay = 1000; ; delay = Math.min(delay * 2, 15000)) {
    try {
      const rows = await api(listRequest({ limit: PAGE }));
      appendPage(rows);
      break;
    } catch (err) {
      if (page.stopped) return;
      fail('Could not load the list', err);
      await sleep(delay);
    }
  }
  clearError();
  ui.movies.setAttribute('aria-busy', 'false');
  ui.filters.disabled = false;
  state.ready = true;
  performance.mark('first-render');
  document.body.dataset.ready = 'true';
  release();
  told.firstPage();
}

async function loadMore() {
  // Not while the list is asked again (a new filter's `next` is not the old one's): release() looks again.
  if (state.loading || !state.next || !state.ready || state.holding > 0) return;
  state.loading = true;
  state.holding++;
  showCounts();
  try {
    const query = state.query;
    const rows = await api(listRequest({ limit: PAGE, after: state.next }));
    if (query === state.query) appendPage(rows);
  } catch (err) {
    fail('Could not load more of the list', err);
    state.pageFailed = true; // until "Show more" is pressed: the observer would only hammer
  }
  state.loading = false;
  release();
}

// Scrolling near the end loads the next page; on the TV, where the arrows scroll, only Show more does
// (an arrow asks peerd nothing there).
const observer = 'IntersectionObserver' in window
  ? new IntersectionObserver((seen) => {
    if (!state.pageFailed && page.view !== 'tv' && seen.some((e) => e.isIntersecting)) loadMore();
  }, { rootMargin: '0px 0px 800px 0px' })
  : null;

/** Observing anew reports at once whether the sentinel is (still) in view. */
function sentinel() {
  if (!observer || !state.ready) return;
  observer.unobserve(ui.more);
  if (state.next && !state.loading) observer.observe(ui.more);
}

// ---------------------------------------------------------------- live changes

/** A `change` event (CONTROL.md, `follow`), held while a page of the list is on its way. */
export function apply(change) {
  if (state.holding > 0) {
    state.pending.push(change);
    return;
  }
  if (change.change === 'removed') {
    if (state.total > 0) state.total--;
    drop(change.movieId);
    if (filtered()) relistSoon();
  } else if (filtered()) {
    if (change.row) refill(change.row); // at once; whether it stays, and where, the relist says
    relistSoon();
  } else if (change.row) {
    if (change.change === 'added') state.total++;
    const li = place(change.row);
    if (li && change.change === 'added') flash(li);
  }
  showCounts();
  told.changed();
  changed(change.movieId ?? change.row?.movieId, change.change !== 'removed', change.row);
}

function flash(li) {
  li.classList.remove('fresh');
  void li.offsetWidth; // restart the animation
  li.classList.add('fresh');
}

// ---------------------------------------------------------------- adding and removing

/** Adds `movie` ({id, title, year}) with `control` busy meanwhile; whether it is listed now. */
export async function add(movie, control) {
  return busy(control, async () => {
    try {
      const res = await api({ type: 'add', movie });
      clearError();
      const li = state.holding === 0 && !filtered() ? place(res.movie) : null;
      if (li) flash(li);
      changed(res.movie.movieId, true, res.movie);
      notice(res.operation ? `Added ${quoted(res.movie)}.` : `${quoted(res.movie)} is already on the list.`);
      return true;
    } catch (err) {
      fail(`Could not add ${movie.title ? `“${movie.title}”` : `movie ${movie.id}`}`, err);
      return false;
    }
  });
}

export async function remove(id, control) {
  const row = shown.get(id)?.row || { movieId: id };
  await busy(control, async () => {
    try {
      await api({ type: 'remove', movie: id });
      clearError();
      drop(id);
      notice(`Removed ${quoted(row)}.`);
      changed(id, false);
    } catch (err) {
      if (err.code === 'not-listed') {
        drop(id);
        changed(id, false);
      }
      fail(`Could not remove ${quoted(row)}`, err);
    }
  });
}


// ---------------------------------------------------------------- status and start

/** `status`'s count of the whole list: what a filter's count is of, and the count itself unfiltered. */
export function heardStatus(status) {
  if (typeof status.movies !== 'number') return;
  state.listed = status.movies;
  if (state.ready && state.holding === 0 && !filtered()) {
    state.total = status.movies;
    showCounts();
  }
}

/** The badges again, once the page knows who "me" is (a badge that counts me is outlined). */
export const redrawBadges = () => shown.forEach(({ row, li }) => badges(li.querySelector('.marks'), row));

/** Loads the first page (the stream's changes wait for it); `hooks` are told as `told` says. */
export function start(hooks) {
  told = hooks;
  loadFirst();
  setInterval(() => shown.forEach(({ row, li }) => stamp(li, row)), 60000);
  for (const control of [ui.unseen, ui.mine, ui.sort]) control.addEventListener('change', refilter);
  moreButton.addEventListener('click', () => {
    state.pageFailed = false;
    loadMore();
  });
  ui.movies.addEventListener('click', (event) => {
    const b = event.target.closest('button.remove');
    if (b) remove(Number(b.closest('.card').dataset.movieId), b);
  });
}
