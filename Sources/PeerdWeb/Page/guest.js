// peerd's guest page (proto/WEB.md, "Guests"): someone at the movie night without peerd joins the
// host's pick with a name, votes yes or no on its movies one card at a time, and sees everyone's
// progress and the result, live. It is served at /g/CAPABILITY/, so every URL here is relative.
// Data never goes through innerHTML: every node is made with createElement and textContent.
'use strict';
(() => {
  const POSTER = 'https://image.tmdb.org/t/p/w342';
  const TOKEN_KEY = `peerd-guest:${location.pathname}`;
  const QUIET_STREAM = 40000; // ms without a byte (a comment comes every 15 s) means the stream is dead

  const $ = (id) => document.getElementById(id);
  const ui = {
    about: $('about'), live: $('live'), liveText: $('live-text'), error: $('error'), result: $('result'),
    join: $('join'), name: $('guest-name'), joinButton: $('join-button'),
    voting: $('voting'), you: $('you'), cardBox: $('card-box'), cardNote: $('card-note'), yes: $('yes'), no: $('no'),
    done: $('done'), doneHeading: $('done-heading'), myVotes: $('my-votes'), ranked: $('ranked'), finalists: $('finalists'),
    closed: $('closed'), closedHeading: $('closed-heading'), closedResult: $('closed-result'),
    progress: $('progress'), voters: $('voters'),
  };

  /** `asked`/`shown`: the newest request that answers a state and the one on screen (an older answer
   * is dropped); `busy`: a join or a vote is on its way; `closed`: a 410 came, and the page stops
   * asking; `stream`: the event stream's AbortController; `deck`: the deck the "your votes" list shows. */
  const guest = { token: readToken(), asked: 0, shown: 0, busy: false, closed: false, stream: null, deck: '' };

  // ---------------------------------------------------------------- helpers

  function h(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text != null) node.textContent = text;
    return node;
  }

  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const titleOf = (c) => c.title || `Movie ${c.movieId}`;
  const cardName = (c) => `${titleOf(c)}${c.year ? ` (${c.year})` : ''}`;

  /** 136 → "2 h 16 min". */
  function runtimeText(minutes) {
    if (!(minutes > 0)) return '';
    const hours = Math.floor(minutes / 60);
    const rest = minutes % 60;
    return [hours ? `${hours} h` : '', rest ? `${rest} min` : ''].filter(Boolean).join(' ');
  }

  // ---------------------------------------------------------------- the guest's token

  function readToken() {
    try { return localStorage.getItem(TOKEN_KEY); } catch { return null; }
  }

  function keepToken(token) {
    guest.token = token;
    try { localStorage.setItem(TOKEN_KEY, token); } catch { /* kept in memory only */ }
  }

  function forgetToken() {
    guest.token = null;
    try { localStorage.removeItem(TOKEN_KEY); } catch { /* storage off */ }
  }

  const authorization = () => (guest.token ? { Authorization: `Guest ${guest.token}` } : {});

  // ---------------------------------------------------------------- talking to the host's peerd

  class GuestError extends Error {
    constructor(status, code, message, body = null, withToken = false) {
      super(message);
      Object.assign(this, { status, code, body, withToken });
    }
  }

  /** GETs `path`, or POSTs `body` as JSON to it: the answer's JSON, or a GuestError. A 429 waits its
   * Retry-After and asks again, three times at most. */
  async function call(path, body) {
    for (let tries = 0; ; tries++) {
      const withToken = Boolean(guest.token);
      const init = { headers: authorization(), cache: 'no-store' };
      if (body !== undefined) {
        Object.assign(init, { method: 'POST', body: JSON.stringify(body), referrerPolicy: 'same-origin' });
        init.headers['Content-Type'] = 'application/json';
      }
      let res;
      try {
        res = await fetch(path, init);
      } catch {
        throw new GuestError(0, 'offline', 'The host’s computer does not answer. Are you on the same Wi-Fi?');
      }
      if (res.status === 429 && tries < 3) await holdOff(res);
      else return answer(res, withToken);
    }
  }

  /** A 2xx answer's JSON; else a GuestError from its body (`{"error":{code,message}}`, or a line of text). */
  async function answer(res, withToken) {
    const text = await res.text().catch(() => '');
    let body = null;
    try { body = JSON.parse(text); } catch { /* a line of text */ }
    if (res.ok && body) return body;
    const e = body?.error;
    const message = e?.message || text.trim() || `The host’s peerd answered ${res.status}.`;
    throw new GuestError(res.status, e?.code || `http-${res.status}`, message, body, withToken);
  }

  /** Over a limit (429): says how long the page waits, then waits that long. */
  async function holdOff(res) {
    const seconds = Math.min(60, Math.max(1, Number.parseInt(res.headers.get('Retry-After'), 10) || 5));
    showError(`Too many requests from this phone: trying again in ${seconds} s.`, 'wait');
    await sleep(seconds * 1000);
    clearError('wait');
  }

  // ---------------------------------------------------------------- messages

  /** `from` says what set the error, so that only a success of the same kind clears it. */
  function showError(text, from) {
    ui.error.textContent = text;
    ui.error.dataset.from = from;
    ui.error.hidden = false;
  }

  function clearError(only) {
    if (only && ui.error.dataset.from !== only) return;
    ui.error.hidden = true;
    ui.error.textContent = '';
    delete ui.error.dataset.from;
  }

  /** What a failed request means for the page: a closed pick, a token the host no longer takes, or words. */
  function failed(err, from) {
    if (guest.closed) return;
    if (err.status === 410) {
      close(err.body?.result ?? null);
    } else if (err.status === 401 && err.withToken) {
      forgetToken();
      // 'token': kept until an action succeeds, not cleared by the state that shows the form again
      showError('The host’s peerd no longer knows this phone (the pick may have started over). Join again with your name.',
        'token');
      loadState();
    } else {
      showError(err.message, from);
      if (from === 'vote' && (err.status === 400 || err.status === 409)) loadState(); // the deck or mode changed?
    }
  }

  // ---------------------------------------------------------------- the state

  /** A request that answers the pick as this guest sees it: rendered unless a newer one is on screen. */
  async function show(ask, from) {
    const n = ++guest.asked;
    try {
      const state = await ask();
      if (n > guest.shown && !guest.closed) {
        guest.shown = n;
        render(state);
      }
      clearError(from === 'state' ? 'state' : '');
    } catch (err) {
      failed(err, from);
    }
  }

  /** Asks `state` again; asks made while one is on its way become one more ask after it. */
  let loading = null;
  let loadAgain = false;
  function loadState() {
    if (loading) {
      loadAgain = true;
      return loading;
    }
    loading = (async () => {
      do {
        loadAgain = false;
        await show(() => call('state'), 'state');
      } while (loadAgain && !guest.closed);
    })().finally(() => { loading = null; });
    return loading;
  }

  function render(s) {
    if (!s.open) {
      close(s.result ?? null);
      return;
    }
    const ranked = s.mode === 'ranked';
    const joined = Boolean(guest.token && s.you);
    const voting = joined && !ranked;
    const next = voting && s.next ? { ...s.next, ...s.deck.find((c) => c.movieId === s.next.movieId) } : null;
    const size = s.deck.length;
    ui.about.textContent = `${s.openedBy}'s pick · ${size} ${size === 1 ? 'movie' : 'movies'} · ${s.mode}`;
    document.title = `${s.openedBy}'s pick · Movie night`;
    sayResult(s.outcome, s.result);
    ui.join.hidden = joined || ranked;
    ui.you.textContent = s.you ? `Voting as ${s.you.name}` : '';
    showCard(next);
    showMyVotes(s, voting && !next);
    showFinalists(ranked ? s.deck : null);
    showVoters(s);
    document.body.dataset.guest = 'ready';
  }

  /** The result in the live region: said once, when it changes. */
  function sayResult(outcome, result) {
    let said = '';
    if (outcome === 'chosen' && result) said = `Tonight: ${cardName(result)}`;
    else if (outcome === 'none') said = 'No movie was chosen.';
    if (ui.result.textContent !== said) ui.result.textContent = said;
    if (outcome === 'chosen' && result) ui.result.dataset.movieId = result.movieId;
    else delete ui.result.dataset.movieId;
    return said;
  }

  /** The pick is closed (a 410 from any request): only the result stays, and the page stops asking. */
  function close(result) {
    if (guest.closed) return;
    const hadFocus = document.activeElement?.closest?.('#join, #voting, #done');
    guest.closed = true;
    guest.stream?.abort();
    for (const part of [ui.join, ui.voting, ui.done, ui.ranked, ui.progress, ui.error, ui.live]) part.hidden = true;
    ui.cardBox.replaceChildren();
    document.body.dataset.live = 'false';
    ui.closedResult.textContent = sayResult(result ? 'chosen' : 'none', result);
    ui.result.classList.add('vh'); // the live region still says it aloud; the eye reads it in section#closed
    ui.closed.hidden = false;
    document.body.dataset.guest = 'ready';
    if (hadFocus) ui.closedHeading.focus();
  }

  // ---------------------------------------------------------------- joining

  async function join(event) {
    event.preventDefault();
    if (guest.busy || guest.closed) return;
    const name = ui.name.value.trim();
    if (!name) {
      showError('Type your name first: the others see it next to your progress.', 'join');
      ui.name.focus();
      return;
    }
    setBusy(true);
    try {
      const joined = await call('join', { name });
      if (typeof joined.token !== 'string') throw new GuestError(0, 'bad-answer', 'The host’s answer had no token.');
      keepToken(joined.token);
      clearError();
      await loadState();
      if (!ui.voting.hidden) ui.yes.focus();
      else if (!ui.done.hidden) ui.doneHeading.focus();
    } catch (err) {
      failed(err, 'join');
      if (!guest.closed && !ui.join.hidden) ui.name.focus();
    } finally {
      setBusy(false);
    }
  }

  /** While a join or a vote is on its way, its buttons look busy and do nothing (they keep the focus). */
  function setBusy(busy) {
    guest.busy = busy;
    for (const b of [ui.joinButton, ui.yes, ui.no, ...ui.myVotes.querySelectorAll('button')]) {
      b.classList.toggle('busy', busy);
    }
  }

  // ---------------------------------------------------------------- the card and the votes

  function showCard(next) {
    ui.voting.hidden = !next;
    const shown = ui.cardBox.firstChild;
    if (!next) {
      ui.cardBox.replaceChildren();
      ui.cardNote.textContent = '';
    } else if (shown?.dataset.movieId !== String(next.movieId)) {
      ui.cardBox.replaceChildren(movieCard(next));
      if (shown) ui.cardNote.textContent = `Next: ${cardName(next)}`;
    }
  }

  function movieCard(c) {
    const art = h('article', 'card');
    art.id = 'card';
    art.dataset.movieId = c.movieId;
    art.setAttribute('aria-labelledby', 'card-title');
    const box = h('div', `poster hue-${c.movieId % 8}`);
    const ph = h('span', 'poster-title', titleOf(c));
    ph.setAttribute('aria-hidden', 'true');
    box.append(ph);
    if (typeof c.posterPath === 'string' && c.posterPath.startsWith('/')) {
      const img = h('img');
      Object.assign(img, { src: POSTER + c.posterPath, alt: `Poster of ${cardName(c)}`, width: 342, height: 513 });
      img.addEventListener('error', () => img.remove());
      box.append(img);
    }
    const text = h('div', 'card-text');
    const title = h('h2', 'card-title', titleOf(c));
    title.id = 'card-title';
    const meta = h('p', 'card-meta');
    for (const [cls, value] of [['year', c.year], ['runtime', runtimeText(c.runtime)]]) {
      if (value) meta.append(h('span', cls, String(value)));
    }
    text.append(title, meta);
    if (c.overview) text.append(h('p', 'card-overview', c.overview));
    art.append(box, text);
    window.peerdLive.swipe(art, voteOnCard);
    return art;
  }

  /** Every movie voted on: the guest's votes, each a Yes/No toggle to change it while the pick is open. */
  function showMyVotes(s, shown) {
    ui.done.hidden = !shown;
    if (!shown) return;
    ui.doneHeading.textContent = s.outcome === 'voting'
      ? 'You have voted on every movie. Waiting for the others…'
      : 'The votes are in. You can still change yours until the host closes the pick.';
    const deck = s.deck.map((c) => c.movieId).join(',');
    if (guest.deck !== deck) {
      guest.deck = deck;
      ui.myVotes.replaceChildren(...s.deck.map(myVote));
    }
    for (const li of ui.myVotes.children) {
      const said = s.you.votes?.[li.dataset.movieId];
      li.querySelector('.yes').setAttribute('aria-pressed', String(said === true));
      li.querySelector('.no').setAttribute('aria-pressed', String(said === false));
    }
  }

  function myVote(c) {
    const li = h('li', 'my-vote');
    li.dataset.movieId = c.movieId;
    const toggle = h('div', 'toggle');
    toggle.setAttribute('role', 'group');
    toggle.setAttribute('aria-label', `Your vote on ${cardName(c)}`);
    for (const yes of [true, false]) {
      const b = h('button', yes ? 'yes' : 'no', yes ? 'Yes' : 'No');
      b.type = 'button';
      b.addEventListener('click', () => castVote(c.movieId, yes));
      toggle.append(b);
    }
    li.append(h('span', 'my-vote-name', cardName(c)), toggle);
    return li;
  }

  async function castVote(movie, yes) {
    if (guest.busy || guest.closed) return;
    setBusy(true);
    const was = document.activeElement;
    await show(() => call('vote', { movie, yes }), 'vote');
    setBusy(false);
    if ((was === ui.yes || was === ui.no) && ui.voting.hidden && !ui.done.hidden) ui.doneHeading.focus();
  }

  const voteOnCard = (yes) => {
    const id = Number(ui.cardBox.firstChild?.dataset.movieId);
    if (id && !ui.voting.hidden) castVote(id, yes);
  };

  /** A ranked pick: guests don't rank in this version, so they only see the finalists. */
  function showFinalists(deck) {
    ui.ranked.hidden = !deck;
    ui.finalists.replaceChildren(...(deck || []).map((c) => {
      const li = h('li', 'finalist', cardName(c));
      li.dataset.movieId = c.movieId;
      return li;
    }));
  }

  function showVoters(s) {
    const size = s.deck.length;
    ui.progress.hidden = !s.voters.length;
    ui.voters.replaceChildren(...s.voters.map((v) => {
      const li = h('li', 'voter');
      li.dataset.voted = v.voted;
      const bar = h('progress');
      bar.max = Math.max(size, 1);
      bar.value = v.voted;
      bar.setAttribute('aria-hidden', 'true');
      li.append(h('span', 'voter-name', v.guest ? `${v.name} (guest)` : v.name), bar,
        h('span', 'voter-count', `${v.voted} of ${size}`));
      return li;
    }));
  }

  // ---------------------------------------------------------------- live

  function setLive(live) {
    document.body.dataset.live = String(live);
    ui.liveText.textContent = live ? 'Live' : 'Reconnecting…';
  }

  /** Reads `events` with fetch (EventSource can't send the token) until the pick closes; each `pick`
   * event, and each reconnect, asks `state` again. */
  async function listen() {
    let delay = 500;
    let connectedBefore = false;
    while (!guest.closed) {
      const aborter = new AbortController();
      guest.stream = aborter;
      let quiet = 0;
      const awake = () => {
        clearTimeout(quiet);
        quiet = setTimeout(() => aborter.abort(), QUIET_STREAM);
      };
      let opened = 0;
      try {
        const withToken = Boolean(guest.token);
        const res = await fetch('events', {
          headers: { ...authorization(), Accept: 'text/event-stream' }, cache: 'no-store', signal: aborter.signal,
        });
        if (res.status === 429) {
          await holdOff(res);
          continue;
        }
        if (!res.ok) await answer(res, withToken); // throws
        if (!res.body) throw new Error('events: no stream');
        opened = Date.now();
        setLive(true);
        if (connectedBefore || (!loading && document.body.dataset.guest !== 'ready')) loadState(); // what was missed
        connectedBefore = true;
        awake();
        await window.peerdLive.readEvents(res.body, awake, (type) => {
          if (type === 'pick') loadState();
        });
      } catch (err) {
        if (err instanceof GuestError && (err.status === 410 || err.status === 401)) failed(err, 'state');
      } finally {
        clearTimeout(quiet);
      }
      if (guest.closed) return;
      setLive(false);
      if (opened && Date.now() - opened > 10000) delay = 500;
      await sleep(delay * (1 + Math.random() * 0.3));
      delay = Math.min(delay * 2, 15000);
    }
  }

  // ---------------------------------------------------------------- start

  ui.join.addEventListener('submit', join);
  ui.yes.addEventListener('click', () => voteOnCard(true));
  ui.no.addEventListener('click', () => voteOnCard(false));
  document.addEventListener('keydown', (e) => {
    if (ui.voting.hidden || guest.closed) return;
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    if (e.target.closest?.('input, select, textarea')) return;
    if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
    e.preventDefault();
    voteOnCard(e.key === 'ArrowRight');
  });
  loadState();
  listen();
})();
