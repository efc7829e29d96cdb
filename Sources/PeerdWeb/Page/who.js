// "Who's watching" (proto/WEB.md, "Profiles"): the members who live on this machine, its own and
// its profiles. The page acts for the one chosen: every request names it (`profile`, CONTROL.md),
// so the marks set, the votes cast and "me" in the list's filters are that member's. The choice is
// kept in this browser (localStorage) and shown only where there is one to make.
import { $, h } from './dom.js';
import { api, page } from './page.js';

const KEY = 'peerd.profile';

/** The profile this browser chose last (a peer id), or null: read before the first request. */
export function chosenProfile() {
  try { return localStorage.getItem(KEY) || null; } catch { return null; }
}

function choose(peer) {
  page.profile = peer || null;
  try {
    if (peer) localStorage.setItem(KEY, peer);
    else localStorage.removeItem(KEY);
  } catch { /* kept for this visit only */ }
}

/** Fills the switch from `profiles`; calls `changed` when the member acted for changes. */
export async function startWho(changed) {
  const label = $('who-label');
  const select = $('who');
  let members;
  try {
    members = ((await api({ type: 'profiles' })).members || []).filter((m) => m.state === 'member');
  } catch {
    return; // a linked device acts for its own member: no switch there
  }
  const machine = members.find((m) => m.here);
  const profiles = members.filter((m) => !m.here);
  if (page.profile && !profiles.some((m) => m.peer === page.profile)) {
    choose(null); // removed, or another machine's choice
    changed();
  }
  if (!profiles.length) return;
  select.replaceChildren();
  for (const m of [machine, ...profiles].filter(Boolean)) {
    const option = h('option', null, m.name || m.peer.slice(0, 8));
    option.value = m.here ? '' : m.peer;
    option.selected = (page.profile || '') === option.value;
    select.append(option);
  }
  select.onchange = () => {
    choose(select.value);
    changed();
  };
  label.hidden = false;
}
