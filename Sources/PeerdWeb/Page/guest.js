// peerd's guest page (proto/WEB.md, "Guests"): someone at the movie night without peerd joins the
// host's pick with a name, votes yes or no on its movies one card at a time, and sees everyone's
// progress and the result, live. It is served at /g/CAPABILITY/, so every URL here is relative.
// It uses the member's page's API, stream and card modules; data never goes through innerHTML.
import { ApiError, answerOf, send } from './api.js';
import { cardName, voteCard } from './card.js';
import { $, h, sleep } from './dom.js';
import { follow } from './live.js';

const TOKEN_KEY = `peerd-guest:${location.pathname}`;

const ui = {
  about: $('about'), live: $('live'), error: $('error'), result: $('result'),
  join: $('join'), name: $('guest-name'), joinButton: $('join-button'),
  voting: $('voting'), you: $('you'), cardBox: $('card-box'), cardNote: $('card-note'), yes: $('yes'), no: $('no'),
  done: $('done'), doneHeading: $('done-heading'), myVotes: $('my-votes'), ranked: $('ranked'), finalists: $('finalists'),
  closed: $('closed'), closedHeading: $('closed-heading'), closedResult: $('closed-result'),
  progress: $('progress'), voters: $('voters'),
};

/** `asked`/`shown`: the newest request that answers a state and the one on screen (an older answer
 * is dropped); `busy`: a join or a vote is on its way; `closed`: a 410 came, and the page stops
 * asking; `stream`: the event stream (live.js's `follow`); `deck`: the deck the "your votes" list shows. */
const guest = { token: readToken(), asked: 0, shown: 0, busy: false, closed: false, stream: null, deck: '' };

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

/** GETs `path`, or POSTs `body` as JSON to it: the answer's JSON, or an ApiError (with `withToken`,
 * whether the request carried a token). A 429 waits its Retry-After and asks again, three times at most. */
async function call(path, body) {
  for (let tries = 0; ; tries++) {
    const withToken = Boolean(guest.token);
    const res = await send(path, {
      body,
      headers: authorization(),
      offline: 'The host’s computer does not answer. Are you on the same Wi-Fi?',
    });
    if (res.status === 429 && tries < 3) await holdOff(res);
    else return answer(res, withToken);
  }
}

/** A 2xx answer's JSON; else an ApiError from its body (`{"error":{code,message}}`, or a line of text). */
async function answer(res, withToken) {
  const { json, text } = await answerOf(res);
  if (res.ok && json) return json;
  const e = json?.error;
  const message = e?.message || text.trim() || `The host’s peerd answered ${res.status}.`;
  const err = new ApiError(e?.code || `http-${res.status}`, message, { status: res.status, body: json });
  err.withToken = withToken;
  throw err;
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
  guest.stream?.stop();
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
    if (typeof joined.token !== 'string') throw new ApiError('bad-answer', 'The host’s answer had no token.');
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
  const art = voteCard(c, { heading: 'h2', vote: voteOnCard });
  art.id = 'card';
  art.setAttribute('aria-labelledby', 'card-title');
  art.querySelector('.vote-title').id = 'card-title';
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

/** Follows `events` until the pick closes; each `pick` event, and each reconnect, asks `state` again. */
function listen() {
  guest.stream = follow('events', {
    headers: authorization,
    onOpen(again) {
      if (again || (!loading && document.body.dataset.guest !== 'ready')) loadState(); // what was missed
    },
    onEvent(type) {
      if (type === 'pick') loadState();
    },
    async onRefused(res) {
      if (res.status === 429) {
        await holdOff(res);
        return true;
      }
      const withToken = Boolean(guest.token);
      await answer(res, withToken).catch((err) => {
        if (err.status === 410 || err.status === 401) failed(err, 'state');
      });
      return false;
    },
  });
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
