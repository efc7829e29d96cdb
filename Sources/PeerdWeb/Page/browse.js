// peerd's page, browsing TMDB: the Discover view (#discover: rows that load as they come into view,
// and more as they scroll sideways) and the movie view (#movie/ID: a dialog with its own link). It
// uses what app.js shares in window.peerd; data never goes through innerHTML.
'use strict';
(() => {
  const P = window.peerd;
  if (!P) return;
  const { h, button } = P;
  const TILE = 'https://image.tmdb.org/t/p/w185';
  const LOGO = 'https://image.tmdb.org/t/p/w45';
  const $ = (id) => document.getElementById(id);
  const ui = {
    app: $('app'), discover: $('discover'), rows: $('rows'), noToken: $('no-token'),
    toList: $('to-list'), toDiscover: $('to-discover'),
    dialog: $('movie'), body: $('movie-body'), close: $('movie-close'),
  };
  const view = { current: 'list', built: false, rendered: false, movie: 0, opener: null };
  /** movieId → whether it is listed, as last heard (a change, an add, a remove, a `show`): the list
   * view holds only the pages loaded so far, so its cards alone can't say. */
  const listed = new Map();
  const isListed = (id) => listed.get(id) ?? Boolean(P.row(id));

  /** A request; when the group's token is busy (`rate-limited`), asked again a second later, thrice at most. */
  async function ask(request) {
    for (let tries = 0; ; tries++) {
      try {
        return await P.api(request);
      } catch (err) {
        if (err.code !== 'rate-limited' || tries >= 3) throw err;
        await new Promise((resolve) => setTimeout(resolve, 1000 + Math.random() * 500));
      }
    }
  }

  const rating = (hundredths) => (hundredths == null ? '' : `★ ${(hundredths / 100).toFixed(1)}`);

  // ---------------------------------------------------------------- add buttons, kept true to the list

  function listButton(movie) {
    const b = button('add', '');
    b.dataset.movieId = movie.movieId;
    b.addEventListener('click', async () => {
      if (isListed(movie.movieId)) {
        await P.remove(movie.movieId, b);
      } else {
        const wanted = { id: movie.movieId, title: movie.title };
        if (movie.year) wanted.year = movie.year;
        await P.add(wanted, b);
      }
      mark(b);
    });
    mark(b);
    return b;
  }

  function mark(b) {
    const id = Number(b.dataset.movieId);
    const on = isListed(id);
    const name = P.titleOf(P.row(id) || P.known.get(id) || { movieId: id });
    const big = b.classList.contains('big');
    // A tile only adds: "On the list" is a state, not a button that removes (the movie view and the
    // list's cards remove). The movie view's big button does both, and says which.
    b.textContent = on ? (big ? 'Remove from the list' : 'On the list') : (big ? 'Add to the list' : 'Add');
    b.disabled = on && !big;
    b.classList.toggle('done', on && !big);
    b.setAttribute('aria-label', on ? (big ? `Remove ${name} from the list` : `${name} is on the list`)
      : `Add ${name} to the list`);
  }

  P.watch((id, on) => {
    listed.set(id, on);
    for (const b of document.querySelectorAll(`button.add[data-movie-id="${id}"]`)) mark(b);
    if (id === view.movie) showMovie(id);
  });

  // ---------------------------------------------------------------- rows of tiles

  function tile(r) {
    P.known.set(r.movieId, r);
    const li = h('li', 'tile');
    li.dataset.movieId = r.movieId;
    const link = h('a', 'tile-link');
    link.href = `#movie/${r.movieId}`;
    const box = h('div', `tile-poster hue-${r.movieId % 8}`);
    box.append(h('span', 'ph-title', r.title));
    const img = P.picture(TILE, r.posterPath, 185, 278);
    if (img) box.append(img);
    const meta = [r.year, rating(r.voteAverage)].filter(Boolean).join(' · ');
    link.append(box, h('span', 'tile-title', r.title), h('span', 'tile-meta', meta));
    li.append(link, listButton(r));
    return li;
  }

  /** A row of a list: its heading, a note (age, errors) and a strip that loads more at its end. */
  function makeRow(title, request, heading = 'h3') {
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

  async function loadRow(row) {
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
      row.note.replaceChildren(empty ? 'Nothing here.' : res.stale ? `As TMDB listed it ${P.ago(res.fetchedAt)}: ${res.stale}` : '');
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

  async function buildDiscover() {
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

  // ---------------------------------------------------------------- the movie view

  function fact(list, label, value) {
    if (!value) return;
    const item = h('div', 'fact');
    item.append(h('dt', null, label), h('dd', null, value));
    list.append(item);
  }

  function link(text, href) {
    const a = h('a', 'out', text);
    a.href = href;
    a.target = '_blank';
    a.rel = 'noopener noreferrer';
    return a;
  }

  /** What is known of movie `id` now: its row, its describe (`shown`), a result that named it. */
  function renderMovie(id, shown) {
    const details = shown?.details;
    const row = P.row(id) || shown?.movie;
    const result = P.known.get(id);
    const title = details?.title || row?.title || result?.title || `TMDB ${id}`;
    const year = details?.releaseDate?.slice(0, 4) || row?.year || result?.year;
    const path = details?.posterPath || row?.posterPath || result?.posterPath;
    const box = h('div', `movie-poster hue-${id % 8}`);
    const img = P.picture(P.POSTER, path, 342, 513, `Poster: ${title}`);
    if (img) box.append(img);
    const head = h('h2', 'movie-title', title);
    head.id = 'movie-title';
    const facts = h('dl', 'facts');
    fact(facts, 'Year', year ? String(year) : '');
    fact(facts, 'Runtime', details?.runtime ? `${details.runtime} min` : '');
    fact(facts, 'Genres', (details?.genres || []).join(', '));
    const vote = details?.voteAverage ?? result?.voteAverage;
    fact(facts, 'Rating', vote == null ? '' : `${rating(vote)} of 10 on TMDB`);
    fact(facts, 'Added', row?.addedBy && isListed(id) ? `by ${row.addedBy.join(', ')}, ${P.ago(row.addedAt)}` : 'Not on the list');
    const text = h('div', 'movie-text');
    text.append(head, facts);
    const overview = details?.overview || result?.overview;
    if (overview) text.append(h('p', 'movie-overview', overview));
    if (shown?.pending) text.append(h('p', 'hint', `Details: ${shown.pending}`));
    const links = h('p', 'links');
    if (details?.imdbId) links.append(link('IMDb', `https://www.imdb.com/title/${details.imdbId}/`), ' ');
    links.append(link('TMDB', `https://www.themoviedb.org/movie/${id}`));
    if (details?.providers) text.append(watchBlock(details.providers));
    const action = listButton({ movieId: id, title, year: year ? Number(year) : undefined });
    action.classList.add('big');
    mark(action);
    text.append(links, action);
    const top = h('div', 'movie-top');
    top.append(box, text);
    return top;
  }

  /** Where to watch it in the describe's region, with logos and the attribution TMDB asks for (JustWatch). */
  function watchBlock(providers) {
    const block = h('section', 'watch');
    block.append(h('h3', null, `Where to watch (${providers.region})`));
    const kinds = [['Stream', providers.stream], ['Rent', providers.rent], ['Buy', providers.buy]];
    for (const [kind, offers] of kinds) {
      if (!offers?.length) continue;
      const line = h('div', 'offers');
      const list = h('ul', 'logos');
      for (const offer of offers) {
        const item = h('li', 'provider');
        item.dataset.providerId = offer.id;
        if (offer.logoPath) {
          const logo = h('img');
          logo.src = LOGO + offer.logoPath;
          logo.alt = '';
          logo.width = 28;
          logo.height = 28;
          logo.addEventListener('error', () => logo.classList.add('broken'));
          item.append(logo);
        }
        item.append(h('span', null, offer.name));
        list.append(item);
      }
      line.append(h('span', 'kind', kind), list);
      block.append(line);
    }
    if (!kinds.some(([, offers]) => offers?.length)) block.append(h('p', 'hint', 'Nowhere that TMDB knows of.'));
    const credit = h('p', 'hint', 'Where-to-watch data by JustWatch');
    if (providers.link) credit.append(' · ', link('all offers', providers.link));
    block.append(credit);
    return block;
  }

  let similar = null;
  let shownOf = { id: 0, shown: null };

  function showMovie(id) {
    const top = renderMovie(id, shownOf.id === id ? shownOf.shown : null);
    const old = ui.body.querySelector('.movie-top');
    if (old) old.replaceWith(top);
    else ui.body.prepend(top);
  }

  async function openMovie(id) {
    if (!ui.dialog.open) {
      view.opener = document.activeElement;
      ui.dialog.showModal();
    }
    view.movie = id;
    shownOf = { id, shown: null };
    ui.body.replaceChildren();
    showMovie(id);
    similar = makeRow('Similar movies', { type: 'similar', movie: id });
    ui.body.append(similar.section);
    ui.close.focus();
    ui.dialog.scrollTop = 0;
    loadRow(similar);
    try {
      const shown = await ask({ type: 'show', movie: id });
      if (view.movie !== id) return;
      listed.set(id, Boolean(shown.movie));
      shownOf = { id, shown };
      showMovie(id);
    } catch (err) {
      // Not listed and never described: the result that named it is all there is to show.
      if (err.code === 'not-listed' && view.movie === id) {
        listed.set(id, false);
        showMovie(id);
      }
    }
  }

  function closeMovie() {
    if (ui.dialog.open) ui.dialog.close();
  }

  ui.close.addEventListener('click', closeMovie);
  ui.dialog.addEventListener('click', (event) => {
    if (event.target === ui.dialog) closeMovie(); // a click on the backdrop
  });
  ui.dialog.addEventListener('close', () => {
    view.movie = 0;
    if (/^#movie\//.test(location.hash)) {
      history.replaceState(null, '', view.current === 'discover' ? '#discover' : location.pathname + location.search);
    }
    if (view.opener?.isConnected) view.opener.focus();
  });

  // ---------------------------------------------------------------- views and links

  function showView(name) {
    view.current = name;
    ui.app.hidden = name !== 'list';
    ui.discover.hidden = name !== 'discover';
    for (const [a, is] of [[ui.toList, name === 'list'], [ui.toDiscover, name === 'discover']]) {
      if (is) a.setAttribute('aria-current', 'page');
      else a.removeAttribute('aria-current');
    }
    if (name === 'discover') buildDiscover();
  }

  function route() {
    if (!ui.noToken.hidden) return;
    const movie = /^#movie\/(\d{1,15})$/.exec(location.hash);
    if (movie) {
      openMovie(Number(movie[1]));
      return;
    }
    closeMovie();
    showView(location.hash === '#discover' ? 'discover' : 'list');
  }

  window.addEventListener('hashchange', route);
  route();
})();
