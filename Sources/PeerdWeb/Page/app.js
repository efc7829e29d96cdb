// peerd's page: the shared watch list, live. Plain DOM, no build step (proto/WEB.md).
// Data never goes through innerHTML: every node is made with createElement and textContent.
'use strict';
(() => {
  const PAGE = 50; // rows per list page
  const POSTER = 'https://image.tmdb.org/t/p/w342';
  const THUMB = 'https://image.tmdb.org/t/p/w92';
  const TOKEN_KEY = 'peerd.token';
  const PEERS_EVERY = 5000; // ms; there is no peers event
  const QUIET_STREAM = 40000; // ms without a byte (keep-alives come every 15 s) means the stream is dead

  const $ = (id) => document.getElementById(id);
  const ui = {
    app: $('app'), live: $('live'), name: $('name'), count: $('count'), liveText: $('live-text'),
    form: $('search'), query: $('query'), label: $('query-label'), go: $('go'), hint: $('hint'),
    found: $('found'), foundHeading: $('found-heading'), results: $('results'),
    closeResults: $('close-results'), moreResults: $('more-results'),
    error: $('error'), notice: $('notice'),
    movies: $('movies'), empty: $('empty'), more: $('more'),
    peers: $('peers'), noPeers: $('no-peers'), noToken: $('no-token'), noTokenWhy: $('no-token-why'),
    filters: $('filters'), unseen: $('f-unseen'), mine: $('f-mine'), sort: $('sort'),
  };

  const state = {
    token: null,
    stopped: false,
    tmdb: false,
    ready: false,
    total: 0,
    next: null, // the cursor after which rows are not loaded yet; null once every page is
    loading: false,
    pageFailed: false,
    holding: 1, // while > 0, changes wait in `pending` (the first page, or a page, is on its way)
    pending: [],
    search: null, // {query, page, totalPages}
    peersSeen: '',
    me: null, // this daemon's peer id (status.peer): "me" among the members' marks
    query: {}, // the list request's filters and sort (proto/CONTROL.md, "list"); {} is the whole list in its order
    listed: 0, // movies on the whole list (status.movies), to say how many a filter keeps
  };
  /** Whether the list on screen is filtered or sorted: then it can't place live rows by cursor, and asks again. */
  const filtered = () => Object.keys(state.query).length > 0;
  const listRequest = (fields) => ({ type: 'list', ...state.query, ...fields });
  /** movieId → {row, li}: the cards on screen, in list order in the DOM. */
  const shown = new Map();
  /** Called with a movie id, whether it is listed now and its row, whenever it changes (browse.js). */
  const watchers = [];
  const changed = (id, listed, row) => watchers.forEach((watch) => watch(id, listed, row));
  /** movieId → a search, discover or similar result: what the movie view shows of a movie not described. */
  const known = new Map();

  // ---------------------------------------------------------------- helpers

  function h(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text != null) node.textContent = text;
    return node;
  }

  function button(className, text, label) {
    const b = h('button', className, text);
    b.type = 'button';
    if (label) b.setAttribute('aria-label', label);
    return b;
  }

  /** An image on TMDB's server at `base` (a size), or null for a path that is not one; it goes away if it fails. */
  function picture(base, path, width, height, alt = '') {
    if (typeof path !== 'string' || !path.startsWith('/')) return null;
    const img = h('img');
    img.src = base + path;
    img.alt = alt;
    img.width = width;
    img.height = height;
    img.loading = 'lazy';
    img.decoding = 'async';
    img.addEventListener('error', () => img.remove());
    return img;
  }

  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const titleOf = (m) => m.title || `TMDB ${m.movieId ?? m.id}`;
  const quoted = (m) => `“${titleOf(m)}”`;

  // Dates by hand: the first toLocaleString() costs ~25 ms of ICU start-up, too much for first render.
  const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const day = (d) => `${d.getDate()} ${MONTHS[d.getMonth()]} ${d.getFullYear()}`;
  const pad = (n) => String(n).padStart(2, '0');
  /** Today here, as marks write a day: YYYY-MM-DD. */
  const today = (d = new Date()) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  const clock = (d) => `${pad(d.getHours())}:${pad(d.getMinutes())}`;

  function ago(ms) {
    const s = Math.max(0, (Date.now() - ms) / 1000);
    if (s < 45) return 'just now';
    if (s < 3600) return `${Math.max(1, Math.round(s / 60))} min ago`;
    if (s < 86400) return `${Math.round(s / 3600)} h ago`;
    if (s < 30 * 86400) return `${Math.round(s / 86400)} d ago`;
    return day(new Date(ms));
  }

  // Cursors are opaque to clients that only page; the page must also place rows it hears about live
  // among those on screen, and list order is the order of cursors `lamport.origin.seq` (CONTROL.md).
  const cmpText = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
  const cmpNumber = (a, b) => a.length - b.length || cmpText(a, b);
  function cmpCursor(a, b) {
    const [l1, o1, s1] = a.split('.');
    const [l2, o2, s2] = b.split('.');
    return cmpNumber(l1, l2) || cmpText(o1, o2) || cmpNumber(s1, s2);
  }

  /** "603", "tmdb:603" or a themoviedb.org movie link → {id, bare}; anything else → null. */
  function movieIdIn(text) {
    const t = text.trim();
    const m = /^(tmdb:\s*)?(\d{1,15})$/i.exec(t) ||
      /^(?:https?:\/\/)?(?:www\.)?themoviedb\.org\/(?:[a-z]{2}(?:-[a-z]{2})?\/)?movie\/(\d{1,15})(?=$|[-/?#])/i.exec(t);
    if (!m) return null;
    const bare = m.length === 3 && !m[1];
    const id = Number(m[m.length - 1]);
    return id > 0 && Number.isSafeInteger(id) ? { id, bare } : null;
  }

  // ---------------------------------------------------------------- talking to peerd

  class ApiError extends Error {
    constructor(code, message) {
      super(message);
      this.code = code;
    }
  }

  async function api(request) {
    let res;
    try {
      res = await fetch('/api/request', {
        method: 'POST',
        headers: { Authorization: `Bearer ${state.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ ...request, version: 1 }),
        cache: 'no-store',
        // Under the server's no-referrer policy the Fetch standard sends a POST's Origin as "null"
        // (Chromium sends it anyway); the API checks it, so ask for the page's own.
        referrerPolicy: 'same-origin',
      });
    } catch {
      throw new ApiError('offline', 'peerd does not answer. Is it still running?');
    }
    if (res.status === 401) {
      stop('The key in this page’s link is not (or no longer) this peerd’s.');
      throw new ApiError('token', 'this page’s key was refused');
    }
    if (!(res.headers.get('Content-Type') || '').includes('json')) {
      throw new ApiError('http', (await res.text()).trim() || `peerd answered ${res.status}`);
    }
    const body = await res.json();
    if (body.type === 'error') throw new ApiError(body.code, body.message);
    return body;
  }

  // ---------------------------------------------------------------- messages

  let noticeTimer = 0;
  function notice(text) {
    clearTimeout(noticeTimer);
    ui.notice.textContent = text;
    noticeTimer = setTimeout(() => { ui.notice.textContent = ''; }, 5000);
  }

  function fail(what, err) {
    if (state.stopped) return;
    const why = String(err?.message || err || 'something went wrong').trim();
    ui.error.textContent = `${what}: ${why}${/[.?!…]$/.test(why) ? '' : '.'}`;
    ui.error.hidden = false;
  }

  function clearError() {
    ui.error.hidden = true;
    ui.error.textContent = '';
  }

  /** No token, or a refused one: say how to get in, and stop talking to peerd. */
  function stop(why) {
    state.stopped = true;
    try { sessionStorage.removeItem(TOKEN_KEY); } catch { /* storage off */ }
    if (why) ui.noTokenWhy.textContent = why;
    ui.app.hidden = true;
    ui.live.hidden = true;
    ui.noToken.hidden = false;
    document.body.dataset.live = 'false';
  }

  // ---------------------------------------------------------------- cards

  function card(row) {
    const li = h('li', 'card');
    li.dataset.movieId = row.movieId;
    const poster = h('div', `poster-box hue-${row.movieId % 8}`);
    const ph = h('div', 'ph');
    ph.setAttribute('aria-hidden', 'true');
    ph.append(h('span', 'ph-title'), h('span', 'ph-year'));
    poster.append(ph);
    const body = h('div', 'card-body');
    const title = h('h3', 'title');
    const link = h('a', 'movie-link');
    link.href = `#movie/${row.movieId}`;
    title.append(link);
    body.append(title, h('p', 'year'), h('p', 'added'), h('p', 'marks'), button('remove', 'Remove'));
    li.append(poster, body);
    return li;
  }

  function fill(li, row) {
    const name = titleOf(row);
    const title = li.querySelector('.title');
    title.firstChild.textContent = row.title || String(row.movieId);
    title.classList.toggle('bare', !row.title);
    li.querySelector('.year').textContent = row.year ? String(row.year) : '';
    li.querySelector('.ph-title').textContent = name;
    li.querySelector('.ph-year').textContent = row.year ? String(row.year) : '';
    li.querySelector('.remove').setAttribute('aria-label', `Remove ${name}`);
    stamp(li, row);
    badges(li.querySelector('.marks'), row);

    const box = li.querySelector('.poster-box');
    let img = box.querySelector('img.poster');
    const path = typeof row.posterPath === 'string' && row.posterPath.startsWith('/') ? row.posterPath : null;
    if (!path) {
      img?.remove();
    } else {
      if (!img) {
        img = h('img', 'poster');
        img.loading = 'lazy';
        img.decoding = 'async';
        img.width = 342;
        img.height = 513;
        img.addEventListener('error', () => img.classList.add('broken'));
        img.addEventListener('load', () => img.classList.remove('broken'));
        box.append(img);
      }
      img.alt = `Poster: ${name}`;
      const src = POSTER + path;
      if (img.getAttribute('src') !== src) img.src = src;
    }
  }

  function stamp(li, row) {
    const by = row.addedBy || [];
    const who = by.length > 2 ? `${by[0]}, ${by[1]} +${by.length - 2}` : by.join(', ');
    const added = li.querySelector('.added');
    added.textContent = `${who} · ${ago(row.addedAt)}`;
    const at = new Date(row.addedAt);
    added.title = `Added by ${by.join(', ')}; first on ${day(at)} at ${clock(at)}`;
  }

  /** Compact badges of the members' marks: who wants it, who has seen it, the average rating, vetoes. */
  function badges(box, row) {
    const marks = row.marks || [];
    const items = [];
    const names = (who) => who.map((m) => m.name).sort().join(', ');
    const group = (kind, sign, who, said) => {
      if (!who.length) return;
      const b = badge(kind, `${sign} ${who.length}`, `${said} ${names(who)}`);
      b.dataset.count = who.length;
      b.classList.toggle('mine', who.some((m) => m.peer === state.me));
      items.push(b);
    };
    group('want', '♥', marks.filter((m) => m.want), 'Wanted by');
    group('seen', '✓', marks.filter((m) => m.seen), 'Seen by');
    if (row.averageRating != null) {
      const rated = marks.filter((m) => m.rating != null);
      const b = badge('rating', `★ ${row.averageRating.toFixed(1)}`,
        `Rated ${row.averageRating.toFixed(1)} of 10 on average by ${names(rated)}`);
      b.dataset.rating = row.averageRating;
      b.classList.toggle('mine', rated.some((m) => m.peer === state.me));
      items.push(b);
    }
    group('veto', '✕', marks.filter((m) => m.veto), 'Vetoed by');
    box.replaceChildren(...items);
  }

  /** A badge: short to the eye, in words to a screen reader (and as a tooltip). */
  function badge(kind, short, words) {
    const b = h('span', `badge ${kind}`);
    b.title = words;
    const seen = h('span', null, short);
    seen.setAttribute('aria-hidden', 'true');
    b.append(seen, h('span', 'vh', `${words}.`));
    return b;
  }

  /** Puts a row's card where list order says, or takes it away when it belongs to a page not loaded. */
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
  function appendPage(page) {
    const fresh = document.createDocumentFragment();
    const moved = [];
    for (const row of page.movies) {
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
    state.total = page.total;
    state.next = page.next || null;
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

  /** Shows the rows of `page` and only those, in its order, keeping the cards that stay (and their focus). */
  function reconcile(page) {
    const keep = new Set(page.movies.map((row) => row.movieId));
    for (const id of [...shown.keys()]) if (!keep.has(id)) drop(id);
    let at = ui.movies.firstElementChild;
    for (const row of page.movies) {
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
    state.total = page.total;
    state.next = page.next || null;
  }

  /** Lists again as far as was loaded (after the stream was down, a change under a filter, a new
   * filter), keeping the cards that stay. */
  async function relist(limit = Math.max(PAGE, shown.size)) {
    const query = state.query;
    state.holding++;
    try {
      const page = await api(listRequest({ limit: Math.min(10000, limit) }));
      if (query === state.query) reconcile(page); // else the new filter's answer is on its way
    } catch (err) {
      fail('Could not bring the list up to date', err);
    } finally {
      release();
    }
  }
  const resync = () => relist();

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
        const page = await api(listRequest({ limit: PAGE }));
        appendPage(page);
        break;
      } catch (err) {
        if (state.stopped) return;
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
    refreshPeers();
  }

  async function loadMore() {
    // Not while the list is asked again (a new filter's `next` is not the old one's): release() looks again.
    if (state.loading || !state.next || !state.ready || state.holding > 0) return;
    state.loading = true;
    state.holding++;
    showCounts();
    try {
      const query = state.query;
      const page = await api(listRequest({ limit: PAGE, after: state.next }));
      if (query === state.query) appendPage(page);
    } catch (err) {
      fail('Could not load more of the list', err);
      state.pageFailed = true; // until "Show more" is pressed: the observer would only hammer
    }
    state.loading = false;
    release();
  }

  const observer = 'IntersectionObserver' in window
    ? new IntersectionObserver((seen) => {
      if (!state.pageFailed && seen.some((e) => e.isIntersecting)) loadMore();
    }, { rootMargin: '0px 0px 800px 0px' })
    : null;

  /** Observing anew reports at once whether the sentinel is (still) in view. */
  function sentinel() {
    if (!observer || !state.ready) return;
    observer.unobserve(ui.more);
    if (state.next && !state.loading) observer.observe(ui.more);
  }

  // ---------------------------------------------------------------- live changes

  function apply(change) {
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
    peersSoon();
    changed(change.movieId ?? change.row?.movieId, change.change !== 'removed', change.row);
  }

  function flash(li) {
    li.classList.remove('fresh');
    void li.offsetWidth; // restart the animation
    li.classList.add('fresh');
  }

  function setLive(live) {
    document.body.dataset.live = String(live);
    ui.liveText.textContent = live ? 'Live' : 'Reconnecting…';
  }

  /** Reads `GET /api/events` with fetch (EventSource can't send the token), for as long as the page lives. */
  async function listen() {
    let delay = 500;
    let connectedBefore = false;
    while (!state.stopped) {
      const aborter = new AbortController();
      let quiet = 0;
      const awake = () => {
        clearTimeout(quiet);
        quiet = setTimeout(() => aborter.abort(), QUIET_STREAM);
      };
      let opened = 0;
      try {
        const res = await fetch('/api/events', {
          headers: { Authorization: `Bearer ${state.token}`, Accept: 'text/event-stream' },
          cache: 'no-store',
          signal: aborter.signal,
        });
        if (res.status === 401) {
          stop('The key in this page’s link is not (or no longer) this peerd’s.');
          return;
        }
        if (!res.ok || !res.body) throw new Error(`events: ${res.status}`);
        opened = Date.now();
        setLive(true);
        if (connectedBefore) {
          resync(); // changes made while we were away were not heard
          document.dispatchEvent(new Event('peerd:pick'));
        }
        connectedBefore = true;
        awake();
        await window.peerdLive.readEvents(res.body, awake, (type, data) => {
          if (type === 'change') apply(JSON.parse(data));
          else if (type === 'pick') document.dispatchEvent(new Event('peerd:pick')); // browse.js asks pickStatus
        });
      } catch {
        // fall through to reconnect
      } finally {
        clearTimeout(quiet);
      }
      if (state.stopped) return;
      setLive(false);
      if (opened && Date.now() - opened > 10000) delay = 500;
      await sleep(delay * (1 + Math.random() * 0.3));
      delay = Math.min(delay * 2, 15000);
    }
  }

  // ---------------------------------------------------------------- status and peers

  function applyStatus(status) {
    if (status.peer && status.peer !== state.me) {
      state.me = status.peer;
      shown.forEach(({ row, li }) => badges(li.querySelector('.marks'), row));
      document.dispatchEvent(new Event('peerd:me')); // the movie view shows my marks as mine
    }
    if (typeof status.movies === 'number') state.listed = status.movies;
    ui.name.textContent = status.name || '';
    document.title = status.name ? `Watch list · ${status.name}` : 'Watch list · peerd';
    // Search by title works with this peerd's token or through a connected peer's (status.search).
    const tmdb = (status.search ?? status.tmdb) === true;
    if (tmdb !== state.tmdb || !ui.form.dataset.mode) {
      state.tmdb = tmdb;
      ui.form.dataset.mode = tmdb ? 'search' : 'id';
      ui.label.textContent = tmdb ? 'Find a movie' : 'Add a movie';
      ui.query.placeholder = tmdb ? 'Search TMDB by title' : 'TMDB id or link';
      ui.go.textContent = tmdb ? 'Search' : 'Add';
      ui.hint.textContent = tmdb
        ? 'Search by title, or add directly with tmdb:603 or a themoviedb.org/movie/… link'
        : 'A TMDB id (603), tmdb:603, or a link like themoviedb.org/movie/603-the-matrix';
    }
  }

  const STATE_ORDER = ['connected', 'handshaking', 'connecting', 'relayed', 'retrying', 'untrusted'];

  function renderPeers(peers) {
    const sorted = [...peers].sort((a, b) =>
      STATE_ORDER.indexOf(a.state) - STATE_ORDER.indexOf(b.state) ||
      cmpText((a.name || a.peer || a.address || '').toLowerCase(), (b.name || b.peer || b.address || '').toLowerCase()));
    const rows = sorted.map((p) => {
      const detail = p.state === 'retrying' && p.retryIn != null
        ? `${p.lastError ? `${p.lastError}; ` : ''}retry in ${Math.ceil(p.retryIn)} s`
        : p.state === 'connected' ? (p.address || '') : (p.lastError || p.address || '');
      return { key: p.peer || p.address || '', name: p.name || (p.peer ? p.peer.slice(0, 8) : p.address || '?'),
        state: p.state, detail, title: [p.peer, ...(p.addresses || [])].filter(Boolean).join('\n') };
    });
    const seen = JSON.stringify(rows);
    if (seen === state.peersSeen) return;
    state.peersSeen = seen;
    const items = rows.map((p) => {
      const li = h('li', `peer is-${p.state}`);
      li.dataset.peer = p.key;
      if (p.title) li.title = p.title;
      const line = h('span', 'peer-line');
      const dot = h('span', 'dot');
      dot.setAttribute('aria-hidden', 'true');
      line.append(dot, h('span', 'name', p.name), h('span', 'state', p.state));
      li.append(line);
      if (p.detail) li.append(h('span', 'meta', p.detail));
      return li;
    });
    ui.peers.replaceChildren(...items);
    ui.noPeers.hidden = items.length > 0;
  }

  let peersBusy = false;
  async function refreshPeers() {
    if (peersBusy || state.stopped) return;
    peersBusy = true;
    try {
      const [peers, status] = await Promise.all([api({ type: 'peers' }), api({ type: 'status' })]);
      renderPeers(peers.peers || []);
      applyStatus(status);
      if (state.ready && state.holding === 0 && !filtered() && typeof status.movies === 'number') {
        state.total = status.movies;
        showCounts();
      }
    } catch {
      // the live dot and the next try say enough; errors of what the user did go to p#error
    } finally {
      peersBusy = false;
    }
  }

  let peersTimer = 0;
  function peersSoon() {
    clearTimeout(peersTimer);
    peersTimer = setTimeout(refreshPeers, 300);
  }

  // ---------------------------------------------------------------- adding, removing, searching

  async function busy(control, work) {
    if (control.classList.contains('busy')) return undefined;
    control.classList.add('busy');
    control.setAttribute('aria-busy', 'true');
    try {
      return await work();
    } finally {
      control.classList.remove('busy');
      control.removeAttribute('aria-busy');
    }
  }

  async function add(movie, control) {
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

  async function remove(id, control) {
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
        state.search = { query, page: res.page, totalPages: res.totalPages };
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
      // browse.js's add button, kept true to the list: "Add", or "On the list" and disabled.
      li.append(thumb, text, listButton(r));
      return li;
    });
    if (more) ui.results.append(...items);
    else ui.results.replaceChildren(...items);
    const n = res.totalResults;
    ui.foundHeading.textContent = n
      ? `${n} ${n === 1 ? 'result' : 'results'} for “${res.query}”`
      : `No movies found for “${res.query}”`;
    ui.moreResults.hidden = !(res.page < res.totalPages);
    ui.found.hidden = false;
  }

  function closeResults() {
    ui.found.hidden = true;
    ui.results.replaceChildren();
    state.search = null;
  }

  // ---------------------------------------------------------------- for browse.js

  /** A result's add button: browse.js lends its own (the Discover tiles'), which says "On the list"
   * once the movie is listed, live. */
  let listButton = null;

  window.peerd = Object.freeze({
    lendListButton: (fn) => { listButton = fn; },
    api, h, button, picture, add, remove, fail, clearError, notice, ago, titleOf, known, POSTER, today, cmpCursor,
    busy, row: (id) => shown.get(id)?.row, me: () => state.me,
    watch: (fn) => watchers.push(fn),
  });

  // ---------------------------------------------------------------- start

  function takeToken() {
    const m = /(?:^#|&)token=([^&]*)/.exec(location.hash);
    if (m) {
      const token = decodeURIComponent(m[1]);
      try { sessionStorage.setItem(TOKEN_KEY, token); } catch { /* kept in memory only */ }
      history.replaceState(null, '', location.pathname + location.search);
      return token || null;
    }
    try { return sessionStorage.getItem(TOKEN_KEY); } catch { return null; }
  }

  function start() {
    // A new link pasted into this tab only changes the fragment: take its token and start over.
    window.addEventListener('hashchange', () => {
      if (/token=/.test(location.hash)) {
        takeToken();
        location.reload();
      }
    });
    state.token = takeToken();
    if (!state.token) {
      stop();
      return;
    }
    // The first page and the status go out together; the stream starts too, and holds its changes
    // until the first page is on screen.
    loadFirst();
    api({ type: 'status' }).then(applyStatus, (err) => fail('Could not read peerd’s status', err));
    listen();
    setInterval(refreshPeers, PEERS_EVERY); // the first time comes with the first page (release)
    setInterval(() => shown.forEach(({ row, li }) => stamp(li, row)), 60000);

    ui.form.addEventListener('submit', submit);
    for (const control of [ui.unseen, ui.mine, ui.sort]) control.addEventListener('change', refilter);
    ui.closeResults.addEventListener('click', () => {
      closeResults();
      ui.query.focus();
    });
    moreButton.addEventListener('click', () => {
      state.pageFailed = false;
      loadMore();
    });
    ui.moreResults.addEventListener('click', () => {
      if (state.search) search(state.search.query, state.search.page + 1);
    });
    ui.movies.addEventListener('click', (event) => {
      const b = event.target.closest('button.remove');
      if (b) remove(Number(b.closest('.card').dataset.movieId), b);
    });
    document.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && !ui.found.hidden && !document.querySelector('dialog[open]')) {
        event.preventDefault();
        closeResults();
        ui.query.focus();
      }
    });
  }

  start();
})();
