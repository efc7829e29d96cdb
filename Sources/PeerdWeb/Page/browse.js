// peerd's page, browsing TMDB: the Discover view (#discover: rows that load as they come into view,
// and more as they scroll sideways), the movie view (#movie/ID: a dialog with its own link, with the
// members' marks and mine to set) and the Activity view (#activity: the group's history, live). It
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
    toList: $('to-list'), toDiscover: $('to-discover'), toActivity: $('to-activity'),
    dialog: $('movie'), body: $('movie-body'), close: $('movie-close'),
    activity: $('activity'), history: $('history'), historyNote: $('history-note'), moreHistory: $('more-history'),
    toTonight: $('to-tonight'), tonight: $('tonight'), result: $('pick-result'), start: $('pick-start'),
    mode: $('pick-mode'), startPick: $('start-pick'), vote: $('pick-vote'), card: $('pick-card'), yes: $('vote-yes'),
    no: $('vote-no'), rank: $('pick-rank'), finalists: $('finalists'), sendRanking: $('send-ranking'),
    wait: $('pick-wait'), voters: $('pick-voters'), closePick: $('close-pick'), pickNote: $('pick-note'),
    guestQr: $('guest-qr'),
  };
  /** `row`: the open movie's row as last heard (`show`, a change, a mark's answer); `seenOn`: the day
   * in its "seen on" field, kept across the view's redraws. */
  const view = { current: 'list', built: false, rendered: false, movie: 0, opener: null, row: null, seenOn: '' };
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

  // app.js's search results use the same button, so a result says "On the list" as a tile does.
  P.lendListButton(listButton);

  P.watch((id, on, row) => {
    listed.set(id, on);
    for (const b of document.querySelectorAll(`button.add[data-movie-id="${id}"]`)) mark(b);
    if (id === view.movie) {
      view.row = on ? row || view.row : null;
      showMovie(id);
    }
    activitySoon();
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
    const row = (view.row?.movieId === id ? view.row : null) || P.row(id) || shown?.movie;
    const result = P.known.get(id);
    const named = details?.title || row?.title || result?.title;
    const title = named || `TMDB ${id}`;
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
    const movie = { movieId: id, title: named, year: year ? Number(year) : undefined };
    const action = listButton(movie);
    action.classList.add('big');
    action.id = 'movie-list';
    mark(action);
    text.append(links, action, marksBlock(movie, row, isListed(id)));
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

  // ---------------------------------------------------------------- marks, in the movie view

  /** One member's marks in words: "wants to watch it, rates it 8/10". */
  function said(m) {
    const words = [];
    if (m.want) words.push('wants to watch it');
    if (m.seen) words.push(m.seenOn ? `saw it on ${m.seenOn}` : 'has seen it');
    if (m.rating != null) words.push(`rates it ${m.rating}/10`);
    if (m.veto) words.push('vetoes it');
    return words.join(', ');
  }

  /** Each member's marks, the average, and mine to set: real buttons (aria-pressed), a day and a select. */
  function marksBlock(movie, row, on) {
    const block = h('section', 'members');
    const head = h('h3', null, 'Marks');
    head.id = 'members-title';
    block.setAttribute('aria-labelledby', head.id);
    block.append(head);
    const me = P.me();
    const marks = on ? row?.marks || [] : [];
    const mine = marks.find((m) => m.peer === me) || {};
    if (on) {
      const list = h('ul', 'member-marks');
      for (const m of [...marks].sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0))) {
        const li = h('li', 'member');
        li.dataset.peer = m.peer;
        li.append(h('span', 'name', m.peer === me ? `${m.name} (you)` : m.name), ' ', h('span', 'said', said(m)));
        list.append(li);
      }
      block.append(marks.length ? list : h('p', 'hint', 'Nobody has marked it yet.'));
      if (row?.averageRating != null) {
        block.append(h('p', 'average', `Average rating ${row.averageRating.toFixed(1)} of 10`));
      }
    }
    const controls = h('div', 'my-marks');
    controls.setAttribute('role', 'group');
    controls.setAttribute('aria-label', 'Your marks');
    controls.append(toggle(movie, 'want', on ? 'Want to watch' : 'Want to watch: put it on the list', mine.want));
    if (!on) {
      block.append(controls);
      return block;
    }
    const seen = toggle(movie, 'seen', 'Seen', mine.seen);
    const dayField = h('input');
    dayField.type = 'date';
    dayField.id = 'seen-on';
    dayField.max = P.today();
    dayField.value = mine.seenOn || view.seenOn || P.today();
    dayField.addEventListener('input', () => { view.seenOn = dayField.value; });
    dayField.addEventListener('change', () => {
      view.seenOn = dayField.value;
      if (mine.seen && /^\d{4}-\d\d-\d\d$/.test(dayField.value) && dayField.value !== mine.seenOn) {
        setMark(movie, { kind: 'seen', set: true, on: dayField.value }, dayField);
      }
    });
    const dayLabel = h('label', 'day', 'on ');
    dayLabel.append(dayField);
    const rating = h('select');
    rating.id = 'my-rating';
    rating.append(new Option('No rating', ''));
    for (let n = 1; n <= 10; n++) rating.append(new Option(`${n} of 10`, String(n)));
    rating.value = mine.rating == null ? '' : String(mine.rating);
    rating.addEventListener('change', () => {
      const value = Number(rating.value);
      setMark(movie, value ? { kind: 'rating', set: true, rating: value } : { kind: 'rating', set: false }, rating);
    });
    const rateLabel = h('label', 'rate', 'Your rating ');
    rateLabel.append(rating);
    const seenLine = h('span', 'seen-line');
    seenLine.append(seen, dayLabel);
    controls.append(seenLine, rateLabel, toggle(movie, 'veto', 'Veto', mine.veto));
    block.append(controls);
    return block;
  }

  function toggle(movie, kind, text, on) {
    const b = button(`mark mark-${kind}`, text);
    b.id = `mark-${kind}`;
    b.setAttribute('aria-pressed', String(Boolean(on)));
    b.addEventListener('click', () => {
      const set = b.getAttribute('aria-pressed') !== 'true';
      const mark = { kind, set };
      if (kind === 'seen' && set) mark.on = /^\d{4}-\d\d-\d\d$/.test(view.seenOn) ? view.seenOn : P.today();
      setMark(movie, mark, b);
    });
    return b;
  }

  /** Sets or clears one of my marks; the view shows the row the answer carries at once. */
  async function setMark(movie, mark, control) {
    const id = movie.movieId;
    const wanted = { id, title: movie.title, year: movie.year }; // undefined ones are left out
    await P.busy(control, async () => {
      try {
        const res = await P.api({ type: 'mark', movie: wanted, marks: [mark] });
        P.clearError();
        if (res.added) P.notice(`Added “${P.titleOf(res.movie || movie)}”.`);
        if (res.movie && view.movie === id) {
          listed.set(id, true);
          view.row = res.movie;
          showMovie(id);
        }
        activitySoon();
      } catch (err) {
        P.fail(`Could not mark ${P.titleOf(movie)}`, err);
      }
    });
  }

  let similar = null;
  let shownOf = { id: 0, shown: null };

  /** Draws the top of the movie view again; what had the focus in it has it again. */
  function showMovie(id) {
    const focused = ui.body.contains(document.activeElement) ? document.activeElement.id : '';
    const top = renderMovie(id, shownOf.id === id ? shownOf.shown : null);
    const old = ui.body.querySelector('.movie-top');
    if (old) old.replaceWith(top);
    else ui.body.prepend(top);
    if (focused) document.getElementById(focused)?.focus({ preventScroll: true });
  }

  async function openMovie(id) {
    if (!ui.dialog.open) {
      view.opener = document.activeElement;
      ui.dialog.showModal();
    }
    view.movie = id;
    view.row = null;
    view.seenOn = '';
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
      view.row = shown.movie || null;
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
  document.addEventListener('peerd:me', () => view.movie && showMovie(view.movie));
  ui.dialog.addEventListener('click', (event) => {
    if (event.target === ui.dialog) closeMovie(); // a click on the backdrop
  });
  ui.dialog.addEventListener('close', () => {
    view.movie = 0;
    if (/^#movie\//.test(location.hash)) {
      history.replaceState(null, '', view.current === 'list' ? location.pathname + location.search : `#${view.current}`);
    }
    if (view.opener?.isConnected) view.opener.focus();
  });

  // ---------------------------------------------------------------- the Activity view

  const activity = { next: null, loading: false, again: false, timer: 0 };

  function entry(e) {
    const li = h('li', 'entry');
    li.dataset.cursor = e.cursor;
    li.dataset.at = e.at;
    const text = h(e.movieId ? 'a' : 'span', 'what', e.text);
    if (e.movieId) {
      li.dataset.movieId = e.movieId;
      text.href = `#movie/${e.movieId}`;
    }
    li.append(text, ' ', h('time', 'when'));
    return li;
  }

  /** The newest page of history, merged with what is shown; with `older`, the page after it. */
  async function loadHistory(older = false) {
    if (activity.loading) {
      activity.again ||= !older;
      return;
    }
    activity.loading = true;
    ui.moreHistory.classList.toggle('busy', older);
    try {
      const res = await P.api({ type: 'history', limit: 50, ...(older ? { before: activity.next } : {}) });
      const shown = [...ui.history.children];
      const have = new Set(shown.map((li) => li.dataset.cursor));
      const fresh = res.entries.filter((e) => !have.has(e.cursor)).map(entry);
      if (older) {
        ui.history.append(...fresh);
        activity.next = res.next || null;
      } else if (shown.length && fresh.length < res.entries.length) {
        // Newer ones (and one that came late from a peer) go where history's order says.
        for (const li of fresh) {
          const after = [...ui.history.children].find((at) => P.cmpCursor(at.dataset.cursor, li.dataset.cursor) < 0);
          if (after) ui.history.insertBefore(li, after);
          else if (!activity.next) ui.history.append(li);
        }
      } else {
        ui.history.replaceChildren(...fresh);
        activity.next = res.next || null;
      }
      for (const li of ui.history.children) li.lastChild.textContent = P.ago(Number(li.dataset.at));
      ui.historyNote.replaceChildren(ui.history.children.length ? '' : 'Nothing has happened yet.');
      document.body.dataset.activity = 'ready';
    } catch (err) {
      const again = button('quiet retry', 'Try again');
      again.addEventListener('click', () => loadHistory(older));
      ui.historyNote.replaceChildren(`Could not load the activity: ${String(err.message || err)} `, again);
    } finally {
      activity.loading = false;
      ui.moreHistory.classList.remove('busy');
      ui.moreHistory.hidden = !activity.next;
    }
    if (activity.again) {
      activity.again = false;
      loadHistory();
    }
  }

  /** After a change, the view's newest lines again, while it is shown (or under the movie view). */
  function activitySoon() {
    if (view.current !== 'activity') return; // showing it loads it anew
    clearTimeout(activity.timer);
    activity.timer = setTimeout(() => loadHistory(), 50);
  }

  ui.moreHistory.addEventListener('click', () => loadHistory(true));


  // ---------------------------------------------------------------- the Tonight view

  /** `state`: the pick as last rendered (a pickState, or null for none); `asked`/`shown`: the number
   * of the newest request and of the one whose answer is on screen (an older answer is dropped). */
  const pick = { state: null, asked: 0, shown: 0, busy: false, ranking: [], seenOpen: '', guests: '' };
  const pickId = (s) => (s ? `${s.pick.origin}:${s.pick.seq}` : '');
  const cardName = (c) => `${c.title || `Movie ${c.movieId}`}${c.year ? ` (${c.year})` : ''}`;

  /** A request about the pick; its pickState rendered unless a newer one was asked since. */
  async function askPick(request) {
    const n = ++pick.asked;
    try {
      const s = await P.api(request);
      if (n > pick.shown) {
        pick.shown = n;
        renderPick(s);
      }
      ui.pickNote.textContent = '';
      return s;
    } catch (err) {
      if (request.type === 'pickStatus' && err.code === 'bad-request') {
        if (n > pick.shown) {
          pick.shown = n;
          renderPick(null);
        }
      } else {
        ui.pickNote.textContent = String(err.message || err);
      }
      return null;
    } finally {
      document.body.dataset.tonight = 'ready';
    }
  }

  const loadPick = () => askPick({ type: 'pickStatus' });

  function pickCard(c) {
    const art = h('article', 'pick-card');
    art.dataset.movieId = c.movieId;
    const box = h('div', `tile-poster hue-${c.movieId % 8}`);
    box.append(h('span', 'ph-title', c.title || String(c.movieId)));
    const img = P.picture(P.POSTER, c.posterPath, 342, 513);
    if (img) box.append(img);
    const text = h('div', 'pick-text');
    const title = h('h3', 'pick-title', c.title || `Movie ${c.movieId}`);
    const meta = [c.year, c.runtime ? `${c.runtime} min` : ''].filter(Boolean).join(' · ');
    text.append(title, h('p', 'pick-meta', meta));
    if (c.overview) text.append(h('p', 'pick-overview', c.overview));
    text.append(h('p', 'pick-wanted', c.wantedBy?.length ? `Wanted by ${c.wantedBy.join(', ')}` : 'Nobody wants it yet'));
    art.append(box, text);
    window.peerdLive.swipe(art, castVote);
    return art;
  }

  function renderPick(s) {
    const prev = pick.state;
    pick.state = s;
    const open = Boolean(s?.open);
    ui.tonight.dataset.pick = pickId(s);
    ui.tonight.dataset.outcome = s ? s.outcome : '';
    ui.tonight.dataset.open = String(open);
    // The result, said once on each page that shows it (an aria-live region).
    // A pick this page saw open is tonight's; one that ended before it came is the last one.
    if (open) pick.seenOpen = pickId(s);
    const now = open || pick.seenOpen === pickId(s);
    let said = '';
    // Under the view's heading "Tonight", tonight's result needs no "Tonight" of its own.
    if (s?.outcome === 'chosen' && s.result) said = `${now ? 'Chosen' : 'Last pick'}: ${cardName(s.result)}`;
    else if (s?.outcome === 'none') said = now ? 'None chosen: the votes agreed on no movie.' : 'Last pick: no movie chosen.';
    if (ui.result.textContent !== said) ui.result.textContent = said;
    if (s?.result) ui.result.dataset.movieId = s.result.movieId;
    else delete ui.result.dataset.movieId;
    ui.start.hidden = open;
    ui.closePick.hidden = !open;
    // A pick is its opener's to close: on another's, the button says whose it closes.
    const others = s && s.pick.origin !== P.me();
    const closeText = others ? `Close ${s.openedBy}'s pick` : 'Close the pick';
    if (ui.closePick.textContent !== closeText) ui.closePick.textContent = closeText;
    const ranked = s?.mode === 'ranked';
    const next = open && !ranked && s.outcome === 'voting' ? s.next : null;
    ui.vote.hidden = !next;
    if (next && ui.card.firstChild?.dataset.movieId !== String(next.movieId)) ui.card.replaceChildren(pickCard(next));
    if (!next) ui.card.replaceChildren();
    const me = s?.voters.find((v) => v.peer === P.me());
    ui.rank.hidden = !(open && ranked && s.outcome === 'voting');
    if (!ui.rank.hidden && (pickId(prev) !== pickId(s) || !pick.ranking.length)) {
      pick.ranking = s.deck.map((c) => c.movieId);
      drawRanking();
    }
    let wait = '';
    if (open && s.outcome === 'voting' && !next && !(ranked && !(me?.voted))) wait = 'Your votes are in; waiting for the others.';
    ui.wait.textContent = wait;
    ui.voters.replaceChildren(...(s ? s.voters.map((v) => {
      const li = h('li', 'voter');
      if (v.peer) li.dataset.peer = v.peer;
      li.dataset.voted = v.voted;
      const bar = h('progress');
      bar.max = s.deck.length;
      bar.value = v.voted;
      bar.setAttribute('aria-hidden', 'true');
      li.append(h('span', 'voter-name', `${v.name}${v.guest ? ' (guest)' : ''}`), ' ', bar, ' ',
        h('span', 'voter-count', `${v.voted} of ${s.deck.length}`));
      return li;
    }) : []));
    ui.voters.hidden = !s;
    if (!s) ui.wait.textContent = 'No pick yet. Start one: everyone connected votes on the list’s movies.';
    showGuests(open ? s.guests : null);
  }

  /** The guest link of an open pick this peer opened (`guests`): its QR code, its URL, or why there is none. */
  function showGuests(g) {
    const key = g ? JSON.stringify(g) : '';
    ui.guestQr.hidden = !key;
    if (pick.guests === key) return; // redrawn only when it changed: the link keeps the focus
    pick.guests = key;
    ui.guestQr.classList.toggle('problem', Boolean(g && !g.url));
    if (!g?.url) return ui.guestQr.replaceChildren(...(g ? [h('p', null, String(g.problem))] : []));
    const caption = h('figcaption', null, 'Guests scan this to vote on their phone');
    const link = caption.appendChild(h('a', null, g.url));
    Object.assign(link, { id: 'guest-link', href: g.url });
    ui.guestQr.replaceChildren(...[qrCode(g.svg)].filter(Boolean), caption);
  }

  /** The daemon's SVG, parsed as XML (never as HTML) and kept to its shapes: no scripts, links or handlers. */
  function qrCode(text) {
    const doc = new DOMParser().parseFromString(String(text || ''), 'image/svg+xml');
    const root = doc.documentElement;
    if (root.namespaceURI !== 'http://www.w3.org/2000/svg' || root.localName !== 'svg') return null;
    if (doc.getElementsByTagName('parsererror').length) return null;
    for (const el of [root, ...root.querySelectorAll('*')]) {
      if (!['svg', 'rect', 'path'].includes(el.localName)) el.remove();
      for (const a of [...el.attributes]) {
        if (!/^(xmlns|viewBox|shape-rendering|width|height|x|y|d|fill|stroke|stroke-width)$/.test(a.name)) el.removeAttribute(a.name);
      }
    }
    const svg = document.importNode(root, true);
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', 'QR code of the guest link');
    svg.classList.add('qr');
    return svg;
  }

  function drawRanking(focus) {
    const deck = new Map(pick.state.deck.map((c) => [c.movieId, c]));
    ui.finalists.replaceChildren(...pick.ranking.map((id, i) => {
      const li = h('li', 'finalist');
      li.dataset.movieId = id;
      const name = cardName(deck.get(id) || { movieId: id });
      const up = button('quiet up', '↑', `Move ${name} up`);
      const down = button('quiet down', '↓', `Move ${name} down`);
      up.disabled = i === 0;
      down.disabled = i === pick.ranking.length - 1;
      const move = (by, which) => () => {
        const r = pick.ranking;
        [r[i], r[i + by]] = [r[i + by], r[i]];
        drawRanking([id, which]);
      };
      up.addEventListener('click', move(-1, 'up'));
      down.addEventListener('click', move(1, 'down'));
      li.append(h('span', 'finalist-name', name), up, down);
      return li;
    }));
    if (focus) {
      const li = ui.finalists.querySelector(`li[data-movie-id="${focus[0]}"]`);
      const b = li.querySelector(`button.${focus[1]}`);
      (b.disabled ? li.querySelector('button:not([disabled])') : b).focus();
    }
  }

  async function castVote(yes) {
    const c = pick.state?.next;
    if (!c || pick.busy || ui.vote.hidden) return;
    pick.busy = true;
    ui.yes.disabled = ui.no.disabled = true;
    const was = document.activeElement;
    try {
      await askPick({ type: 'vote', pick: pick.state.pick, movie: c.movieId, yes });
    } finally {
      pick.busy = false;
      ui.yes.disabled = ui.no.disabled = false;
      if ((was === ui.yes || was === ui.no) && !ui.vote.hidden) was.focus();
      else if (was === ui.yes || was === ui.no) (ui.closePick.hidden ? ui.startPick : ui.closePick).focus();
    }
  }

  ui.yes.addEventListener('click', () => castVote(true));
  ui.no.addEventListener('click', () => castVote(false));
  document.addEventListener('keydown', (e) => {
    if (view.current !== 'tonight' || ui.vote.hidden || ui.dialog.open) return;
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    if (e.target.closest?.('input, select, textarea')) return;
    if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
    e.preventDefault();
    castVote(e.key === 'ArrowRight');
  });
  ui.startPick.addEventListener('click', async () => {
    ui.startPick.disabled = true;
    const s = await askPick({ type: 'pick', mode: ui.mode.value });
    ui.startPick.disabled = false;
    if (s) (ui.vote.hidden ? (ui.rank.hidden ? ui.closePick : ui.finalists.querySelector('button:not([disabled])')) : ui.yes).focus();
  });
  ui.sendRanking.addEventListener('click', () => askPick({ type: 'vote', pick: pick.state.pick, ranking: pick.ranking }));
  ui.closePick.addEventListener('click', async () => {
    if (!pick.state) return;
    const s = await askPick({ type: 'pickClose', pick: pick.state.pick, force: pick.state.pick.origin !== P.me() });
    if (s) ui.startPick.focus();
  });
  document.addEventListener('peerd:pick', () => {
    if (view.current === 'tonight') loadPick();
  });

  // ---------------------------------------------------------------- views and links

  function showView(name) {
    view.current = name;
    ui.app.hidden = name !== 'list';
    ui.discover.hidden = name !== 'discover';
    ui.activity.hidden = name !== 'activity';
    ui.tonight.hidden = name !== 'tonight';
    const links = [[ui.toList, 'list'], [ui.toDiscover, 'discover'], [ui.toActivity, 'activity'],
      [ui.toTonight, 'tonight']];
    for (const [a, is] of links) {
      if (is === name) a.setAttribute('aria-current', 'page');
      else a.removeAttribute('aria-current');
    }
    if (name === 'discover') buildDiscover();
    if (name === 'activity') loadHistory();
    if (name === 'tonight') loadPick();
  }

  function route() {
    if (!ui.noToken.hidden) return;
    const movie = /^#movie\/(\d{1,15})$/.exec(location.hash);
    if (movie) {
      openMovie(Number(movie[1]));
      return;
    }
    closeMovie();
    showView(['#discover', '#activity', '#tonight'].includes(location.hash) ? location.hash.slice(1) : 'list');
  }

  window.addEventListener('hashchange', route);
  route();
})();
