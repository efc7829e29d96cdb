// The Activity view (#activity, proto/WEB.md): the group's history in words, newest first, 50
// lines at a time; while it is shown, each change asks for the newest page again.
import { $, button, h } from './dom.js';
import { ago, api, cmpCursor, page, watch } from './page.js';

const ui = { history: $('history'), historyNote: $('history-note'), moreHistory: $('more-history') };

const activity = { next: null, loading: false, again: false, timer: 0 };

function entry(e) {
  const li = h('li', 'entry');
  li.dataset.cursor = e.cursor;
  li.dataset.at = e.at;
  const text = h(e.movieId ? 'a' : 'span', 'what', e.text);
  if (e.movieId) {
    li.dataset.movieId = e.movieId;
    text.href = `#movie/${e.movieId}`;
  }
  li.append(text, ' ', h('time', 'when'));
  return li;
}

/** The newest page of history, merged with what is shown; with `older`, the page after it. */
export async function loadHistory(older = false) {
  if (activity.loading) {
    activity.again ||= !older;
    return;
  }
  activity.loading = true;
  ui.moreHistory.classList.toggle('busy', older);
  try {
    const res = await api({ type: 'history', limit: 50, ...(older ? { before: activity.next } : {}) });
    const shown = [...ui.history.children];
    const have = new Set(shown.map((li) => li.dataset.cursor));
    const fresh = res.entries.filter((e) => !have.has(e.cursor)).map(entry);
    if (older) {
      ui.history.append(...fresh);
      activity.next = res.next || null;
    } else if (shown.length && fresh.length < res.entries.length) {
      // Newer ones (and one that came late from a peer) go where history's order says.
      for (const li of fresh) {
        const after = [...ui.history.children].find((at) => cmpCursor(at.dataset.cursor, li.dataset.cursor) < 0);
        if (after) ui.history.insertBefore(li, after);
        else if (!activity.next) ui.history.append(li);
      }
    } else {
      ui.history.replaceChildren(...fresh);
      activity.next = res.next || null;
    }
    for (const li of ui.history.children) li.lastChild.textContent = ago(Number(li.dataset.at));
    ui.historyNote.replaceChildren(ui.history.children.length ? '' : 'Nothing has happened yet.');
    document.body.dataset.activity = 'ready';
  } catch (err) {
    const again = button('quiet retry', 'Try again');
    again.addEventListener('click', () => loadHistory(older));
    ui.historyNote.replaceChildren(`Could not load the activity: ${String(err.message || err)} `, again);
  } finally {
    activity.loading = false;
    ui.moreHistory.classList.remove('busy');
    ui.moreHistory.hidden = !activity.next;
  }
  if (activity.again) {
    activity.again = false;
    loadHistory();
  }
}

/** After a change, the view's newest lines again, while it is shown (or under the movie view). */
export function activitySoon() {
  if (page.view !== 'activity') return; // showing it loads it anew
  clearTimeout(activity.timer);
  activity.timer = setTimeout(() => loadHistory(), 50);
}

ui.moreHistory.addEventListener('click', () => loadHistory(true));

watch(() => activitySoon());
