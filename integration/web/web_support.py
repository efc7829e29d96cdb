"""What integration/web/test_web.py and bench/web_bench.py share: headless Chromium from Debian's
packages driven by Selenium (started, watched and stopped by pid), a recorder the page can't see
that timestamps cards as they come and go, a plain HTTP client for the page's API, and a batch
client for the control socket.

Chromium reaches nothing but loopback: every host but 127.0.0.1, [::1] and localhost resolves to
nothing (`--host-resolver-rules`), so posters on https://image.tmdb.org fail to load, quickly.
Background networking, component updates, crash reports, the media router (which would multicast)
and the like are off.
"""
import http.client
import json
import os
import pathlib
import shutil
import signal
import socket
import struct
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
import harness  # noqa: E402
from harness import CheckFailed, HarnessError  # noqa: E402

SKIP = 77
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
       "img-src 'self' https://image.tmdb.org; manifest-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
SECURITY_HEADERS = {"content-security-policy": CSP, "x-content-type-options": "nosniff",
                    "referrer-policy": "no-referrer", "cache-control": "no-store"}
CHROMIUM_FLAGS = [
    "--headless=new", "--disable-gpu", "--no-first-run", "--no-default-browser-check", "--disable-extensions",
    "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-default-apps",
    "--disable-domain-reliability", "--disable-client-side-phishing-detection", "--no-pings", "--mute-audio",
    "--metrics-recording-only", "--password-store=basic", "--use-mock-keychain",
    # Two pages side by side are both in the foreground: no timer throttling of either.
    "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
    "--disable-backgrounding-occluded-windows",
    "--disable-features=MediaRouter,DialMediaRouteProvider,CastMediaRouteProvider,Translate,OptimizationHints,"
    "AutofillServerCommunication,InterestFeedContentSuggestions",
    # Nothing resolves but loopback: no request leaves it, whatever Chromium or the page asks for.
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE [::1], EXCLUDE localhost",
    "--disable-crash-reporter", "--disable-breakpad",
]

# The name, state and path line of peer `arguments[0]` in the page's ul#peers, once it is there.
PEER_ROW = ("const p = document.querySelector(`ul#peers > li.peer[data-peer='${arguments[0]}']`);"
            "return p && [(p.querySelector('.name') || {}).textContent || '',"
            "(p.querySelector('.state') || {}).textContent || '',"
            "(p.querySelector('.meta') || {}).textContent || '']")

# Runs in the page before its own scripts (CDP, so the page's CSP does not apply to it) and records,
# in the page's clock (Date.now(), the machine's wall clock as Python's time.time()):
#   __web.added[id] / __web.removed[id]: when a card li.card[data-movie-id] last came onto / went off
#     the page (a card re-rendered within one task, removed and put back, counts as staying)
#   __web.readyAt, __web.readyCards: when body[data-ready] first turned "true", and the cards then
#   __web.clicks: {at, what} of every click on a button, seen before the page's own handlers
#   __web.requests: {at, url, type} of every fetch the page made, when it made it (type: a control request's)
#   __web.csp: every securitypolicyviolation; __web.session: set once per document, to tell a reload
#   __web.wait(kind, id, ms): a promise of __web[kind][id] once it is set (null after ms)
RECORDER = r"""
(() => {
  const w = window.__web = {added: {}, removed: {}, clicks: [], requests: [], csp: [], readyAt: null,
                            readyCards: null, session: Math.random().toString(36).slice(2)};
  const fetch = window.fetch;
  window.fetch = function (resource, ...rest) {
    let type = null;  // a control request's type, for /api/request
    try { type = JSON.parse(rest[0] && rest[0].body).type || null; } catch (e) { /* no JSON body */ }
    w.requests.push({at: Date.now(), url: String(resource && resource.url || resource), type});
    return fetch.call(this, resource, ...rest);
  };
  const CARDS = 'li.card[data-movie-id]';
  let present = new Set(), waiters = [];
  document.addEventListener('securitypolicyviolation', e =>
    w.csp.push(`${e.violatedDirective} blocked ${e.blockedURI || '(inline)'} at ${e.sourceFile}:${e.lineNumber}`));
  document.addEventListener('click', e => {
    const b = e.target.closest && e.target.closest('button');
    if (b) w.clicks.push({at: Date.now(), what: b.id ? '#' + b.id : b.className});
  }, true);
  const wake = () => { waiters = waiters.filter(f => !f()); };
  w.wait = (kind, id, ms) => new Promise(resolve => {
    const done = () => { if (w[kind][id] == null) return false; resolve(w[kind][id]); return true; };
    if (done()) return;
    waiters.push(done);
    setTimeout(() => { waiters = waiters.filter(f => f !== done); resolve(null); }, ms);
  });
  new MutationObserver(records => {
    const t = Date.now();
    let cards = false;
    for (const r of records) {
      if (r.type === 'attributes' && r.attributeName === 'data-ready') {
        if (w.readyAt === null && r.target === document.body && document.body.dataset.ready === 'true') {
          w.readyAt = t;
          w.readyCards = document.querySelectorAll('ol#movies > ' + CARDS).length;
        }
      } else {
        cards = true;
      }
    }
    if (!cards) return;
    const now = new Set([...document.querySelectorAll(CARDS)].map(c => c.dataset.movieId));
    for (const id of now) if (!present.has(id)) w.added[id] = t;
    for (const id of present) if (!now.has(id)) w.removed[id] = t;
    present = now;
    wake();
  }).observe(document, {childList: true, subtree: true, attributes: true,
                        attributeFilter: ['data-movie-id', 'class', 'data-ready']});
})();
"""


