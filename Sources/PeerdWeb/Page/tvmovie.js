// The TV's movie view (proto/WEB.md, "#tv"): a modal dialog over the TV view with a movie's poster
// and details (card.js's card: the list's row at once, then `show`'s describe, the one request its
// Enter makes), each member's marks in words, and mine as big buttons a remote reaches with its
// arrows: Want to watch, Seen (today), Veto, each one `mark`; and Back. Escape and Backspace close it
// too (tv.js), and the focus goes back to the poster that opened it.
import { voteCard } from './card.js';
import { $, h } from './dom.js';
import { rowOf } from './list.js';
import { said, sendMark } from './movie.js';
import { api, page, today, watch } from './page.js';

const KINDS = ['want', 'seen', 'veto'];
const ui = {
  dialog: $('tv-movie'), card: $('tv-movie-card'), marks: $('tv-movie-marks'), back: $('tv-movie-back'),
  want: $('tv-mark-want'), seen: $('tv-mark-seen'), veto: $('tv-mark-veto'),
};
/** `movie`: the id shown (0 when closed); `row`: its row as last heard (null when not listed);
 * `details`: its describe, once `show` answered; `opener`: the poster's link that opened it. */
const view = { movie: 0, row: null, details: null, opener: null };

/** What is known of the movie shown, as card.js's card takes it. */
function cardOf() {
  const d = view.details || {};
  const r = view.row || {};
  const year = Number(d.releaseDate?.slice(0, 4)) || r.year;
  return { movieId: view.movie, title: d.title || r.title, year, runtime: d.runtime, overview: d.overview,
    posterPath: d.posterPath || r.posterPath };
}

/** Draws the movie again; the buttons stay, and so does the focus on them. */
function draw() {
  const genres = view.details?.genres?.length ? [h('p', 'vote-meta', view.details.genres.join(', '))] : [];
  const art = voteCard(cardOf(), { heading: 'h2', more: genres });
  art.querySelector('.vote-title').id = 'tv-movie-title';
  ui.card.replaceChildren(art);
  const marks = view.row?.marks || [];
  ui.marks.replaceChildren(...marks.map((m) => h('li', 'member',
    `${m.peer === page.me ? `${m.name} (you)` : m.name} ${said(m)}`)));
  const mine = marks.find((m) => m.peer === page.me) || {};
  for (const kind of KINDS) ui[kind].setAttribute('aria-pressed', String(Boolean(mine[kind])));
  // Not on the list (removed meanwhile): only Want, which puts it back, as the movie view offers.
  ui.seen.hidden = ui.veto.hidden = !view.row;
}

/** Opens the view on listed movie `id`, its Want button focused. */
export async function openTvMovie(id) {
  view.opener = document.activeElement;
  Object.assign(view, { movie: id, row: rowOf(id) || null, details: null });
  draw();
  if (!ui.dialog.open) ui.dialog.showModal();
  ui.want.focus();
  try {
    const shown = await api({ type: 'show', movie: id });
    if (view.movie !== id) return;
    Object.assign(view, { row: shown.movie || null, details: shown.details || null });
    draw();
  } catch (err) {
    if (view.movie === id && err.code === 'not-listed') {
      view.row = null;
      draw();
    } // else the row is all there is to show
  }
}

export const tvMovieOpen = () => ui.dialog.open;
export function closeTvMovie() {
  if (ui.dialog.open) ui.dialog.close();
}

for (const kind of KINDS) {
  const b = ui[kind];
  b.addEventListener('click', async () => {
    const id = view.movie;
    const set = b.getAttribute('aria-pressed') !== 'true';
    const res = await sendMark(cardOf(), kind === 'seen' && set ? { kind, set, on: today() } : { kind, set }, b);
    if (res?.movie && view.movie === id) {
      view.row = res.movie;
      draw();
    }
  });
}
ui.back.addEventListener('click', closeTvMovie);
ui.dialog.addEventListener('close', () => {
  view.movie = 0;
  if (view.opener?.isConnected) view.opener.focus({ preventScroll: true });
});

watch((id, on, row) => {
  if (id !== view.movie) return;
  view.row = on ? row || view.row : null;
  draw();
});
