// The movie view (#movie/ID, proto/WEB.md): a modal dialog over the other views, with its own link:
// what TMDB says of the movie, where to watch it, who added it, the members' marks and mine to set,
// and a row of similar movies.
import { activitySoon } from './activity.js';
import { loadRow, makeRow, rating } from './discover.js';
import { $, POSTER, button, h, picture } from './dom.js';
import { rowOf } from './list.js';
import { heardListed, isListed, listButton, mark } from './listbutton.js';
import { ago, ask, api, busy, clearError, cmpText, fail, known, notice, page, titleOf, today, watch } from './page.js';

const LOGO = 'https://image.tmdb.org/t/p/w45';

const ui = { dialog: $('movie'), body: $('movie-body'), close: $('movie-close') };
/** `movie`: the id shown (0 when closed); `opener`: what had the focus before; `row`: the open
 * movie's row as last heard (`show`, a change, a mark's answer); `seenOn`: the day in its "seen on"
 * field, kept across the view's redraws. */
const view = { movie: 0, opener: null, row: null, seenOn: '' };

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
  const row = (view.row?.movieId === id ? view.row : null) || rowOf(id) || shown?.movie;
  const result = known.get(id);
  const named = details?.title || row?.title || result?.title;
  const title = named || `TMDB ${id}`;
  const year = details?.releaseDate?.slice(0, 4) || row?.year || result?.year;
  const path = details?.posterPath || row?.posterPath || result?.posterPath;
  const box = h('div', `movie-poster hue-${id % 8}`);
  const img = picture(POSTER, path, 342, 513, `Poster: ${title}`);
  if (img) box.append(img);
  const head = h('h2', 'movie-title', title);
  head.id = 'movie-title';
  const facts = h('dl', 'facts');
  fact(facts, 'Year', year ? String(year) : '');
  fact(facts, 'Runtime', details?.runtime ? `${details.runtime} min` : '');
  fact(facts, 'Genres', (details?.genres || []).join(', '));
  const vote = details?.voteAverage ?? result?.voteAverage;
  fact(facts, 'Rating', vote == null ? '' : `${rating(vote)} of 10 on TMDB`);
  fact(facts, 'Added', row?.addedBy && isListed(id) ? `by ${row.addedBy.join(', ')}, ${ago(row.addedAt)}` : 'Not on the list');
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
export function said(m) {
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
  const me = page.me;
  const marks = on ? row?.marks || [] : [];
  const mine = marks.find((m) => m.peer === me) || {};
  if (on) {
    const list = h('ul', 'member-marks');
    for (const m of [...marks].sort((x, y) => cmpText(x.name, y.name))) {
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
  dayField.max = today();
  dayField.value = mine.seenOn || view.seenOn || today();
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
    if (kind === 'seen' && set) mark.on = /^\d{4}-\d\d-\d\d$/.test(view.seenOn) ? view.seenOn : today();
    setMark(movie, mark, b);
  });
  return b;
}

/** Sets or clears one of my marks on `movie` ({movieId, title, year}) with `control` busy meanwhile,
 * in one request: the answer (its `movie` the row as it is now), or null when it failed (said in
 * p#error). For the movie view and the TV's. */
export async function sendMark(movie, mark, control) {
  const wanted = { id: movie.movieId, title: movie.title, year: movie.year }; // undefined ones are left out
  return busy(control, async () => {
    try {
      const res = await api({ type: 'mark', movie: wanted, marks: [mark] });
      clearError();
      if (res.added) notice(`Added “${titleOf(res.movie || movie)}”.`);
      if (res.movie) heardListed(movie.movieId, true);
      activitySoon();
      return res;
    } catch (err) {
      fail(`Could not mark ${titleOf(movie)}`, err);
      return null;
    }
  });
}

/** Sets or clears one of my marks; the view shows the row the answer carries at once. */
async function setMark(movie, mark, control) {
  const res = await sendMark(movie, mark, control);
  if (res?.movie && view.movie === movie.movieId) {
    view.row = res.movie;
    showMovie(movie.movieId);
  }
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

/** Opens the view on movie `id`, or shows it there when it is open. */
export async function openMovie(id) {
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
    heardListed(id, Boolean(shown.movie));
    view.row = shown.movie || null;
    shownOf = { id, shown };
    showMovie(id);
  } catch (err) {
    // Not listed and never described: the result that named it is all there is to show.
    if (err.code === 'not-listed' && view.movie === id) {
      heardListed(id, false);
      showMovie(id);
    }
  }
}

export function closeMovie() {
  if (ui.dialog.open) ui.dialog.close();
}

ui.close.addEventListener('click', closeMovie);
ui.dialog.addEventListener('click', (event) => {
  if (event.target === ui.dialog) closeMovie(); // a click on the backdrop
});
ui.dialog.addEventListener('close', () => {
  view.movie = 0;
  if (/^#movie\//.test(location.hash)) {
    history.replaceState(null, '', page.view === 'list' ? location.pathname + location.search : `#${page.view}`);
  }
  if (view.opener?.isConnected) view.opener.focus();
});

/** Draws the view again, once the page knows who "me" is (my marks are the ones to set). */
export const redrawMine = () => view.movie && showMovie(view.movie);

watch((id, on, row) => {
  if (id !== view.movie) return;
  view.row = on ? row || view.row : null;
  showMovie(id);
});
