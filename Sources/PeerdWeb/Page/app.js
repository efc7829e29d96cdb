// peerd's page: the shared watch list, live (proto/WEB.md, "The page"). Native ES modules, no build
// step; one module per view. This one starts the page: it reads peerd's status, peers and members,
// routes the links (the part after `#`) to the views, and follows the event stream, handing each
// `change` to the list (and to News, whose count it moves) and each `pick` to Tonight (and the TV
// view, which shows both).
import { loadHistory } from './activity.js';
import { buildDiscover } from './discover.js';
import { $ } from './dom.js';
import * as list from './list.js';
import { listInAddress, startLists } from './lists.js';
import { follow } from './live.js';
import { onRemoved, renderMembers } from './members.js';
import { closeMovie, openMovie, redrawMine } from './movie.js';
import { newsSoon, showNews, startNews } from './news.js';
import { api, authorization, fail, page, refused, stop } from './page.js';
import { renderPeers } from './peers.js';
import * as search from './search.js';
import * as tonight from './tonight.js';
import { leaveTv, showTv } from './tv.js';
import { chosenProfile, startWho } from './who.js';

const PEERS_EVERY = 5000; // ms; there is no peers event (nor a members one)

const ui = {
  name: $('name'), app: $('app'), noToken: $('no-token'),
  // The sections each view shows: the TV's shows the list's too (its cards, drawn big by tv.css).
  views: {
    list: [$('app')], discover: [$('discover')], activity: [$('activity')], tonight: [$('tonight')],
    news: [$('news')], tv: [$('tv'), $('app')],
  },
  links: {
    list: $('to-list'), discover: $('to-discover'), activity: $('to-activity'), tonight: $('to-tonight'),
    news: $('to-news'), tv: $('to-tv'),
  },
};

// ---------------------------------------------------------------- status and peers

function applyStatus(status) {
  page.machine = status.peer || page.machine;
  const me = status.profile || status.peer; // a profile the page acts for, else the machine's member
  if (me && me !== page.me) {
    page.me = me;
    list.redrawBadges();
    redrawMine(); // the movie view shows my marks as mine
  }
  list.heardStatus(status);
  search.heardStatus(status);
  ui.name.textContent = status.profileName ? `${status.profileName} · ${status.name}` : status.name || '';
  document.title = status.name ? `Watch list · ${status.name}` : 'Watch list · peerd';
}

let peersBusy = false;
async function refreshPeers() {
  // The TV view shows no peers: a remote's key press is the only thing that asks peerd there.
  if (peersBusy || page.stopped || page.view === 'tv') return;
  peersBusy = true;
  try {
    const [peers, status, members] = await Promise.all(
      [api({ type: 'peers' }), api({ type: 'status' }), api({ type: 'members' }).catch(() => null)]);
    renderPeers(peers.peers || []);
    if (members) renderMembers(members);
    applyStatus(status);
  } catch {
    // the live dot and the next try say enough; errors of what the user did go to p#error
  } finally {
    peersBusy = false;
  }
}

let peersTimer = 0;
function peersSoon() {
  clearTimeout(peersTimer);
  peersTimer = setTimeout(refreshPeers, 300);
}

// ---------------------------------------------------------------- the event stream

/** `GET /api/events`: each `change` to the list (and to News: a report of a listed movie comes as
 * one), each `pick` (the pick's whole state) to Tonight; the list shown's, as the member the page
 * acts for sees it. */
function listen() {
  const query = new URLSearchParams(page.list ? { list: page.list, ...(page.profile ? { profile: page.profile } : {}) } : {});
  page.stream = follow(`/api/events${page.list ? `?${query}` : ''}`, {
    headers: authorization,
    onOpen(again) {
      if (!again) return;
      list.resync(); // changes made while we were away were not heard
      tonight.reload();
      newsSoon();
    },
    onEvent(type, data) {
      if (type === 'change') {
        list.apply(JSON.parse(data));
        newsSoon();
      } else if (type === 'pick') {
        tonight.heard(JSON.parse(data));
      }
    },
    async onRefused(res) {
      if (res.status === 401) refused();
      return false;
    },
  });
}

// ---------------------------------------------------------------- views and links

function showView(name) {
  const was = page.view;
  page.view = name;
  document.body.dataset.view = name;
  const shown = ui.views[name];
  for (const section of new Set(Object.values(ui.views).flat())) section.hidden = !shown.includes(section);
  for (const [view, a] of Object.entries(ui.links)) {
    if (view === name) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  if (name === 'discover') buildDiscover();
  if (name === 'activity') loadHistory();
  if (name === 'tonight') tonight.loadPick();
  if (name === 'news') showNews();
  if (name === 'tv') showTv();
  else if (was === 'tv') {
    leaveTv();
    newsSoon(); // the TV asked for no count
  }
}

function route() {
  if (!ui.noToken.hidden) return;
  const movie = /^#movie\/(\d{1,15})$/.exec(location.hash);
  if (movie) {
    openMovie(Number(movie[1]));
    return;
  }
  closeMovie();
  const views = ['#discover', '#activity', '#tonight', '#news', '#tv'];
  showView(views.includes(location.hash) ? location.hash.slice(1) : 'list');
}

// ---------------------------------------------------------------- start

// A new link pasted into this tab only changes the fragment: take its token and start over.
window.addEventListener('hashchange', () => {
  if (/token=/.test(location.hash)) location.reload();
});
/** "Who's watching" changed: "me" is another member now, and so are the marks to set, the filters
 * and the lists to choose. A list shown is loaded anew, to be checked for the new member. */
function actingChanged() {
  if (page.list) return void location.reload();
  startLists();
  api({ type: 'status' }).then(applyStatus, (err) => fail('Could not read peerd’s status', err));
  list.resync();
  tonight.reload();
  // The count, and what is new, are each member's own.
  if (page.view === 'news') showNews();
  else newsSoon();
}

async function start() {
  // A linked device acts for its own member, whatever it asks: no "who's watching" there.
  if (!page.device) {
    page.profile = chosenProfile();
    startWho(actingChanged);
  }
  // The list in the address is checked before anything is asked of it; without one, the group's
  // list starts at once and the switcher fills meanwhile.
  page.list = listInAddress();
  if (page.list) await startLists();
  else startLists();
  // The first page and the status go out together; the stream starts too, and holds its changes
  // until the first page is on screen.
  list.start({ firstPage: refreshPeers, changed: peersSoon });
  api({ type: 'status' }).then(applyStatus, (err) => fail('Could not read peerd’s status', err));
  listen();
  setInterval(refreshPeers, PEERS_EVERY); // the first time comes with the first page
  onRemoved(peersSoon); // its sessions closed: the peers panel says so
  window.addEventListener('hashchange', route);
  route();
  startNews();
}

// On a linked device its cookie is the key (proto/WEB.md, "Devices"); without either, say how to get in.
if (page.token || page.device) start();
else stop();
