// The News view (#news, proto/WEB.md): where the movies someone wants stream now, as a token holder
// of the group found it on TMDB (`news`, CONTROL.md), newest first; and the count of new reports on
// the link to it, kept current from the list's changes (a report of a listed movie comes as one).
import { $, button, h } from './dom.js';
import { api, clock, day, known, page, shortDay, titleOf } from './page.js';

const THUMB = 'https://image.tmdb.org/t/p/w185';
const SHOWN = 100; // reports the view shows; news is rare, so the newest 100 are all there is in practice
const SOON = 400; // ms: a burst of changes asks for the count once

const ui = {
  link: $('to-news'), badge: $('news-badge'), items: $('news-items'), empty: $('news-empty'),
  note: $('news-note'), credit: $('news-credit'),
};

/** `loading`: a request of the view is out; `again`: the view is to be asked again when it is back;
 * `fresh`: the reports that were new when the view was shown (`origin:seq`). */
const view = { loading: false, again: false, timer: 0, fresh: new Set() };

// ---------------------------------------------------------------- the count on the link

/** The link's badge: the reports since this member last looked, hidden at 0. */
function showCount(n) {
  ui.badge.textContent = n > 0 ? String(n) : '';
  ui.badge.hidden = !(n > 0);
  ui.link.dataset.unread = String(n);
  if (n > 0) ui.link.setAttribute('aria-label', `News, ${n} new`);
  else ui.link.removeAttribute('aria-label');
}

async function loadCount() {
  try {
    const res = await api({ type: 'news', limit: 0 });
    if (page.view !== 'news') showCount(res.unread);
  } catch {
    // the count waits for the next change; the view says what failed when it is opened
  }
}

/** After a change (or another member chosen): the view again while it is shown, else the count. */
export function newsSoon() {
  if (page.view === 'tv') return; // the TV shows no header, and asks peerd nothing it doesn't show
  clearTimeout(view.timer);
  view.timer = setTimeout(() => (page.view === 'news' ? loadNews() : loadCount()), SOON);
}

// ---------------------------------------------------------------- the view

/** "wanted by alice", "wanted by alice and sam", "wanted by alice, bob and sam", "wanted by nobody now". */
function wantedWords(names) {
  if (!names?.length) return 'wanted by nobody now';
  if (names.length === 1) return `wanted by ${names[0]}`;
  return `wanted by ${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** The poster, over its title on a quiet gradient: what shows while it loads, when there is none, or
 * when TMDB's image server can't be reached (then it stays, hidden, as on the list's cards). */
function poster(item, name) {
  const box = h('div', `news-poster hue-${item.movieId % 8}`);
  const ph = h('span', 'ph-title', name);
  ph.setAttribute('aria-hidden', 'true');
  box.append(ph);
  if (typeof item.posterPath === 'string' && item.posterPath.startsWith('/')) {
    const img = h('img');
    img.src = THUMB + item.posterPath;
    img.alt = `Poster: ${name}`;
    img.width = 185;
    img.height = 278;
    img.loading = 'lazy';
    img.decoding = 'async';
    img.addEventListener('error', () => img.classList.add('broken'));
    box.append(img);
  }
  return box;
}

/** The reports on screen, by operation (`origin:seq`): each keeps its node, and its link the focus
 * (and stays what opened the movie view), while the view is drawn again. */
const shown = new Map();
const keyOf = (item) => `${item.operation.origin}:${item.operation.seq}`;

/** One report: its poster and title (one link to the movie view, over the whole report), "new", its
 * lines, who wants the movie, when TMDB's data was read, and TMDB's page of where to watch it. */
function fill({ li, link }, item, isNew) {
  const name = titleOf(item);
  const focused = document.activeElement === link;
  li.dataset.movieId = item.movieId;
  li.dataset.unread = String(isNew);
  const title = h('h3', 'news-title');
  link.textContent = item.year ? `${name} (${item.year})` : name;
  link.href = `#movie/${item.movieId}`;
  title.append(link);
  if (isNew) title.append(' ', h('span', 'news-new', 'new'));
  const lines = h('ul', 'news-lines');
  item.lines.forEach((text, i) => {
    const change = item.changes[i]?.change || 'arrived';
    const line = h('li', `news-line change-${change}`, text);
    if (change === 'rent' || change === 'buy') line.classList.add('minor');
    lines.append(line);
  });
  const read = new Date(item.read);
  const when = h('time', 'news-read', `read ${shortDay(read)}`);
  when.dateTime = read.toISOString();
  when.title = `TMDB’s data as ${item.reportedBy}’s peerd read it on ${day(read)} at ${clock(read)}`;
  const meta = h('p', 'news-meta');
  const wanted = h('span', `news-wanted${item.wantedBy?.length ? '' : ' nobody'}`, wantedWords(item.wantedBy));
  meta.append(wanted, ' · ', when);
  const text = h('div', 'news-text');
  text.append(title, lines, meta);
  if (item.link) {
    const out = h('a', 'news-link out', `Where to watch it (${item.region}), on TMDB`);
    out.href = item.link;
    out.target = '_blank';
    out.rel = 'noopener noreferrer';
    text.append(out);
  }
  li.replaceChildren(poster(item, name), text);
  if (focused) link.focus({ preventScroll: true });
}

