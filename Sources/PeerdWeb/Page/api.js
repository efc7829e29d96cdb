// Talking to peerd over HTTP (proto/WEB.md), for the member's page and the guest page: one JSON
// request and its answer. The member's page sends control requests to /api/request with its token;
// the guest page uses `send` and `answerOf` on its own routes with a guest's token.

/** A request that failed: `code` the error's (or `offline`, `http-STATUS`), `status` the HTTP one. */
export class ApiError extends Error {
  constructor(code, message, { status = 0, body = null } = {}) {
    super(message);
    Object.assign(this, { code, status, body });
  }
}

/** GETs `path`, or POSTs `body` as JSON to it, with `headers`; the Response, or ApiError `offline`
 * with the words `offline` when nothing answers. */
export async function send(path, { body, headers = {}, offline = 'peerd does not answer. Is it still running?' } = {}) {
  const init = { headers: { ...headers }, cache: 'no-store' };
  if (body !== undefined) {
    init.method = 'POST';
    init.body = JSON.stringify(body);
    init.headers['Content-Type'] = 'application/json';
    // Under the server's no-referrer policy the Fetch standard sends a POST's Origin as "null"
    // (Chromium sends it anyway); peerd checks it, so ask for the page's own.
    init.referrerPolicy = 'same-origin';
  }
  try {
    return await fetch(path, init);
  } catch {
    throw new ApiError('offline', offline);
  }
}

/** A response's body: its JSON (null when it is none) and its text. */
export async function answerOf(res) {
  const text = await res.text().catch(() => '');
  let json = null;
  try { json = JSON.parse(text); } catch { /* a line of text */ }
  return { json, text };
}

/** The member's page's API: `request` sends one control request (CONTROL.md) with the page's token
 * (none on a linked device: its cookie goes instead) and resolves with its control response, or
 * throws ApiError with the `error` response's code. A 401 (the token is not, or no longer, this
 * peerd's) calls `refused` first. `acting()` names the profile the page acts for (null: this
 * machine's own member), `shown()` the list it shows (null: the group's; a request's own `inList`
 * wins). */
export function controlApi(token, refused, acting = () => null, shown = () => null) {
  return async function request(control) {
    const profile = acting();
    const inList = shown();
    const res = await send('/api/request', {
      body: { ...(inList ? { inList } : {}), ...control, version: 1, ...(profile ? { profile } : {}) },
      headers: token ? { Authorization: `Bearer ${token}` } : {},
    });
    if (res.status === 401) {
      refused();
      throw new ApiError('token', 'this page’s key was refused', { status: 401 });
    }
    const { json, text } = await answerOf(res);
    if (!json || !(res.headers.get('Content-Type') || '').includes('json')) {
      throw new ApiError('http', text.trim() || `peerd answered ${res.status}`, { status: res.status });
    }
    if (json.type === 'error') throw new ApiError(json.code, json.message, { status: res.status, body: json });
    return json;
  };
}