class Skip(Exception):
    """The browser can't run here; the message is the reason, for one `web skipped:` line."""


# MARK: Chromium


def tools():
    """(chromium, chromedriver) paths; raises Skip naming what is missing."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        raise Skip("Selenium is not installed (python3 -m pip install selenium; make test-deps does)") from None
    chromium, driver = shutil.which("chromium"), shutil.which("chromedriver")
    if not chromium or not driver:
        missing = " and ".join(n for n, p in (("chromium", chromium), ("chromium-driver", driver)) if not p)
        how = "apt-get install chromium chromium-driver" + ("" if os.geteuid() == 0 else " (needs root)")
        raise Skip(f"{missing} not installed ({how}; make test-deps does)")
    return chromium, driver


def descendants(pid):
    """Pids of every living process under `pid`, from /proc."""
    children = {}
    for entry in pathlib.Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
                ppid = int(stat[stat.rindex(")") + 2:].split()[1])
                children.setdefault(ppid, []).append(int(entry.name))
            except (OSError, ValueError):
                pass
    found, queue = [], [pid]
    while queue:
        for child in children.get(queue.pop(), []):
            found.append(child)
            queue.append(child)
    return found


class Browser:
    """One headless Chromium (its own profile in `work`) under its own chromedriver. chromedriver
    runs in a session of its own and dies with this process (PDEATHSIG); Chromium is started
    through `setpriv --pdeathsig KILL` so it dies with chromedriver. `stop()` quits, then kills by
    pid whatever of the two trees is left."""

    def __init__(self, work, name, size=(1280, 900)):
        self.work, self.name, self.size = pathlib.Path(work), name, size
        self.driver = None
        self.console = []  # every browser log entry seen so far, with `page` added
        self._pids = set()

    def start(self):
        chromium, chromedriver = tools()
        from selenium import webdriver
        from selenium.common.exceptions import WebDriverException
        from selenium.webdriver.chrome.service import Service

        options = webdriver.ChromeOptions()
        options.binary_location = self._launcher(chromium)
        flags = CHROMIUM_FLAGS + [f"--window-size={self.size[0]},{self.size[1]}",
                                  f"--user-data-dir={self.work / f'chromium-{self.name}'}"]
        if os.geteuid() == 0:
            flags.append("--no-sandbox")  # Chromium's sandbox refuses to run as root
        if not os.access("/dev/shm", os.W_OK):
            flags.append("--disable-dev-shm-usage")
        for flag in flags:
            options.add_argument(flag)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        service = Service(chromedriver, log_output=str(self.work / f"chromedriver-{self.name}.log"),
                          popen_kw={"start_new_session": True, "preexec_fn": harness._die_with_parent})
        os.environ["SE_OFFLINE"] = "true"  # Selenium Manager never downloads anything
        try:
            self.driver = webdriver.Chrome(options=options, service=service)
        except WebDriverException as error:
            if service.process is not None:
                self._pids.update([service.process.pid, *descendants(service.process.pid)])
            self._kill_left()
            first = (error.msg or str(error)).strip().splitlines()
            said = first[0].split("; For documentation")[0] if first else repr(error)
            raise Skip(f"Chromium did not start: {said} "
                       f"(see {self.work / f'chromedriver-{self.name}.log'})") from None
        self._pids.update([service.process.pid, *descendants(service.process.pid)])
        self.driver.set_script_timeout(30)
        self.record()
        return self

    def record(self):
        """The recorder (RECORDER) in every document the current tab loads from now on."""
        self.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORDER})

    def _launcher(self, chromium):
        setpriv = shutil.which("setpriv")
        if not setpriv:
            return chromium
        path = self.work / "chromium-launcher"
        path.write_text(f'#!/bin/sh\nexec {setpriv} --pdeathsig KILL {chromium} "$@"\n')
        path.chmod(0o755)
        return str(path)

    @property
    def version(self):
        return self.driver.capabilities.get("browserVersion", "?")

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def drain_console(self, page=None):
        """Browser log entries since the last call; all of them are kept in `console` too."""
        entries = self.driver.get_log("browser")
        for entry in entries:
            entry["page"] = page or self.name
        self.console.extend(entries)
        return entries

    def stop(self):
        if self.driver is not None:
            self._pids.update(p for root in list(self._pids) for p in descendants(root))
            try:
                self.drain_console()
            except Exception:  # a dead browser has no log left to read
                pass
            try:
                self.driver.quit()
            except Exception:  # killed below
                pass
            self.driver = None
        self._kill_left()

    def _kill_left(self):
        for pid in self._pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        self._pids.clear()


# MARK: the page


class Page:
    """A Browser on one daemon's page."""

    def __init__(self, browser, url):
        self.browser, self.url = browser, url
        self.base = url.split("#", 1)[0]
        self.earlier_csp = []  # violations seen in this page's earlier documents

    @property
    def driver(self):
        return self.browser.driver

    def js(self, script, *args):
        return self.browser.js(script, *args)

    def open(self, url=None, timeout=10):
        """A fresh document at `url` (the page's URL with its token by default), once body[data-ready]
        is true. Through about:blank: the page drops the token from its address, so going to the URL
        again straight from the page would only change the fragment, not load the page anew."""
        try:
            self.earlier_csp += self.js("return window.__web ? window.__web.csp : []") or []
        except Exception:  # no document yet
            pass
        self.driver.get("about:blank")
        self.driver.get(url or self.url)
        self.wait_ready(timeout)
        return self

    def wait_ready(self, timeout=10):
        def ready():
            return self.js("return document.body && document.body.dataset.ready === 'true'")
        try:
            harness.eventually(ready, timeout, "", 0.02)
        except harness.TimedOut:
            raise CheckFailed(f"{self.browser.name}'s page: body[data-ready=true] not within {timeout:g} s; "
                              f"{self.state()}") from None

    def state(self):
        """What the page shows, in a line: for failure messages."""
        try:
            return self.js("""
              const b = document.body, e = document.querySelector('p#error');
              return `url ${location.href.replace(/token=[0-9a-f]+/, 'token=…')}, data-ready=${b && b.dataset.ready},
                data-live=${b && b.dataset.live}, ${document.querySelectorAll('ol#movies > li.card').length} cards,
                error ${e && !e.hidden && e.offsetParent !== null ? JSON.stringify(e.textContent.trim()) : 'none'}`
                .replace(/\\s+/g, ' ');""")
        except Exception as error:  # the state is only for a message
            return f"(page state unreadable: {error})"

    def card_ids(self):
        return [int(i) for i in self.js(
            "return [...document.querySelectorAll('ol#movies > li.card[data-movie-id]')].map(c => c.dataset.movieId)")]

    def has_card(self, movie):
        return bool(self.js("return !!document.querySelector(`ol#movies > li.card[data-movie-id='${arguments[0]}']`)",
                            str(movie)))

    def recorded(self, kind, movie):
        """When the card of `movie` last entered ('added') or left ('removed') the DOM, ms since 1970."""
        return self.js("return window.__web && window.__web[arguments[0]][arguments[1]] || null", kind, str(movie))

    def session(self):
        return self.js("return window.__web && window.__web.session")

    def csp_violations(self):
        """Every violation the recorder saw, in this document and the page's earlier ones."""
        return self.earlier_csp + (self.js("return window.__web ? window.__web.csp : []") or [])

    def wait_card(self, movie, present=True, timeout=10.0, what=None):
        """Waits in the page until `movie`'s card comes on (or goes off) it; returns the recorder's
        timestamp of that (ms since 1970). Raises CheckFailed after `timeout` s."""
        kind = "added" if present else "removed"
        self.driver.set_script_timeout(timeout + 10)
        at = self.driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "window.__web.wait(arguments[0], arguments[1], arguments[2]).then(done);",
            kind, str(movie), int(timeout * 1000))
        if at is None:
            raise CheckFailed(f"{what or f'card {movie}'}: not {'on' if present else 'gone from'} "
                              f"{self.browser.name}'s page within {timeout:g} s; {self.state()}")
        if self.has_card(movie) != present:  # came and went again, or went and came back
            raise CheckFailed(f"card {movie} {'left' if present else 'came back to'} {self.browser.name}'s page "
                              f"right after; {self.state()}")
        return at

    def ready_cards(self):
        """How many cards were on the page when body[data-ready] first turned true."""
        return self.js("return window.__web.readyCards")

    def last_click(self, what):
        """When the latest click on the button `what` (#id or class) was seen, ms since 1970."""
        return self.js("const c = window.__web.clicks.filter(c => c.what === arguments[0]).pop();"
                       "return c ? c.at : null", what)

    def first_render(self):
        """performance.mark('first-render')'s time after navigation start, ms; None without it."""
        return self.js("const m = performance.getEntriesByName('first-render');"
                       "return m.length ? m[0].startTime : null")

    def error_shown(self):
        """The text of p#error when it is shown, else None."""
        return self.js("const e = document.querySelector('p#error');"
                       "return e && !e.hidden && e.offsetParent !== null && e.textContent.trim() ? "
                       "e.textContent.trim() : null")


