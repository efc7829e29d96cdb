// The live event stream (proto/WEB.md), for the member's page and the guest page: read with fetch
// (EventSource can't send a token), reconnected with a growing delay for as long as the page lives.

const QUIET_STREAM = 40000; // ms without a byte (a comment comes every 15 s) means the stream is dead

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

/** `body[data-live]` and the words beside the dot (`#live-text`). */
function showLive(live) {
  document.body.dataset.live = String(live);
  const text = document.getElementById('live-text');
  if (text) text.textContent = live ? 'Live' : 'Reconnecting…';
}

/**
 * Follows the event stream at `path` until `stop()`: `onEvent(type, data)` for each event,
 * `onOpen(again)` each time it opens (`again` after a reconnect: what was said meanwhile was not
 * heard). A refused stream (not 2xx) goes to `onRefused(response)`, which resolves true to ask again
 * at once (it waited what the answer asked); else the stream is asked again after 0.5 s, then twice
 * as long each time up to 15 s (from 0.5 s again after a stream that stayed up 10 s).
 */
export function follow(path, { headers = () => ({}), onEvent, onOpen = () => {}, onRefused = async () => false }) {
  const stream = {
    stopped: false,
    aborter: null,
    stop() {
      this.stopped = true;
      this.aborter?.abort();
    },
  };
  (async () => {
    let delay = 500;
    let again = false;
    while (!stream.stopped) {
      const aborter = (stream.aborter = new AbortController());
      let quiet = 0;
      const awake = () => {
        clearTimeout(quiet);
        quiet = setTimeout(() => aborter.abort(), QUIET_STREAM);
      };
      let opened = 0;
      try {
        const res = await fetch(path, {
          headers: { ...headers(), Accept: 'text/event-stream' },
          cache: 'no-store',
          signal: aborter.signal,
        });
        if (!res.ok && (await onRefused(res))) continue;
        if (!res.ok || !res.body) throw new Error(`events: ${res.status}`);
        opened = Date.now();
        showLive(true);
        onOpen(again);
        again = true;
        awake();
        await readEvents(res.body, awake, onEvent);
      } catch {
        // asked again below
      } finally {
        clearTimeout(quiet);
      }
      if (stream.stopped) return;
      showLive(false);
      if (opened && Date.now() - opened > 10000) delay = 500;
      await new Promise((resolve) => setTimeout(resolve, delay * (1 + Math.random() * 0.3)));
      delay = Math.min(delay * 2, 15000);
    }
  })();
  return stream;
}
