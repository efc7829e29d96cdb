// The Tonight view (#tonight, proto/WEB.md): picking tonight's movie. Starting a pick, this member's
// next card with Yes and No (→ and ←, a swipe), a ranked pick's finalists to order, each voter's
// progress, the guest link's QR code, closing, and the result; live from the stream's `pick` events,
// each of which carries the pick's whole state. The TV view (tv.js) shows the same pick, told by `onPick`.
import { voteCard, cardName } from './card.js';
import { $, button, h } from './dom.js';
import { api, page } from './page.js';

const ui = {
  tonight: $('tonight'), result: $('pick-result'), start: $('pick-start'), dialog: $('movie'),
  mode: $('pick-mode'), startPick: $('start-pick'), vote: $('pick-vote'), card: $('pick-card'), yes: $('vote-yes'),
  no: $('vote-no'), rank: $('pick-rank'), finalists: $('finalists'), sendRanking: $('send-ranking'),
  wait: $('pick-wait'), voters: $('pick-voters'), closePick: $('close-pick'), pickNote: $('pick-note'),
  guestQr: $('guest-qr'),
};

/** `state`: the pick as last rendered (a pickState, or null for none); `asked`/`shown`: the number
 * of the newest request and of the one whose answer is on screen (an older answer is dropped). */
const pick = { state: null, asked: 0, shown: 0, busy: false, ranking: [], seenOpen: '', guests: '' };
const pickId = (s) => (s ? `${s.pick.origin}:${s.pick.seq}` : '');
/** The views that show the pick: each `pick` event is drawn while one of them is shown. */
const showing = () => page.view === 'tonight' || page.view === 'tv';

/** Told, after each drawing, `{state, next, said, wait}`: the pick (a pickState, or null), this
 * member's card to vote on (null when none), the result in words and what the votes wait for. */
const listeners = [];
export const onPick = (fn) => listeners.push(fn);

/** A request about the pick; its pickState rendered unless a newer one was asked since. */
async function askPick(request) {
  const n = ++pick.asked;
  try {
    const s = await api(request);
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

/** Asks how the group's current pick stands (the view shows it). */
export const loadPick = () => askPick({ type: 'pickStatus' });

/** A `pick` event's state (proto/WEB.md): shown at once, without asking, when it is the pick on
 * screen or the one that takes its place; it is newer than any answer still on its way. */
export function heard(s) {
  if (!showing() || !s?.pick) return; // showing the view asks `pickStatus` anew
  // An event says how the pick stands for the machine's own member; a profile asks for its own.
  if (page.me !== page.machine) return void loadPick();
  const now = pick.state;
  if (pickId(now) !== pickId(s)) {
    // Another pick: one opened after the shown one closed, or one older than it (left alone). Two
    // voting at once (after a partition healed), or a closed one before the view knew of any, is
    // for `pickStatus` to order.
    if (s.open ? now?.open : !now) return void loadPick();
    if (now && (now.open || (!s.open && s.openedAt < now.openedAt))) return;
  }
  pick.shown = pick.asked;
  renderPick(s);
}

/** The pick again, once the stream is back: what changed while it was down was not heard. */
export function reload() {
  if (showing()) loadPick();
}

/** Starts a pick of the list in the mode chosen (a majority one unless another is). */
export const startPick = () => askPick({ type: 'pick', mode: ui.mode.value });

/** A pick's card `c` to vote on, with who wants it. */
export function pickCard(c) {
  const who = c.wantedBy?.length ? `Wanted by ${c.wantedBy.join(', ')}` : 'Nobody wants it yet';
  const wanted = h('p', 'pick-wanted', who);
  const art = voteCard(c, { heading: 'h3', more: [wanted], vote: castVote });
  art.classList.add('pick-card');
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
  const others = s && s.pick.origin !== page.me;
  const closeText = others ? `Close ${s.openedBy}'s pick` : 'Close the pick';
  if (ui.closePick.textContent !== closeText) ui.closePick.textContent = closeText;
  const ranked = s?.mode === 'ranked';
  const next = open && !ranked && s.outcome === 'voting' ? s.next : null;
  ui.vote.hidden = !next;
  if (next && ui.card.firstChild?.dataset.movieId !== String(next.movieId)) ui.card.replaceChildren(pickCard(next));
  if (!next) ui.card.replaceChildren();
  const me = s?.voters.find((v) => v.peer === page.me);
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
  listeners.forEach((fn) => fn({ state: s, next, said, wait: ui.wait.textContent }));
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

/** This member's vote on the card shown (one request; none while one is on its way). */
export async function castVote(yes) {
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
  if (page.view !== 'tonight' || ui.vote.hidden || ui.dialog.open) return;
  if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
  if (e.target.closest?.('input, select, textarea')) return;
  if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
  e.preventDefault();
  castVote(e.key === 'ArrowRight');
});
ui.startPick.addEventListener('click', async () => {
  ui.startPick.disabled = true;
  const s = await startPick();
  ui.startPick.disabled = false;
  if (s) (ui.vote.hidden ? (ui.rank.hidden ? ui.closePick : ui.finalists.querySelector('button:not([disabled])')) : ui.yes).focus();
});
ui.sendRanking.addEventListener('click', () => askPick({ type: 'vote', pick: pick.state.pick, ranking: pick.ranking }));
ui.closePick.addEventListener('click', async () => {
  if (!pick.state) return;
  const s = await askPick({ type: 'pickClose', pick: pick.state.pick, force: pick.state.pick.origin !== page.me });
  if (s) ui.startPick.focus();
});
