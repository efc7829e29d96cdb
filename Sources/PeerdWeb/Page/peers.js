// The peers beside the list, with their state: connected ones first, then by name.
import { $, h } from './dom.js';
import { cmpText } from './page.js';

const ui = { peers: $('peers'), noPeers: $('no-peers') };
/** The rows last drawn, as JSON: the same ones are not drawn again (the focus and selection stay). */
let drawn = '';

const STATE_ORDER = ['connected', 'handshaking', 'connecting', 'relayed', 'retrying', 'untrusted'];

/** `peers`'s answer (CONTROL.md) as `li.peer[data-peer]` items. */
export function renderPeers(peers) {
  const sorted = [...peers].sort((a, b) =>
    STATE_ORDER.indexOf(a.state) - STATE_ORDER.indexOf(b.state) ||
    cmpText((a.name || a.peer || a.address || '').toLowerCase(), (b.name || b.peer || b.address || '').toLowerCase()));
  const rows = sorted.map((p) => {
    const detail = p.state === 'retrying' && p.retryIn != null
      ? `${p.lastError ? `${p.lastError}; ` : ''}retry in ${Math.ceil(p.retryIn)} s`
      : p.state === 'connected' ? pathOf(p) : (p.lastError || p.address || '');
    return { key: p.peer || p.address || '', name: p.name || (p.peer ? p.peer.slice(0, 8) : p.address || '?'),
      state: p.state, detail, title: [p.peer, ...(p.addresses || [])].filter(Boolean).join('\n') };
  });
  const seen = JSON.stringify(rows);
  if (seen === drawn) return;
  drawn = seen;
  const items = rows.map((p) => {
    const li = h('li', `peer is-${p.state}`);
    li.dataset.peer = p.key;
    if (p.title) li.title = p.title;
    const line = h('span', 'peer-line');
    const dot = h('span', 'dot');
    dot.setAttribute('aria-hidden', 'true');
    line.append(dot, h('span', 'name', p.name), h('span', 'state', p.state));
    li.append(line);
    if (p.detail) li.append(h('span', 'meta', p.detail));
    return li;
  });
  ui.peers.replaceChildren(...items);
  ui.noPeers.hidden = items.length > 0;
}

/** How a connected peer's session travels: straight to it, or through one of the group's relays. */
function pathOf(p) {
  if (p.path === 'relay') return `via relay ${p.via || ''}`.trim();
  return p.address ? `direct · ${p.address}` : 'direct';
}
