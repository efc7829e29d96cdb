// What the member's page's views share: its token and API, its messages, who "me" is, the view
// shown, what is known of movies, and words for times.
import { controlApi } from './api.js';
import { $, sleep } from './dom.js';

const TOKEN_KEY = 'peerd.token';
/** The views a link with the token may open beside it (`#token=…&view=news`). */
const LINKED_VIEWS = ['discover', 'activity', 'tonight', 'news', 'tv'];

const ui = {
  app: $('app'), live: $('live'), noToken: $('no-token'), noTokenWhy: $('no-token-why'),
  error: $('error'), notice: $('notice'),
};

/** `me`: the member the page acts for, "me" among the members' marks: this daemon's peer id
 * (status.peer), or `profile`, a profile of this machine chosen in "who's watching"; `view`: the view shown
 * (list, discover, activity, tonight, news, tv), under the movie view when it is open; `stopped`: the page
 * has no (valid) token and talks to peerd no more; `stream`: the event stream (live.js's `follow`);
 * `device`: served to a linked device (proto/WEB.md, "Devices"), whose cookie is its key; `list`: the
 * list shown (a list's id, from the address: lists.js), null for the group's. */
export const page = {
  token: takeToken(), device: false, me: null, profile: null, list: null, view: 'list', stopped: false, stream: null,
};
page.device = !page.token && onDevice();

/** movieId → a search, discover or similar result: what the movie view shows of a movie not described. */
export const known = new Map();

/** peerd refused the page's token (401): it is not, or no longer, this peerd's. */
export const refused = () => {
  // An unlinked device: loaded again, the page is peerd's words on how to link it again.
  if (page.device) location.reload();
  else stop('The key in this page’s link is not (or no longer) this peerd’s.');
};

/** The headers that carry the page's token, when it has one. */
export const authorization = () => (page.token ? { Authorization: `Bearer ${page.token}` } : {});

/** One control request with the page's token: its control response, or ApiError (api.js). */
export const api = controlApi(page.token, refused, () => page.profile, () => page.list);

/** A request; when the group's token is busy (`rate-limited`), asked again a second later, thrice at most. */
export async function ask(request) {
  for (let tries = 0; ; tries++) {
    try {
      return await api(request);
    } catch (err) {
      if (err.code !== 'rate-limited' || tries >= 3) throw err;
      await sleep(1000 + Math.random() * 500);
    }
  }
}

// ---------------------------------------------------------------- the token

/** Whether this page is on a linked device (proto/WEB.md, "Devices"): the door that linked it set
 * `peerd_door` to its port, and its HttpOnly cookie, which the script never sees, is the key. */
function onDevice() {
  const door = /(?:^|;\s*)peerd_door=(\d+)/.exec(document.cookie);
  return Boolean(door) && door[1] === (location.port || '80');
}

/** Where a link with the token goes once the token is taken: `&movie=603` (a desktop notification's
 * link) to the movie view, `&view=news` to that view, else the list. */
function linkedPlace(fragment) {
  const movie = /(?:^#|&)movie=(\d{1,15})(?:&|$)/.exec(fragment);
  if (movie && Number(movie[1]) > 0) return `#movie/${Number(movie[1])}`;
  const view = /(?:^#|&)view=([a-z]+)(?:&|$)/.exec(fragment);
  return view && LINKED_VIEWS.includes(view[1]) ? `#${view[1]}` : '';
}

/** The token from the address (`#token=…`, then kept in sessionStorage and dropped from the address,
 * which keeps only the place the link named), else the one kept. */
function takeToken() {
  const m = /(?:^#|&)token=([^&]*)/.exec(location.hash);
  if (m) {
    const token = decodeURIComponent(m[1]);
    try { sessionStorage.setItem(TOKEN_KEY, token); } catch { /* kept in memory only */ }
    history.replaceState(null, '', location.pathname + location.search + linkedPlace(location.hash));
    return token || null;
  }
  try { return sessionStorage.getItem(TOKEN_KEY); } catch { return null; }
}

/** No token, or a refused one: say how to get in, and stop talking to peerd. */
export function stop(why) {
  page.stopped = true;
  page.stream?.stop();
  try { sessionStorage.removeItem(TOKEN_KEY); } catch { /* storage off */ }
  if (why) ui.noTokenWhy.textContent = why;
  ui.app.hidden = true;
  ui.live.hidden = true;
  ui.noToken.hidden = false;
  document.body.dataset.live = 'false';
}

// ---------------------------------------------------------------- list changes

/** Told a movie id, whether it is listed now and its row, whenever that changes. */
const watchers = [];
export const watch = (fn) => watchers.push(fn);
export const changed = (id, listed, row) => watchers.forEach((fn) => fn(id, listed, row));

// ---------------------------------------------------------------- messages

let noticeTimer = 0;
export function notice(text) {
  clearTimeout(noticeTimer);
  ui.notice.textContent = text;
  noticeTimer = setTimeout(() => { ui.notice.textContent = ''; }, 5000);
}

export function fail(what, err) {
  if (page.stopped) return;
  const why = String(err?.message || err || 'something went wrong').trim();
  ui.error.textContent = `${what}: ${why}${/[.?!…]$/.test(why) ? '' : '.'}`;
  ui.error.hidden = false;
}

export function clearError() {
  ui.error.hidden = true;
  ui.error.textContent = '';
}

/** While `work` runs, `control` looks busy and a second press does nothing. */
export async function busy(control, work) {
  if (control.classList.contains('busy')) return undefined;
  control.classList.add('busy');
  control.setAttribute('aria-busy', 'true');
  try {
    return await work();
  } finally {
    control.classList.remove('busy');
    control.removeAttribute('aria-busy');
  }
}

// ---------------------------------------------------------------- words

export const titleOf = (m) => m.title || `TMDB ${m.movieId ?? m.id}`;
export const quoted = (m) => `“${titleOf(m)}”`;

// Dates by hand: the first toLocaleString() costs ~25 ms of ICU start-up, too much for first render.
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
export const day = (d) => `${d.getDate()} ${MONTHS[d.getMonth()]} ${d.getFullYear()}`;
/** "5 Dec" in this year, else as `day` says it. */
export const shortDay = (d, now = new Date()) =>
  d.getFullYear() === now.getFullYear() ? `${d.getDate()} ${MONTHS[d.getMonth()]}` : day(d);
const pad = (n) => String(n).padStart(2, '0');
/** Today here, as marks write a day: YYYY-MM-DD. */
export const today = (d = new Date()) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
export const clock = (d) => `${pad(d.getHours())}:${pad(d.getMinutes())}`;

export function ago(ms) {
  const s = Math.max(0, (Date.now() - ms) / 1000);
  if (s < 45) return 'just now';
  if (s < 3600) return `${Math.max(1, Math.round(s / 60))} min ago`;
  if (s < 86400) return `${Math.round(s / 3600)} h ago`;
  if (s < 30 * 86400) return `${Math.round(s / 86400)} d ago`;
  return day(new Date(ms));
}

// Cursors are opaque to clients that only page; the page must also place rows it hears about live
// among those on screen, and list order is the order of cursors `lamport.origin.seq` (CONTROL.md).
export const cmpText = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
const cmpNumber = (a, b) => a.length - b.length || cmpText(a, b);
export function cmpCursor(a, b) {
  const [l1, o1, s1] = a.split('.');
  const [l2, o2, s2] = b.split('.');
  return cmpNumber(l1, l2) || cmpText(o1, o2) || cmpNumber(s1, s2);
}
