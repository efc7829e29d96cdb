// The group's members, in the peers panel (CONTROL.md, "members"): everyone the group's log admitted,
// members first, then removed ones, each with who let it in and how, or who removed it and when; and
// removing a member for the whole group (`removeMember`), only once a dialog has said what that does.
import { $, button, h } from './dom.js';
import { api, busy, clearError, clock, fail, notice, shortDay } from './page.js';

const ui = {
  list: $('group-members'), secret: $('secret-closed'),
  dialog: $('remove-member'), title: $('remove-member-title'), what: $('remove-member-what'),
  confirm: $('remove-member-confirm'), cancel: $('remove-member-cancel'),
};

/** How a member was let in (`via`), in words. */
const VIA = {
  invite: 'invite', 'group-secret': 'group secret', introduced: 'introduced', pinned: 'key pinned by hand',
};

/** The rows last drawn, as JSON: the same ones are not drawn again (the focus stays). */
let drawn = '';
/** The member the dialog asks about, and the button that opened it (the focus goes back there). */
const asking = { member: null, opener: null };
/** Told after each removal peerd made (the peers panel: the removed member's sessions closed). */
let removedHook = () => {};
export const onRemoved = (fn) => { removedHook = fn; };

const short = (peer) => (peer ? peer.slice(0, 8) : '?');

/** "at 21:04" today, else "on 5 Dec at 21:04". */
function removedWhen(ms) {
  const d = new Date(ms);
  const today = new Date().toDateString() === d.toDateString();
  return today ? `at ${clock(d)}` : `on ${shortDay(d)} at ${clock(d)}`;
}

/** "admitted by bob · invite · 5 Dec", "founding member", or "removed by alice at 21:04". */
function saidOf(m) {
  if (m.state === 'removed') {
    const when = m.removedAt != null ? ` ${removedWhen(m.removedAt)}` : '';
    return `removed by ${m.removedByName || short(m.removedBy)}${when}`;
  }
  if (!m.via) return 'founding member';
  const since = m.since != null ? shortDay(new Date(m.since)) : null;
  return [`admitted by ${m.admittedByName || short(m.admittedBy)}`, VIA[m.via] || m.via, since]
    .filter(Boolean).join(' · ');
}

/** `members`'s answer as `li.group-member[data-peer][data-state]` items, and its `secretClosed`. */
export function renderMembers(answer) {
  const rows = (answer.members || [])
    .map((m) => ({
      peer: m.peer, name: m.name || short(m.peer), here: Boolean(m.here), state: m.state, said: saidOf(m),
    }))
    .sort((a, b) => (a.state === 'removed') - (b.state === 'removed')); // stable: peerd's order otherwise
  const seen = JSON.stringify([rows, answer.secretClosed || '']);
  if (seen === drawn) return;
  drawn = seen;
  const focused = ui.list.contains(document.activeElement) ? document.activeElement.closest('li')?.dataset.peer : null;
  // A peerd removed from the group makes no operations, a removal neither: no Remove buttons then.
  const removable = !rows.some((m) => m.here && m.state === 'removed');
  ui.list.replaceChildren(...rows.map((m) => item(m, removable && !m.here && m.state === 'member')));
  if (focused) focusOn(focused);
  ui.secret.textContent = answer.secretClosed || '';
  ui.secret.hidden = !answer.secretClosed;
}

function item(m, removable) {
  const li = h('li', `group-member is-${m.state}`);
  li.dataset.peer = m.peer;
  li.dataset.state = m.state;
  li.title = m.peer;
  li.tabIndex = -1; // the focus lands here when its remove button is gone
  const line = h('span', 'member-line');
  line.append(h('span', 'name', m.name));
  if (m.here) line.append(h('span', 'you', 'you'));
  li.append(line, h('span', 'said', m.said));
  if (removable) {
    const remove = button('quiet remove-member', 'Remove', `Remove ${m.name} from the group`);
    remove.addEventListener('click', () => askToRemove(m, remove));
    li.append(remove);
  }
  return li;
}

/** The focus on `peer`'s remove button, or on its row when it has none (any more). */
function focusOn(peer) {
  const li = [...ui.list.children].find((row) => row.dataset.peer === peer);
  (li?.querySelector('button.remove-member') || li)?.focus({ preventScroll: true });
}

/** Asks peerd for the members again and draws them. */
export async function loadMembers() {
  renderMembers(await api({ type: 'members' }));
}

// ---------------------------------------------------------------- removing, behind the dialog

function askToRemove(m, opener) {
  asking.member = m;
  asking.opener = opener;
  ui.title.textContent = `Remove ${m.name} from the group?`;
  ui.what.textContent = `Every member’s peerd will refuse ${m.name}’s key from now on; what ${m.name} added `
    + `before stays. ${m.name}’s machine keeps what it already has. This can’t be undone.`;
  ui.confirm.textContent = `Remove ${m.name}`;
  ui.dialog.showModal();
  ui.cancel.focus(); // the safe choice first: Enter right away removes nobody
}

async function removeAsked() {
  const m = asking.member;
  if (!m) return;
  await busy(ui.confirm, async () => {
    try {
      const removed = await api({ type: 'removeMember', peer: m.peer });
      clearError();
      const name = removed.name || m.name;
      notice(`Removed ${name} from the group: every member’s peerd refuses ${name}’s key from now on.`);
      removedHook();
    } catch (err) {
      fail(`Could not remove ${m.name}`, err);
    }
    await loadMembers().catch(() => {}); // the next refresh tries again
    if (ui.dialog.open && asking.member === m) ui.dialog.close();
  });
}

ui.confirm.addEventListener('click', removeAsked);
ui.cancel.addEventListener('click', () => ui.dialog.close());
ui.dialog.addEventListener('click', (event) => {
  if (event.target === ui.dialog) ui.dialog.close(); // a click or tap on the backdrop
});
ui.dialog.addEventListener('close', () => {
  const { member, opener } = asking;
  asking.member = null;
  asking.opener = null;
  if (opener?.isConnected) opener.focus();
  else if (member) focusOn(member.peer);
});
