// The TV view (#tv, proto/WEB.md): tonight's pick and the list's posters, big, for a browser on the
// television, moved through with the arrow keys and Enter alone (a remote's D-pad). The posters are
// the list view's own cards (list.js keeps them, live), drawn big by tv.css; the pick is Tonight's
// (tonight.js tells it); Enter on a poster opens the TV's movie view (tvmovie.js). An arrow asks
// peerd nothing and Enter asks at most one thing. The focus is always on something of the view: when
// what had it goes (a movie removed, a vote's buttons once the deck is done), it goes to the same
// movie, or to what is drawn nearest to where it was.
import { $, h } from './dom.js';
import { busy, page } from './page.js';
import { centre, isArrow, nearest, nextInDirection } from './spatial.js';
import { castVote, loadPick, onPick, pickCard, startPick } from './tonight.js';
import { closeTvMovie, openTvMovie, tvMovieOpen } from './tvmovie.js';

const ui = {
  card: $('tv-card'), said: $('tv-said'), vote: $('tv-vote'), yes: $('tv-yes'), no: $('tv-no'),
  start: $('tv-start'), voters: $('tv-voters'), dialog: $('tv-movie'), movies: $('movies'),
};

/** What the arrows move between: the view's link and buttons, the posters (their links), Show more. */
const TARGETS = '#tv a[href], #tv button, #movies a.movie-link, #more button';
const POSTER = '#movies a.movie-link';

/** Where an element is drawn: a poster's link is its whole card. */
const box = (el) => (el.closest('li.card') || el).getBoundingClientRect();
const drawn = (el) => !el.disabled && el.getClientRects().length > 0;
/** What the arrows can reach now: the movie view's buttons while it is open, else the view's. */
const targets = () =>
  [...(tvMovieOpen() ? ui.dialog.querySelectorAll('button') : document.querySelectorAll(TARGETS))].filter(drawn);

/** The focus as last placed in the view (not in the movie view): its poster's movie, whether it was
 * on the pick's buttons, and where it was drawn, in the document's coordinates. `moved`: whether a key
 * has placed it since the view opened. */
const last = { movieId: null, inPick: false, at: null, moved: false };

function remember(el) {
  const c = centre(box(el));
  last.movieId = el.closest('li.card')?.dataset.movieId ?? null;
  last.inPick = Boolean(el.closest('.tv-pick'));
  last.at = { x: c.x + window.scrollX, y: c.y + window.scrollY };
}

function focusOn(el) {
  el.focus({ preventScroll: true });
  (el.closest('li.card') || el).scrollIntoView({ block: 'center', inline: 'nearest' });
}

/** Where the focus starts: Yes when there is a card to vote on, else the first poster. */
const home = (all) => (all.includes(ui.yes) ? ui.yes : all.find((el) => el.matches(POSTER)) || all[0]);

/** The focus back on the view when it was lost: on the same movie; from the pick's buttons, on what
 * the pick offers now (Yes once a pick started, Start once it closed); else on what is drawn nearest.
 * Until a key moved it, where it starts. */
function keepFocus() {
  if (page.view !== 'tv' || document.querySelector('dialog[open]:not(#tv-movie)')) return;
  const active = document.activeElement;
  if (last.moved && !tvMovieOpen() && active?.matches?.(TARGETS) && drawn(active)) return;
  const all = targets();
  let to;
  if (tvMovieOpen()) to = all.includes(active) ? active : all[0];
  else if (!last.moved) to = home(all);
  else {
    to = (last.movieId && all.find((el) => el.closest('li.card')?.dataset.movieId === last.movieId))
      || (last.inPick && [ui.yes, ui.start].find((el) => all.includes(el)))
      || (last.at && nearest(all, { x: last.at.x - window.scrollX, y: last.at.y - window.scrollY }, box))
      || home(all);
  }
  if (to && to !== active) focusOn(to);
}

document.addEventListener('focusin', (e) => {
  if (page.view === 'tv' && e.target.matches?.(TARGETS)) remember(e.target);
});
// Every change to what is drawn (a live change to the list, a vote's answer, the movie view closing).
new MutationObserver(keepFocus).observe(document.body,
  { childList: true, subtree: true, attributes: true, attributeFilter: ['hidden', 'disabled', 'open'] });

// ---------------------------------------------------------------- keys

function onKey(e) {
  if (page.view !== 'tv' || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
  if (isArrow(e.key)) {
    e.preventDefault();
    last.moved = true;
    const all = targets();
    const to = all.includes(document.activeElement)
      ? nextInDirection(document.activeElement, all, e.key, box) : home(all);
    if (to) focusOn(to);
  } else if (e.key === 'Enter') {
    last.moved = true;
    const poster = document.activeElement?.closest?.(POSTER);
    if (poster && !tvMovieOpen()) {
      e.preventDefault(); // not the link's #movie/ID: the TV's own movie view
      openTvMovie(Number(poster.closest('li.card').dataset.movieId));
    } // a button's Enter is its click; the Leave TV link's, the link
  } else if (e.key === 'Escape' || e.key === 'Backspace') {
    e.preventDefault();
    if (tvMovieOpen()) closeTvMovie();
    else location.hash = ''; // back to the page
  }
}
document.addEventListener('keydown', onKey);

// A click on a poster (a mouse beside the remote) opens the same view as Enter.
ui.movies.addEventListener('click', (e) => {
  const poster = e.target.closest(POSTER);
  if (page.view !== 'tv' || !poster) return;
  e.preventDefault();
  openTvMovie(Number(poster.closest('li.card').dataset.movieId));
});

// ---------------------------------------------------------------- tonight's pick

onPick(({ state, next, said, wait }) => {
  if (!next) ui.card.replaceChildren();
  else if (ui.card.firstChild?.dataset.movieId !== String(next.movieId)) ui.card.replaceChildren(pickCard(next));
  ui.vote.hidden = !next;
  ui.start.hidden = Boolean(state?.open);
  const ranked = state?.open && state.mode === 'ranked' && !wait;
  const words = ranked ? 'A ranked pick: order its finalists in the page’s Tonight view.' : wait;
  ui.said.textContent = said || (next ? '' : words);
  ui.voters.replaceChildren(...(state?.voters || []).map((v) => h('li', null,
    `${v.name}${v.guest ? ' (guest)' : ''}: ${v.voted} of ${state.deck.length}`)));
});
ui.yes.addEventListener('click', () => castVote(true));
ui.no.addEventListener('click', () => castVote(false));
ui.start.addEventListener('click', () => busy(ui.start, startPick)); // a second Enter meanwhile starts none

// ---------------------------------------------------------------- showing and leaving

/** The view is shown: tonight's pick is asked (as showing Tonight asks it), the focus placed. */
export function showTv() {
  Object.assign(last, { movieId: null, inPick: false, at: null, moved: false });
  loadPick();
  keepFocus();
}

export const leaveTv = closeTvMovie;