/** The report's node, made or brought up to date. */
function place(item, isNew) {
  const key = keyOf(item);
  let entry = shown.get(key);
  if (!entry) {
    entry = { li: h('li', 'news-item'), link: h('a', 'movie-link'), said: '' };
    entry.li.dataset.operation = key;
    shown.set(key, entry);
  }
  const said = JSON.stringify([item, isNew]);
  if (said !== entry.said) {
    fill(entry, item, isNew);
    entry.said = said;
  }
  return entry.li;
}

/** Shows the answer's reports, in its order, moving no node that stays where it is. A report stays
 * "new" for as long as the view is shown, though the look made it read. */
function render(res) {
  for (const item of res.items) {
    if (item.unread) view.fresh.add(keyOf(item));
    if (!known.has(item.movieId)) {
      const { movieId, title, year, posterPath } = item;
      known.set(movieId, { movieId, title, year, posterPath });
    }
  }
  const keep = new Set(res.items.map(keyOf));
  for (const [key, { li }] of shown) {
    if (keep.has(key)) continue;
    shown.delete(key);
    li.remove();
  }
  let at = ui.items.firstElementChild;
  for (const item of res.items) {
    const li = place(item, view.fresh.has(keyOf(item)));
    if (li === at) at = at.nextElementSibling;
    else ui.items.insertBefore(li, at);
  }
  ui.empty.hidden = res.items.length > 0;
  const more = res.total > res.items.length;
  ui.note.replaceChildren(more ? `The newest ${res.items.length} of ${res.total} reports.` : '');
  if (res.attribution) ui.credit.textContent = res.attribution;
}

/** The newest reports, and this member has now looked at them: the count starts again from here. */
async function loadNews() {
  if (view.loading) {
    view.again = true;
    return;
  }
  view.loading = true;
  ui.items.setAttribute('aria-busy', 'true');
  try {
    const res = await api({ type: 'news', limit: SHOWN, looked: true });
    render(res);
    showCount(0);
    document.body.dataset.news = 'ready';
  } catch (err) {
    const again = button('quiet retry', 'Try again');
    again.addEventListener('click', () => loadNews());
    ui.note.replaceChildren(`Could not load the news: ${String(err.message || err)} `, again);
  } finally {
    view.loading = false;
    ui.items.setAttribute('aria-busy', 'false');
  }
  if (view.again) {
    view.again = false;
    if (page.view === 'news') loadNews();
  }
}

/** The view is shown: its reports, looked at; what is new is what came since it was shown last. */
export function showNews() {
  view.fresh.clear();
  loadNews();
}

/** On start: the count on the link (the view, when the page opens on it, asks for itself). */
export function startNews() {
  if (page.view !== 'news') loadCount();
}
