// The add button of a search result, a Discover tile and the movie view, kept true to the list: it
// says "Add", or "On the list" (disabled) once the movie is listed, live; the movie view's big one
// adds or removes, and says which.
import { button } from './dom.js';
import { add, remove, rowOf } from './list.js';
import { known, titleOf, watch } from './page.js';

/** movieId → whether it is listed, as last heard (a change, an add, a remove, a `show`): the list
 * view holds only the pages loaded so far, so its cards alone can't say. */
const listed = new Map();
export const isListed = (id) => listed.get(id) ?? Boolean(rowOf(id));
/** What a `show` said of whether `id` is listed. */
export const heardListed = (id, on) => listed.set(id, on);

export function listButton(movie) {
  const b = button('add', '');
  b.dataset.movieId = movie.movieId;
  b.addEventListener('click', async () => {
    if (isListed(movie.movieId)) {
      await remove(movie.movieId, b);
    } else {
      const wanted = { id: movie.movieId, title: movie.title };
      if (movie.year) wanted.year = movie.year;
      await add(wanted, b);
    }
    mark(b);
  });
  mark(b);
  return b;
}

/** Says on `b` whether its movie is listed. */
export function mark(b) {
  const id = Number(b.dataset.movieId);
  const on = isListed(id);
  const name = titleOf(rowOf(id) || known.get(id) || { movieId: id });
  const big = b.classList.contains('big');
  // A tile only adds: "On the list" is a state, not a button that removes (the movie view and the
  // list's cards remove). The movie view's big button does both, and says which.
  b.textContent = on ? (big ? 'Remove from the list' : 'On the list') : (big ? 'Add to the list' : 'Add');
  b.disabled = on && !big;
  b.classList.toggle('done', on && !big);
  b.setAttribute('aria-label', on ? (big ? `Remove ${name} from the list` : `${name} is on the list`)
    : `Add ${name} to the list`);
}

watch((id, on) => {
  listed.set(id, on);
  for (const b of document.querySelectorAll(`button.add[data-movie-id="${id}"]`)) mark(b);
});
