// What the page and the guest page share (proto/WEB.md): reading a Server-Sent Events stream, and
// voting on a card by swiping it. Loaded before app.js and guest.js; they find it in window.peerdLive.
'use strict';
(() => {
  /** Server-Sent Events framing: `field: value` lines, an empty line ends an event, `:` a comment. */
  async function readEvents(body, onBytes, onEvent) {
    const reader = body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    let type = '';
    let data = [];
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      onBytes();
      buffer += value;
      const lines = buffer.split(/\r?\n/);
      buffer = lines.pop();
      for (const line of lines) {
        if (line === '') {
          if (data.length) onEvent(type || 'message', data.join('\n'));
          type = '';
          data = [];
        } else if (!line.startsWith(':')) {
          const colon = line.indexOf(':');
          const field = colon < 0 ? line : line.slice(0, colon);
          const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'event') type = value;
          else if (field === 'data') data.push(value);
        }
      }
    }
  }

  /** A horizontal drag on the card past a third of its width (80 px at least) votes: right yes, left no. */
  function swipe(el, vote) {
    let x0 = null;
    let id = null;
    el.addEventListener('pointerdown', (e) => {
      if (e.pointerType === 'mouse') return;
      x0 = e.clientX;
      id = e.pointerId;
      el.setPointerCapture?.(id);
    });
    el.addEventListener('pointermove', (e) => {
      if (e.pointerId !== id || x0 == null) return;
      el.style.transform = `translateX(${e.clientX - x0}px)`;
    });
    const end = (e) => {
      if (e.pointerId !== id || x0 == null) return;
      const dx = e.clientX - x0;
      x0 = id = null;
      el.style.transform = '';
      if (e.type === 'pointerup' && Math.abs(dx) >= Math.max(80, el.clientWidth / 3)) vote(dx > 0);
    };
    el.addEventListener('pointerup', end);
    el.addEventListener('pointercancel', end);
  }

  window.peerdLive = { readEvents, swipe };
})();