# MARK: the API over plain HTTP


class Response:
    def __init__(self, what, status, headers, body):
        self.what, self.status, self.headers, self.body = what, status, headers, body

    def json(self):
        return json.loads(self.body)

    def __repr__(self):
        text = self.body[:200].decode(errors="replace")
        return f"{self.status} {text!r}"


class Api:
    """The page's HTTP server on 127.0.0.1 (or ::1), asked with http.client; every response is kept
    in `responses` so a check can look at all of their headers."""

    def __init__(self, port, token):
        self.port, self.token = port, token
        self.responses = []

    def good_host(self, family=socket.AF_INET):
        return f"[::1]:{self.port}" if family == socket.AF_INET6 else f"127.0.0.1:{self.port}"

    def origin(self):
        return f"http://127.0.0.1:{self.port}"

    def call(self, method, path, body=None, *, token=True, host=True, origin=True, headers=None,
             family=socket.AF_INET, chunked=False, what=None):
        """One request on a fresh connection. `token`, `host`, `origin`: True for the right one,
        None to leave the header out, or the text to send."""
        address = "::1" if family == socket.AF_INET6 else "127.0.0.1"
        conn = http.client.HTTPConnection(address, self.port, timeout=10)
        sent = {}
        if host:
            sent["Host"] = self.good_host(family) if host is True else host
        if token:
            sent["Authorization"] = f"Bearer {self.token if token is True else token}"
        if origin and method == "POST":
            sent["Origin"] = self.origin() if origin is True else origin
        if body is not None:
            data = body if isinstance(body, bytes) else json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
            if chunked:
                sent["Transfer-Encoding"] = "chunked"
            else:
                sent["Content-Length"] = str(len(data))
        sent.update(headers or {})
        try:
            conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
            for name, value in sent.items():
                conn.putheader(name, value)
            conn.endheaders()
            if body is not None:
                try:
                    if chunked:
                        for i in range(0, len(data), 16384):
                            piece = data[i:i + 16384]
                            conn.send(b"%x\r\n" % len(piece) + piece + b"\r\n")
                        conn.send(b"0\r\n\r\n")
                    else:
                        conn.send(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # a server may answer (413) and close before reading it all
            response = conn.getresponse()
            result = Response(what or f"{method} {path}", response.status,
                              {k.lower(): v for k, v in response.getheaders()}, response.read())
        except (OSError, http.client.HTTPException) as error:
            raise CheckFailed(f"{method} {path}: no HTTP answer ({error!r})") from None
        finally:
            conn.close()
        self.responses.append(result)
        return result

    def request(self, body, **kwargs):
        return self.call("POST", "/api/request", body, **kwargs)


def header_problems(response):
    """What of WEB.md's headers a response lacks or has wrong."""
    return [f"{name}: {response.headers.get(name)!r}" for name, value in SECURITY_HEADERS.items()
            if response.headers.get(name) != value]


# MARK: the control socket, many requests at once


def control_batch(socket_path, requests, timeout=60):
    """Sends `requests` on one control connection without waiting between them (CONTROL.md: they are
    answered in order) and returns the responses."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(timeout)
        s.connect(str(socket_path))
        s.sendall(b"".join(harness.frame(json.dumps(r).encode()) for r in requests))
        responses, buffer = [], b""
        while len(responses) < len(requests):
            chunk = s.recv(1 << 16)
            if not chunk:
                raise HarnessError(f"control socket closed after {len(responses)} of {len(requests)} responses")
            buffer += chunk
            while True:
                body, buffer = harness.split_frame(buffer)
                if body is None:
                    break
                responses.append(json.loads(body))
    return responses


class Control:
    """One open control connection for request after request (no process start per request)."""

    def __init__(self, socket_path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(20)
        self.sock.connect(str(socket_path))
        self.buffer = b""

    def ask(self, request):
        self.sock.sendall(harness.frame(json.dumps(request).encode()))
        while True:
            body, self.buffer = harness.split_frame(self.buffer)
            if body is not None:
                return json.loads(body)
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                raise HarnessError("control socket closed")
            self.buffer += chunk

    def close(self):
        self.sock.close()


def add_request(movie, title=None, year=None):
    row = {"id": movie}
    if title:
        row["title"] = title
    if year:
        row["year"] = year
    return {"movie": row, "type": "add", "version": 1}


def png_size(path):
    """(width, height) from a PNG's IHDR."""
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n":
        raise CheckFailed(f"{path} is not a PNG")
    return struct.unpack(">II", head[16:24])


def median(values):
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def percentile(values, p):
    """The nearest-rank percentile `p` (0-100) of `values`."""
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * p // 100))
    return ordered[int(rank) - 1]


def now_ms():
    return time.time() * 1000


def console_errors(entries):
    """The SEVERE browser log entries, but for posters that could not load: the browser reaches
    nothing beyond loopback, so https://image.tmdb.org never answers."""
    return [e for e in entries if e.get("level") == "SEVERE" and "image.tmdb.org" not in e.get("message", "")]


def clean_env(work, name):
    """The environment of a test daemon and its peerctl: none of the developer's config, TMDB token,
    state, socket, display, systemd or trace settings; HOME and XDG_CONFIG_HOME in `work`."""
    dropped = {"TMDB_TOKEN", "XDG_STATE_HOME", "XDG_CONFIG_HOME", "PEERD_SOCKET", "PEERD_TRACE_FRAMES",
               "NOTIFY_SOCKET", "WATCHDOG_PID", "WATCHDOG_USEC", "JOURNAL_STREAM", "DISPLAY", "WAYLAND_DISPLAY"}
    env = {k: v for k, v in os.environ.items() if k not in dropped}
    home = pathlib.Path(work) / f"home-{name}"
    home.mkdir(exist_ok=True)
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"))
    return env


class WebPeerd(harness.Peerd):
    """A peerd of the web tests: on loopback, without mDNS, in the group of `secret`, dialing
    `peers` (127.0.0.1 ports), its page on `web_port` (None: --no-web); its environment clean."""

    def __init__(self, work, name, port, web_port, secret, peers=(), extra=()):
        self.web_port = web_port
        args = ["--group-secret-file", secret]
        args += [a for p in peers for a in ("--peer", f"127.0.0.1:{p}")]
        args += ["--no-web"] if web_port is None else ["--web-port", web_port]
        super().__init__(pathlib.Path(work), name, port, [*args, *extra], env=clean_env(work, name))

    def peerctl(self, *args, timeout=20):
        import subprocess
        return subprocess.run(harness.peerctl_argv(self.socket, *args), capture_output=True, text=True,
                               timeout=timeout, env=self.env)

    def open_url(self):
        """The URL `peerctl open --no-browser` prints; raises HarnessError when it fails."""
        result = self.peerctl("open", "--no-browser")
        if result.returncode != 0:
            raise HarnessError(f"peerctl open on {self.name}: exit {result.returncode}: "
                               f"{(result.stdout + result.stderr).strip()}")
        return result.stdout.strip()

    def wait_page(self, timeout=20):
        """The page's URL once `peerctl open` gives one (the page starts after the control socket)."""
        return harness.eventually(self.open_url, timeout, f"{self.name}'s page served")

    def token(self):
        return self.open_url().split("#token=", 1)[1]

    def connected_to(self, other):
        return any(p.get("peer") == other.id and p.get("state") == "connected" for p in self.peers())


def tab_to(page, selector, limit):
    """Presses Tab until `selector` has the focus; how many presses it took, or None."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys
    for presses in range(1, limit + 1):
        ActionChains(page.driver).send_keys(Keys.TAB).perform()
        if page.js("return document.activeElement.matches(arguments[0])", selector):
            return presses
    return None
