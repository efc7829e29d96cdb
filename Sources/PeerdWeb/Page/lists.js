// The list switcher (proto/WEB.md, "Lists"): the lists of the member the page acts for, beside
// "who's watching", shown only when there is one besides the group's. The list shown is in the
// page's address (`?list=ID`, beside the views' `#…`), so a reload, a bookmark and the back button
// keep it; choosing another loads the page anew at that address, so no view keeps the last list's
// rows. Every request the page sends, and its event stream, name it (`inList`, CONTROL.md).
import { $, h } from './dom.js';
import { api, page } from './page.js';

const FOCUS_KEY = 'peerd.listChosen';

/** The list in the page's address, or null for the group's. */
export const listInAddress = () => new URLSearchParams(location.search).get('list') || null;

/** The page's address showing `list` (null: the group's), at the view shown now. */
function addressOf(list) {
  const query = new URLSearchParams(location.search);
  if (list) query.set('list', list);
  else query.delete('list');
  const q = query.toString();
  return `${location.pathname}${q ? `?${q}` : ''}${location.hash}`;
}

/** Checks the list in the address (`page.list`) against the lists of the member the page acts
 * for: one that is gone, or that they are not on, falls back to the group's with a note. Then fills
 * the switcher when there is a list to choose. Resolves once `page.list` is settled. */
export async function startLists() {
  let lists;
  let me;
  try {
    const [held, status] = await Promise.all([api({ type: 'lists' }), api({ type: 'status', inList: 'group' })]);
    lists = held.lists || [];
    me = status.profile || status.peer;
  } catch {
    return; // an older peerd, or none answers: the group's list, as the requests will say
  }
  const mine = lists.filter((l) => !l.default && l.id && (l.members || []).some((m) => m.peer === me));
  if (page.list) {
    const shown = mine.find((l) => l.id === page.list || l.name === page.list);
    if (shown) {
      page.list = shown.id;
    } else {
      page.list = null;
      const note = $('list-note');
      note.textContent = 'The list in this link is gone, or you are not on it: showing the group’s list.';
      note.hidden = false;
    }
    history.replaceState(history.state, '', addressOf(page.list));
  }
  $('lists-label').hidden = !mine.length;
  if (!mine.length) return;
  const select = $('lists');
  const group = h('option', null, 'group (everyone)');
  group.value = '';
  select.replaceChildren(group, ...mine.map((l) => {
    const option = h('option', null, l.name || l.id.slice(0, 8));
    option.value = l.id;
    return option;
  }));
  select.value = page.list || '';
  select.onchange = () => {
    // The page loads anew: the focus goes back to the switcher there, where the keyboard left it.
    try { sessionStorage.setItem(FOCUS_KEY, '1'); } catch { /* the focus starts at the top */ }
    location.assign(addressOf(select.value || null));
  };
  let chosen = null;
  try {
    chosen = sessionStorage.getItem(FOCUS_KEY);
    sessionStorage.removeItem(FOCUS_KEY);
  } catch { /* storage off */ }
  if (chosen) select.focus();
}
