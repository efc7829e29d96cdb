#!/usr/bin/env python3
"""The page (proto/WEB.md) in a real browser, end to end: two real peerd on loopback (alice and bob,
one group secret, each dialing the other, each serving its page on a port of its own) and headless
Chromium from Debian's packages, driven by Selenium, one browser per page. The members checks
(web_members.py) remove members, so they have a group of their own: hana, with a page and a
browser, and three who join her by invite.

    PEERD_BIN_DIR=/path/to/bins python3 integration/web/test_web.py [--keep] [--only WORDS ...]
    PEERD_BIN_DIR=/path/to/bins python3 integration/web/test_web.py --screenshot docs/screenshot.png

The browser checks find things only by WEB.md's hooks. Live updates are timed in the page itself:
a recorder (web_support.RECORDER, injected before the page's own scripts, outside its CSP) stamps
each card as it enters or leaves the DOM, with the machine's clock; a check compares that with when
`peerctl add` returned (or when the page's button was clicked) and fails above 1000 ms. The waits
for things to appear are generous (a loaded 2-core machine); the bound is measured, not waited for.
The API's rules (token, Host, Origin, sizes, the requests kept for peerctl, the headers) are checked
with http.client, not the browser.

Prints one PASS/FAIL line per check with what it measured and ends with `web: N passed, M failed`.
Exit status 0 when all passed, 1 otherwise (the work dir, with every log, is kept then), 77 with one
`web skipped:` line when Selenium, Chromium or chromedriver is missing or Chromium can't start.

--screenshot PATH fills alice's page with 20 movies in a 1440×900 viewport and saves it as a PNG (no checks).
"""
import argparse
import json
import pathlib
import re
import secrets
import socket
import stat
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "catalog"))
import harness  # noqa: E402
from harness import CheckFailed, HarnessError  # noqa: E402
from suite import Suite, exit_on_signals, selected  # noqa: E402
import web_support as ws  # noqa: E402
from fake_tmdb import FakeTMDB  # noqa: E402
from web_support import tab_to  # noqa: E402
import web_browse  # noqa: E402
import web_lists  # noqa: E402
import web_marks  # noqa: E402
import web_members  # noqa: E402
import web_news  # noqa: E402
import web_profiles  # noqa: E402
import web_tonight  # noqa: E402
import web_tv  # noqa: E402

LIVE_BOUND_MS = 1000  # WEB.md: the page updates live; a change is on the other page within this
APPEAR = 15.0  # s: generous waits for presence on a loaded machine (the bound above is measured)
PAGING_MOVIES = 120
MAX_BODY = 64 * 1024

# Real movies, for the screenshot (and titles in the tests): id, title, year.
MOVIES = [
    (603, "The Matrix", 1999), (27205, "Inception", 2010), (550, "Fight Club", 1999), (680, "Pulp Fiction", 1994),
    (13, "Forrest Gump", 1994), (155, "The Dark Knight", 2008), (157336, "Interstellar", 2014),
    (278, "The Shawshank Redemption", 1994), (238, "The Godfather", 1972), (129, "Spirited Away", 2001),
    (78, "Blade Runner", 1982), (62, "2001: A Space Odyssey", 1968), (105, "Back to the Future", 1985),
    (862, "Toy Story", 1995), (769, "GoodFellas", 1990), (807, "Se7en", 1995), (424, "Schindler's List", 1993),
    (496243, "Parasite", 2019), (438631, "Dune", 2021), (11, "Star Wars", 1977),
]


# MARK: the world


class World:
    """alice and bob, their pages, and a browser on each; started as checks need them."""

    def __init__(self, work):
        self.work = work
        self.secret = harness.write_group_secret(work / "group.secret")
        self.ports = {n: harness.free_port() for n in ("alice", "bob")}
        self.web_ports = {n: harness.free_port() for n in ("alice", "bob")}
        self.daemons = []
        self.browsers = []
        self.alice = self.bob = self.carol = None
        self.fake = None
        self.pages = {}
        self.next_movie = 900000

    def movie_id(self):
        """A movie id no other check uses."""
        self.next_movie += 1
        return self.next_movie

    def track(self, daemon):
        self.daemons.append(daemon)
        return daemon

    def up(self):
        if self.alice:
            return
        self.alice = self.track(ws.WebPeerd(self.work, "alice", self.ports["alice"], self.web_ports["alice"],
                                            self.secret, [self.ports["bob"]]))
        self.bob = self.track(ws.WebPeerd(self.work, "bob", self.ports["bob"], self.web_ports["bob"],
                                          self.secret, [self.ports["alice"]]))
        self.alice.start()
        self.bob.start()
        self.urls = {d.name: d.wait_page() for d in (self.alice, self.bob)}
        harness.expect_eventually(lambda: self.alice.connected_to(self.bob) and self.bob.connected_to(self.alice),
                                  30, "alice and bob connected")
        self.api = {d.name: ws.Api(d.web_port, self.urls[d.name].split("#token=", 1)[1])
                    for d in (self.alice, self.bob)}
        print(f"web: alice {self.alice.id[:8]} page :{self.alice.web_port}, bob {self.bob.id[:8]} page "
              f":{self.bob.web_port}; work dir {self.work}", flush=True)

    def carol_up(self):
        """carol, who holds a TMDB key for a fake TMDB on loopback and dials bob; no page of her own. She
        checks the wanted movies for news every 2 s (web_news.py)."""
        if self.carol:
            return
        key = secrets.token_hex(16)
        self.fake = FakeTMDB([key]).start()
        key_file = self.work / "carol.tmdb"
        key_file.write_text(key)
        key_file.chmod(0o600)
        self.carol = self.track(ws.WebPeerd(self.work, "carol", harness.free_port(), None, self.secret,
                                            [self.ports["bob"]],
                                            ["--tmdb-url", self.fake.url, "--tmdb-token-file", str(key_file),
                                             "--news-interval", "2s"]))
        self.carol.start()
        harness.expect_eventually(lambda: self.carol.connected_to(self.bob), 30, "carol connected to bob")

    def start_browsers(self):
        """Both browsers, before any daemon: a machine without them is skipped at once."""
        for name in ("alice", "bob"):
            browser = ws.Browser(self.work, name)
            self.browsers.append(browser)
            browser.start()

    def page(self, name):
        """The browser named `name` on that daemon's page, opened the first time."""
        self.up()
        if name not in self.pages:
            browser = next(b for b in self.browsers if b.name == name)
            self.pages[name] = ws.Page(browser, self.urls[name]).open(timeout=APPEAR)
        return self.pages[name]

    def live(self, *names):
        for name in names:
            page = self.page(name)
            harness.expect_eventually(lambda: page.js("return document.body.dataset.live") == "true", APPEAR,
                                      f"body[data-live=true] on {name}'s page", 0.05)

    def stop(self):
        for browser in self.browsers:
            try:
                browser.stop()
            except Exception:  # cleanup goes on
                pass
        for daemon in reversed(self.daemons):
            try:
                daemon.stop()
            except Exception:  # cleanup goes on
                pass
        if self.fake:
            self.fake.stop()


def timed_peerctl(daemon, *args):
    """Runs peerctl; (CompletedProcess, wall-clock ms when it returned)."""
    result = daemon.peerctl(*args)
    returned = ws.now_ms()
    if result.returncode != 0:
        raise CheckFailed(f"peerctl {' '.join(map(str, args))} on {daemon.name}: exit {result.returncode}: "
                          f"{(result.stdout + result.stderr).strip()}")
    return result, returned


def bound(what, ms):
    if ms > LIVE_BOUND_MS:
        raise CheckFailed(f"{what}: {ms:.0f} ms, over the {LIVE_BOUND_MS} ms bound")
    return ms


# MARK: the page's address and token


def check_open(w):
    w.up()
    said = []
    for d in (w.alice, w.bob):
        url = w.urls[d.name]
        match = re.fullmatch(r"http://127\.0\.0\.1:(\d+)/#token=([0-9a-f]+)", url)
        if not match or int(match.group(1)) != d.web_port:
            raise CheckFailed(f"{d.name}: peerctl open printed {url!r}; "
                              f"expected http://127.0.0.1:{d.web_port}/#token=…")
        token = match.group(2)
        bits = len(token) * 4
        if bits < 128 or len(token) != 64:
            raise CheckFailed(f"{d.name}'s token has {len(token)} hex digits ({bits} bits); WEB.md: 64 (256 bits)")
        path = d.state_dir / "web.token"
        mode = stat.S_IMODE(path.stat().st_mode)
        kept = path.read_text().strip()
        if mode != 0o600 or kept != token:
            raise CheckFailed(f"{path}: mode {mode:o}, holds the token printed: {kept == token}")
        web = d.status().get("web")
        if web != f"http://127.0.0.1:{d.web_port}/":
            raise CheckFailed(f"{d.name}'s status --json web: {web!r}")
        plain = d.peerctl("status").stdout
        if token in plain or token in json.dumps(d.status()):
            raise CheckFailed(f"{d.name}'s status shows the token")
        as_json = d.peerctl("open", "--no-browser", "--json")
        if as_json.returncode != 0 or json.loads(as_json.stdout).get("url") != url:
            raise CheckFailed(f"{d.name}: open --json: exit {as_json.returncode}: {as_json.stdout.strip()}")
        said.append(f"{d.name} :{d.web_port}")
    if w.api["alice"].token == w.api["bob"].token:
        raise CheckFailed("alice and bob have the same token")
    return f"{', '.join(said)}; 64 hex digits (256 bits) each, distinct, web.token mode 600; status web without it"


# MARK: the API over HTTP


def check_page_files(w):
    w.up()
    api = w.api["alice"]
    found = []
    html = api.call("GET", "/", token=None).body.decode()
    # The page's files: index.html, the stylesheets it links, and its modules, followed import by
    # import from the one it loads (each must be served, as JavaScript, without a token).
    entry = re.findall(r'<script type="module" src="([^"]+)"', html)
    styles = re.findall(r'<link rel="stylesheet" href="([^"]+)"', html)
    if entry != ["app.js"] or styles != ["base.css", "app.css", "tv.css"]:
        raise CheckFailed(f"index.html loads modules {entry} and styles {styles}; "
                          "expected app.js, base.css, app.css, tv.css")
    files = [("/", "text/html"), ("/index.html", "text/html")] + [(f"/{s}", "text/css") for s in styles]
    modules, queue = [], list(entry)
    while queue:
        name = queue.pop(0)
        if name in modules:
            continue
        modules.append(name)
        r = api.call("GET", f"/{name}", token=None)
        queue += re.findall(r"^import .* from '\./([\w.]+)';$", r.body.decode(errors="replace"), re.M)
    files += [(f"/{m}", "text/javascript") for m in modules]
    # Every module app.js imports is preloaded with it, so the page does not wait import by import.
    preloaded = re.findall(r'<link rel="modulepreload" href="([^"]+)"', html)
    if sorted(preloaded) != sorted(modules[1:]):
        raise CheckFailed(f"index.html preloads {sorted(preloaded)}; app.js imports {sorted(modules[1:])}")
    for path, kind in files:
        r = api.call("GET", path, token=None)
        if r.status != 200 or not r.headers.get("content-type", "").startswith(kind):
            raise CheckFailed(f"GET {path} without a token: {r.status} {r.headers.get('content-type')}")
        found.append(f"{path} {len(r.body)} B")
    inline = re.findall(r"<script(?![^>]*\bsrc=)[^>]*>|<style|\bon[a-z]+=|style=", html, re.I)
    if inline:
        raise CheckFailed(f"index.html has inline script or style: {inline[:5]}")
    head = api.call("HEAD", "/app.js", token=None)
    if head.status != 200 or head.body:
        raise CheckFailed(f"HEAD /app.js: {head.status}, {len(head.body)} bytes of body")
    return (f"{len(modules)} modules from app.js (the rest preloaded), {len(styles)} stylesheets: " + "; ".join(found)
            + "; no inline script or style; HEAD 200 without a body")


def leak_problems(w, response):
    """What of alice's data a refusal's body gives away."""
    body = response.body.decode(errors="replace")
    secrets_ = {"alice's id": w.alice.id, "bob's id": w.bob.id, "a title": "Leak Canary",
                "the token": w.api["alice"].token, "JSON": "{"}
    found = [what for what, text in secrets_.items() if text in body]
    if len(body.strip().splitlines()) > 1:
        found.append("more than one line")
    return found


def check_no_token(w):
    w.up()
    api = w.api["alice"]
    w.alice.peerctl("add", 4242, "--title", "Leak Canary")
    token = api.token
    wrong = {
        "none": None,
        "random 64 hex digits": secrets.token_hex(32),
        "one digit changed": token[:-1] + ("0" if token[-1] != "0" else "1"),
        "upper case": token.upper() if token.upper() != token else token + "x",
        "63 digits": token[:-1],
        "65 digits": token + "0",
        "empty": "",
        "bob's token": w.api["bob"].token,
    }
    problems, seen = [], {}
    for what, value in wrong.items():
        for method, path, body in (("POST", "/api/request", {"type": "list", "version": 1}),
                                   ("GET", "/api/events", None)):
            if value == "":
                r = api.call(method, path, body, token=None, headers={"Authorization": "Bearer "})
            else:
                r = api.call(method, path, body, token=value)
            seen[r.status] = seen.get(r.status, 0) + 1
            if r.status != 401:
                problems.append(f"{what}: {method} {path} → {r.status} {r.body[:80]!r}")
            elif leak_problems(w, r):
                problems.append(f"{what}: {method} {path}: the 401 gives away {leak_problems(w, r)}")
    others = {
        "Basic": {"Authorization": f"Basic {token}"},
        "token in a cookie": {"Cookie": f"token={token}"},
        "bare token": {"Authorization": token},
    }
    for what, headers in others.items():
        r = api.call("POST", "/api/request", {"type": "list", "version": 1}, token=None, headers=headers)
        if r.status != 401:
            problems.append(f"{what}: {r.status}")
    r = api.call("POST", f"/api/request?token={token}", {"type": "list", "version": 1}, token=None)
    if r.status != 401:
        problems.append(f"token in the query: {r.status}")
    if problems:
        raise CheckFailed("; ".join(problems))
    said = api.call("POST", "/api/request", {"type": "list", "version": 1}, token=None).body.decode().strip()
    return f"{sum(seen.values()) + len(others) + 1} requests without the right token → 401 {said!r}, no data"


def check_host(w):
    w.up()
    api, port = w.api["alice"], w.alice.web_port
    problems = []
    bad = ["evil.example", f"evil.example:{port}", f"rebind.attacker.example:{port}", f"127.0.0.1:{port + 1}",
           "127.0.0.1", "localhost", f"127.0.0.2:{port}", f"[::1]:{port + 1}", f"0.0.0.0:{port}"]
    for host in bad:
        for method, path, body in (("GET", "/", None), ("POST", "/api/request", {"type": "list", "version": 1})):
            r = api.call(method, path, body, host=host)
            if r.status != 421:
                problems.append(f"Host {host!r}: {method} {path} → {r.status}")
            elif method == "POST" and leak_problems(w, r):
                problems.append(f"Host {host!r}: the 421 gives away {leak_problems(w, r)}")
    missing = api.call("POST", "/api/request", {"type": "list", "version": 1}, host=None)
    if missing.status not in (421, 400):
        problems.append(f"no Host: {missing.status}")
    good = [(f"127.0.0.1:{port}", socket.AF_INET), (f"localhost:{port}", socket.AF_INET),
            (f"LOCALHOST:{port}", socket.AF_INET), (f"[::1]:{port}", socket.AF_INET6)]
    for host, family in good:
        try:
            r = api.call("POST", "/api/request", {"type": "status", "version": 1}, host=host, family=family,
                         origin=f"http://{host}")
        except CheckFailed as failure:
            problems.append(f"Host {host!r}: {failure}")
            continue
        if r.status != 200 or r.json().get("type") != "status":
            problems.append(f"Host {host!r}: {r.status} {r.body[:80]!r}")
    if problems:
        raise CheckFailed("; ".join(problems))
    return (f"{len(bad) * 2} requests with a wrong Host → 421 (the page and the API, with the right token); no Host "
            f"→ {missing.status}; 127.0.0.1, localhost and [::1] (over IPv6) with the port → 200")


def check_origin(w):
    w.up()
    api, port = w.api["alice"], w.alice.web_port
    tried = {}
    for origin in ["http://evil.example", f"http://evil.example:{port}", "null", None, f"http://127.0.0.1:{port + 1}",
                   f"https://127.0.0.1:{port}", f"http://127.0.0.1:{port}.evil.example", f"http://[::1]:{port + 1}"]:
        movie = w.movie_id()
        r = api.request(ws.add_request(movie, "Cross Origin"), origin=origin)
        tried[movie] = (origin, r)
    problems = [f"Origin {o!r}: {r.status} {r.body[:80]!r}" for o, r in tried.values() if r.status != 403]
    listed = w.alice.movie_ids() & set(tried)
    if listed:
        problems.append(f"added anyway: {sorted(listed)}")
    ok = api.request({"type": "status", "version": 1}, origin=f"http://localhost:{port}", host=f"localhost:{port}")
    if ok.status != 200:
        problems.append(f"Origin http://localhost:{port}: {ok.status}")
    if problems:
        raise CheckFailed("; ".join(problems))
    return (f"{len(tried)} adds from another origin (or none, or null) → 403 {next(iter(tried.values()))[1].body!r}, "
            f"none listed; a same-origin POST via localhost → 200")


def check_routes(w):
    w.up()
    api = w.api["alice"]
    problems = []
    for method, path, want, token in (("GET", "/nope", 404, None), ("GET", "/api/nope", 404, True),
                                      ("POST", "/api/requests", 404, True), ("GET", "/index.htm", 404, None),
                                      ("GET", "/app.js/x", 404, None), ("GET", "/favicon.ico", 204, None),
                                      ("GET", "/api/request", 405, True), ("PUT", "/api/request", 405, True),
                                      ("POST", "/api/events", 405, True), ("POST", "/", 405, None),
                                      ("DELETE", "/app.js", 405, None)):
        r = api.call(method, path, {"type": "status", "version": 1} if method in ("POST", "PUT") else None,
                     token=token)
        if r.status != want:
            problems.append(f"{method} {path}: {r.status}, expected {want}")
    if problems:
        raise CheckFailed("; ".join(problems))
    return "5 unknown paths → 404, /favicon.ico → 204, 5 wrong methods → 405"


def check_body_limit(w):
    w.up()
    api = w.api["alice"]
    big = json.dumps({"movie": {"id": w.movie_id(), "title": "x" * (MAX_BODY + 1)}, "type": "add", "version": 1})
    assert len(big) > MAX_BODY
    problems = []
    for what, chunked in (("Content-Length", False), ("chunked", True)):
        r = api.request(big.encode(), chunked=chunked)
        if r.status != 413:
            problems.append(f"{len(big)} bytes ({what}): {r.status} {r.body[:80]!r}")
    huge = api.request(b"[" + b"0," * (1 << 20) + b"0]")
    if huge.status != 413:
        problems.append(f"2 MiB: {huge.status}")
    just = {"movie": {"id": w.movie_id(), "title": "Just Under"}, "type": "add", "version": 1}
    padded = json.dumps(just).encode()
    padded = padded[:-1] + b" " * (MAX_BODY - len(padded)) + b"}"
    fits = api.request(padded)
    if fits.status != 200 or fits.json().get("type") != "added":
        problems.append(f"exactly {len(padded)} bytes: {fits.status} {fits.body[:80]!r}")
    if not w.alice.alive() or api.request({"type": "status", "version": 1}).status != 200:
        problems.append("the daemon does not answer after them")
    if problems:
        raise CheckFailed("; ".join(problems))
    return f"{len(big)} bytes (with a length, and chunked) and 2 MiB → 413; exactly {MAX_BODY} bytes → 200"


def check_forbidden_requests(w):
    w.up()
    api = w.api["alice"]
    requests = {
        "follow": {"type": "follow", "version": 1},
        "connect": {"address": "127.0.0.1:9", "type": "connect", "version": 1},
        "invite": {"type": "invite", "version": 1},
        "join": {"code": "wl1-aaaaa", "address": "127.0.0.1:9", "type": "join", "version": 1},
        "forget": {"peer": "bob", "type": "forget", "version": 1},
        "trust": {"peer": "0" * 32, "type": "trust", "version": 1},
        "diagnose": {"type": "diagnose", "version": 1},
    }
    problems = []
    for name, body in requests.items():
        r = api.request(body)
        if r.status != 403:
            problems.append(f"{name}: {r.status} {r.body[:100]!r}")
    peers = w.alice.peers()
    if any(p.get("address") == "127.0.0.1:9" for p in peers) or not w.alice.connected_to(w.bob):
        problems.append(f"the daemon did something anyway: peers {[(p.get('address'), p.get('state')) for p in peers]}")
    if problems:
        raise CheckFailed("; ".join(problems))
    return f"{', '.join(requests)} → 403 ({api.responses[-1].body.decode().strip()[:90]}); bob still a member"


def check_api(w):
    w.up()
    api = w.api["alice"]
    movie = w.movie_id()
    added = api.request(ws.add_request(movie, "Via The API", 2001))
    listed = api.request({"limit": 1, "type": "list", "version": 1})
    problems = []
    if added.status != 200 or added.json().get("type") != "added" or added.json()["movie"]["movieId"] != movie:
        problems.append(f"add: {added.status} {added.body[:120]!r}")
    if not added.headers.get("content-type", "").startswith("application/json"):
        problems.append(f"add's Content-Type {added.headers.get('content-type')!r}")
    body = listed.json() if listed.status == 200 else {}
    if body.get("type") != "list" or len(body.get("movies", [])) != 1 or "next" not in body:
        problems.append(f"list limit 1: {listed.status} {listed.body[:120]!r}")
    if movie not in w.alice.movie_ids():
        problems.append(f"{movie} is not on alice's list")
    removed = api.request({"movie": movie, "type": "remove", "version": 1})
    again = api.request({"movie": movie, "type": "remove", "version": 1})
    if removed.json().get("type") != "removed" or again.json().get("code") != "not-listed":
        problems.append(f"remove: {removed.body[:80]!r}, again: {again.body[:80]!r}")
    bad = {"not JSON": b"{nope", "no type": {"version": 1}, "unknown type": {"type": "dance", "version": 1},
           "version 2": {"type": "status", "version": 2},
           "movie id -1": {"movie": {"id": -1}, "type": "add", "version": 1}}
    codes = {}
    for what, request in bad.items():
        r = api.request(request)
        code = None
        try:
            code = r.json().get("code") if r.json().get("type") == "error" else None
        except ValueError:
            pass
        codes[what] = f"{r.status} {code}"
        if r.status != 400 or not code:
            problems.append(f"{what}: {r.status} {r.body[:100]!r}; expected 400 with an error response")
    if problems:
        raise CheckFailed("; ".join(problems))
    return f"add, list (limit 1, next), remove, not-listed as on the socket; 400s: {codes}"


def check_events(w):
    w.up()
    import http.client
    api = w.api["bob"]
    conn = http.client.HTTPConnection("127.0.0.1", w.bob.web_port, timeout=APPEAR)
    try:
        conn.request("GET", "/api/events", headers={"Host": api.good_host(), "Authorization": f"Bearer {api.token}"})
        response = conn.getresponse()
        headers = {k.lower(): v for k, v in response.getheaders()}
        api.responses.append(ws.Response("GET /api/events", response.status, headers, b""))
        if response.status != 200 or not headers.get("content-type", "").startswith("text/event-stream"):
            raise CheckFailed(f"{response.status} {headers.get('content-type')!r}")
        # No wait: the daemon subscribes before it sends the stream's head (WebAPI.events, "a page that
        # lists once the stream is open misses no change"), and the head is in.
        movie = w.movie_id()
        _, returned = timed_peerctl(w.alice, "add", movie, "--title", "Heard Over SSE")
        event, data = None, None
        while data is None:
            line = response.readline().decode()
            if not line:
                raise CheckFailed("the stream ended")
            if line.startswith("event:"):
                event = line.split(":", 1)[1].strip()
            elif line.startswith("data:"):
                data = json.loads(line.split(":", 1)[1])
        heard = ws.now_ms() - returned
    except (socket.timeout, TimeoutError):
        raise CheckFailed(f"no change event within {APPEAR:g} s of an add on alice") from None
    finally:
        conn.close()
    if (event, data.get("type"), data.get("change"), data.get("movieId")) != ("change", "change", "added", movie):
        raise CheckFailed(f"event {event!r}: {data}")
    if data.get("by") != "alice" or data.get("row", {}).get("title") != "Heard Over SSE":
        raise CheckFailed(f"the change's by/row: {data}")
    w.alice.peerctl("remove", movie)
    return f"bob's stream: event: change, added {movie} by alice, {heard:.0f} ms after alice's peerctl add returned"


def check_headers(w):
    w.up()
    responses = [r for api in w.api.values() for r in api.responses]
    bad = [f"{r.what} ({r.status}): {ws.header_problems(r)}" for r in responses if ws.header_problems(r)]
    if bad:
        raise CheckFailed(f"{len(bad)} of {len(responses)} responses lack WEB.md's headers: " + "; ".join(bad[:6]))
    statuses = sorted({r.status for r in responses})
    return f"all {len(responses)} responses so far (statuses {statuses}) carry CSP, nosniff, no-referrer, no-store"


# MARK: the page in the browser


def check_form_add(w):
    a, b = w.page("alice"), w.page("bob")
    w.live("alice", "bob")
    session, own = b.session(), a.session()
    movie = w.movie_id()
    query = a.driver.find_element("css selector", "input#query")
    query.clear()
    query.send_keys(str(movie))
    a.driver.find_element("css selector", "button#go").click()
    on_b = b.wait_card(movie, timeout=APPEAR, what=f"card {movie}, added on alice's page,")
    on_a = a.wait_card(movie, timeout=APPEAR)
    clicked = a.last_click("#go")
    if clicked is None:
        raise CheckFailed("the recorder saw no click on button#go")
    if b.session() != session or a.session() != own:
        raise CheckFailed(f"reloaded: bob's page {b.session() != session}, alice's {a.session() != own}")
    value = a.js("return document.querySelector('input#query').value")
    if movie not in w.alice.movie_ids() or movie not in w.bob.movie_ids():
        raise CheckFailed(f"{movie} on alice's list: {movie in w.alice.movie_ids()}, "
                          f"bob's: {movie in w.bob.movie_ids()}")
    title = b.js("return document.querySelector(`li.card[data-movie-id='${arguments[0]}'] .title`).textContent",
                 str(movie))
    if str(movie) not in title:
        raise CheckFailed(f"the card's .title is {title!r}; WEB.md: the id when there is no title")
    ms = bound(f"card {movie} on bob's page after the click on alice's", on_b - clicked)
    w.form_movie = movie
    return (f"typed {movie}, clicked #go: on alice's page {on_a - clicked:.0f} ms, on bob's {ms:.0f} ms after the "
            f"click; neither page reloaded; input#query then {value!r}")


def check_peerctl_live(w):
    a, b = w.page("alice"), w.page("bob")
    w.live("alice", "bob")
    session = a.session()
    movie = w.movie_id()
    started = ws.now_ms()
    _, returned = timed_peerctl(w.bob, "add", movie, "--title", "Live From Bob", "--year", "1984")
    on_a = a.wait_card(movie, timeout=APPEAR, what=f"card {movie}, added on bob with peerctl,")
    added_ms = bound(f"card {movie} on alice's page after bob's peerctl add returned", on_a - returned)
    card = a.js("const c = document.querySelector(`li.card[data-movie-id='${arguments[0]}']`);"
                "return [c.querySelector('.title').textContent, (c.querySelector('.year') || {}).textContent,"
                "(c.querySelector('.added') || {}).textContent]", str(movie))
    if "Live From Bob" not in card[0] or "1984" not in (card[1] or "") or "bob" not in (card[2] or ""):
        raise CheckFailed(f"the card shows title {card[0]!r}, year {card[1]!r}, added {card[2]!r}")
    b.wait_card(movie, timeout=APPEAR)
    removing = getattr(w, "form_movie", None) or movie
    started_remove = ws.now_ms()
    _, returned_remove = timed_peerctl(w.bob, "remove", removing)
    gone = a.wait_card(removing, present=False, timeout=APPEAR, what=f"card {removing}, removed on bob with peerctl,")
    removed_ms = bound(f"card {removing} off alice's page after bob's peerctl remove returned", gone - returned_remove)
    b.wait_card(removing, present=False, timeout=APPEAR)
    if a.session() != session:
        raise CheckFailed("alice's page was reloaded")
    which = "the movie added through the form" if removing != movie else "it"
    return (f"peerctl add on bob → card on alice's page {added_ms:.0f} ms after peerctl returned "
            f"({on_a - started:.0f} ms after it started; title, year, 'bob' shown); peerctl remove of {which} on "
            f"bob → off alice's page {removed_ms:.0f} ms after it returned ({gone - started_remove:.0f} ms after it started); no reload"
            + ("; negative: the card changed before peerctl had exited" if min(added_ms, removed_ms) < 0 else ""))


def click_remove(page, movie):
    """Clicks the card's button.remove, accepting a confirm() if the page asks."""
    from selenium.common.exceptions import NoAlertPresentException
    button = page.driver.find_element("css selector", f"ol#movies > li.card[data-movie-id='{movie}'] button.remove")
    page.js("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()
    try:
        page.driver.switch_to.alert.accept()
        return True
    except NoAlertPresentException:
        return False


def check_remove_button(w):
    a, b = w.page("alice"), w.page("bob")
    w.live("alice", "bob")
    movie = w.movie_id()
    timed_peerctl(w.alice, "add", movie, "--title", "Remove Me")
    b.wait_card(movie, timeout=APPEAR)
    a.wait_card(movie, timeout=APPEAR)
    confirmed = click_remove(b, movie)
    clicked = b.last_click("remove")
    gone_b = b.wait_card(movie, present=False, timeout=APPEAR)
    gone_a = a.wait_card(movie, present=False, timeout=APPEAR, what=f"card {movie}, removed with bob's button,")
    harness.expect_eventually(lambda: movie not in w.alice.movie_ids() and movie not in w.bob.movie_ids(), APPEAR,
                              f"{movie} off both lists")
    if clicked is None:
        clicked = gone_b
    ms = bound(f"card {movie} off alice's page after the click on bob's", gone_a - clicked)
    return (f"button.remove on bob's card{' (after a confirm)' if confirmed else ''}: off bob's page "
            f"{gone_b - clicked:.0f} ms, off alice's {ms:.0f} ms after the click; off both daemons' lists")


def check_peers_shown(w):
    a, b = w.page("alice"), w.page("bob")
    w.live("alice", "bob")
    said = []
    for page, other in ((a, w.bob), (b, w.alice)):
        def shown():
            return page.js(ws.PEER_ROW, other.id)
        peer = harness.expect_eventually(shown, APPEAR, f"li.peer[data-peer={other.id[:8]}…] on "
                                         f"{page.browser.name}'s page", 0.1)
        if other.name not in peer[0] or "connected" not in peer[1].lower() or not peer[2].startswith("direct"):
            raise CheckFailed(f"{page.browser.name}'s page shows {other.name} as name {peer[0]!r}, state {peer[1]!r}, "
                              f"path {peer[2]!r} (not direct)")
        error = page.error_shown()
        if error:
            raise CheckFailed(f"{page.browser.name}'s page shows p#error: {error!r}")
        said.append(f"{page.browser.name}'s page: {peer[0].strip()} {peer[1].strip()} ({peer[2].strip()})")
    return "; ".join(said) + "; data-live true, no error shown"


def check_token_in_page(w):
    a = w.page("alice")
    token = w.api["alice"].token
    href = a.js("return location.href")
    kept = a.js("return Object.keys(sessionStorage).some(k => sessionStorage.getItem(k) === arguments[0])", token)
    elsewhere = a.js("return [document.cookie, JSON.stringify(localStorage), document.body.innerHTML]"
                     ".some(t => t.includes(arguments[0]))", token)
    if "token" in href or token in href:
        raise CheckFailed(f"the address bar still holds it: {href.replace(token, '…')}")
    if not kept or elsewhere:
        raise CheckFailed(f"in sessionStorage: {kept}; in cookies, localStorage or the DOM: {elsewhere}")
    original = a.driver.current_window_handle
    a.driver.switch_to.new_window("tab")  # a tab of its own has an empty sessionStorage
    try:
        a.browser.record()
        a.driver.get(a.base)
        harness.expect_eventually(lambda: a.js("return document.readyState") == "complete", APPEAR,
                                  "the page without its token loaded", 0.05)
        # No window to wait out: the page's deferred script has run by now and decided. With a token,
        # found anywhere, it would have asked peerd for the list at once (a fetch the recorder saw);
        # without one it asks nothing, ever, and shows no data.
        asked = a.js("return window.__web.requests.map(r => r.url)")
        cards, ready = len(a.card_ids()), a.js("return document.body.dataset.ready")
        titles = [t for t in ("Live From Bob", "Paging", "Leak Canary", "Remove Me")
                  if t in a.js("return document.body.textContent")]
        a.browser.drain_console("alice, without the token")
    finally:
        a.driver.close()
        a.driver.switch_to.window(original)
    if asked or cards or ready == "true" or titles:
        raise CheckFailed(f"opened without the token: requests {asked}, {cards} cards, data-ready {ready!r}, "
                          f"titles shown {titles}")
    # Its 401s are the expected errors of that tab: the console check looks at the other entries.
    a.browser.console = [e for e in a.browser.console if e["page"] != "alice, without the token"]
    return f"address {href}, the token in sessionStorage only; a tab without it asks nothing, shows no cards or titles"


def check_paging(w):
    w.up()
    b = w.page("bob")
    requests = [ws.add_request(500000 + i, f"Paging {i:03d}", 1950 + i % 70) for i in range(PAGING_MOVIES)]
    answers = ws.control_batch(w.alice.socket, requests)
    if any(r.get("type") != "added" for r in answers):
        raise CheckFailed(f"adds on alice: {[r for r in answers if r.get('type') != 'added'][:2]}")
    expected = harness.expect_eventually(
        lambda: (lambda rows: rows if len(rows) >= PAGING_MOVIES and {500000 + i for i in range(PAGING_MOVIES)}
                 <= {m["movieId"] for m in rows} else None)(w.bob.movies()),
        30, f"the {PAGING_MOVIES} movies on bob's list")
    order = [m["movieId"] for m in expected]
    started = time.monotonic()
    b.open(timeout=APPEAR)
    first = b.ready_cards()
    right_after = len(b.card_ids())
    mark = b.first_render()
    if first != 50:
        raise CheckFailed(f"{first} cards when body[data-ready] turned true ({len(order)} listed); "
                          f"WEB.md: 50 at a time")
    scrolls = 0
    while True:
        count = len(b.card_ids())
        if count >= len(order):
            break
        b.js("window.scrollTo(0, document.documentElement.scrollHeight)")
        scrolls += 1
        harness.expect_eventually(lambda: len(b.card_ids()) > count, APPEAR,
                                  f"more cards after scrolling to the bottom with {count} of {len(order)}", 0.05)
        if scrolls > len(order) // 10:
            raise CheckFailed(f"{scrolls} scrolls and still {count} of {len(order)} cards")
    took = time.monotonic() - started
    ids = b.card_ids()
    if ids != order:
        dupes = len(ids) - len(set(ids))
        first_diff = next((i for i, (x, y) in enumerate(zip(ids, order)) if x != y), min(len(ids), len(order)))
        raise CheckFailed(f"{len(ids)} cards ({dupes} twice), list has {len(order)}; first difference at "
                          f"position {first_diff}: page {ids[first_diff:first_diff + 3]}, list "
                          f"{order[first_diff:first_diff + 3]}")
    if mark is None:
        raise CheckFailed("no performance mark 'first-render'")
    return (f"{first} cards at first render ({right_after} just after; first-render mark {mark:.0f} ms), "
            f"all {len(order)} in list order after {scrolls} scrolls, {took:.1f} s")


def check_browser_clean(w):
    if not w.pages:
        raise CheckFailed("no page was opened")
    problems = []
    for name, page in w.pages.items():
        violations = page.csp_violations()
        if violations:
            problems.append(f"{name}'s page: CSP violations {violations[:5]}")
        page.browser.drain_console(name)
    errors = ws.console_errors([e for b in w.browsers for e in b.console])
    if errors:
        problems.append("severe console errors: " + "; ".join(f"{e['page']}: {e['message'][:200]}" for e in errors[:5]))
    if problems:
        raise CheckFailed("; ".join(problems))
    entries = sum(len(b.console) for b in w.browsers)
    # That the watch works: an inline script planted in alice's page is refused, and both see it.
    page = next(iter(w.pages.values()))
    page.js("const s = document.createElement('script'); s.textContent = 'window.__planted = 1';"
            "document.body.append(s)")
    harness.expect_eventually(page.csp_violations, 5, "the recorder seeing a planted inline script refused")
    planted = ws.console_errors(page.browser.drain_console("planted"))
    if page.js("return window.__planted") or not planted:
        raise CheckFailed(f"a planted inline script ran: {bool(page.js('return window.__planted'))}; console "
                          f"errors about it: {len(planted)}")
    return (f"no CSP violation and no severe console error on either page ({entries} console entries in all); a "
            f"planted inline script was refused and seen by both watches")


# MARK: the page off


def check_no_web(w):
    port = harness.free_port()
    d = w.track(ws.WebPeerd(w.work, "noweb", port, None, w.secret)).start()
    try:
        plain, as_json = d.peerctl("open", "--no-browser"), d.peerctl("open", "--json")
        status = d.status()
        code = json.loads(as_json.stdout or "{}").get("code") if as_json.stdout.strip() else None
        if plain.returncode != 1 or as_json.returncode != 1 or code != "unavailable":
            raise CheckFailed(f"open: exit {plain.returncode} {(plain.stdout + plain.stderr).strip()!r}; --json: exit "
                              f"{as_json.returncode} {as_json.stdout.strip()!r}")
        if plain.stdout.strip():
            raise CheckFailed(f"open printed {plain.stdout.strip()!r} on stdout")
        if "web" in status:
            raise CheckFailed(f"status shows web {status['web']!r} with --no-web")
        if (d.state_dir / "web.token").exists():
            raise CheckFailed("a web.token was made with --no-web")
        said = (plain.stderr or plain.stdout).strip()
    finally:
        d.stop()
    return f"open exits 1: {said!r} (--json code unavailable); status has no web; no token file"


def check_port_taken(w):
    blocker = socket.socket()
    blocker.bind(("127.0.0.1", 0))
    blocker.listen(1)
    taken = blocker.getsockname()[1]
    d = w.track(ws.WebPeerd(w.work, "blocked", harness.free_port(), taken, w.secret))
    try:
        d.start()

        def answer():
            r = d.peerctl("open", "--json")
            said = json.loads(r.stdout) if r.stdout.strip() else {}
            return (r, said) if "starting" not in said.get("message", "") else None
        result, said = harness.expect_eventually(answer, APPEAR, "open answering other than 'starting'", 0.1)
        plain = d.peerctl("open", "--no-browser")
        message = said.get("message", "")
        if result.returncode != 1 or said.get("code") != "unavailable":
            raise CheckFailed(f"open with port {taken} taken: exit {result.returncode}, {result.stdout.strip()!r}")
        if not re.search(r"in use|EADDRINUSE|taken|bind", message, re.I) and str(taken) not in message:
            raise CheckFailed(f"open's reason says neither that the port is in use nor which: {message!r}")
        if plain.returncode != 1 or message not in plain.stderr + plain.stdout:
            raise CheckFailed(f"plain open: exit {plain.returncode}, {(plain.stdout + plain.stderr).strip()!r}")
        status = d.status()
        movie = w.movie_id()
        added = d.peerctl("add", movie)
        if "web" in status or added.returncode != 0 or movie not in d.movie_ids() or not d.alive():
            raise CheckFailed(f"status web {status.get('web')!r}, add exit {added.returncode}, alive {d.alive()}")
        logged = [line for line in d.log.read_text(errors="replace").splitlines() if "page" in line.lower()]
        if not logged:
            raise CheckFailed("the log does not say the page is off")
    finally:
        d.stop()
        blocker.close()
    return f"peerctl answers (status, add); open exits 1, unavailable: {message!r}; the log says why"


def check_search_without_token(w):
    """bob holds no token. Once carol, who holds one, is connected to him, bob's search box searches
    TMDB through her (PEER.md, "Catalog queries"), and a result's add button adds the movie."""
    b = w.page("bob")
    w.live("bob")
    w.carol_up()
    harness.expect_eventually(lambda: b.js("return document.querySelector('form#search').dataset.mode") == "search",
                              APPEAR, "bob's search box searching (status.search) once carol is connected")
    query = b.driver.find_element("css selector", "input#query")
    query.clear()
    query.send_keys("fight club")
    started = time.monotonic()
    b.driver.find_element("css selector", "button#go").click()
    found = harness.expect_eventually(lambda: b.js(
        "return [...document.querySelectorAll('ul#results > li.result')].map(r => r.dataset.movieId)"),
        APPEAR, "search results on bob's page")
    took = time.monotonic() - started
    if "550" not in found:
        raise CheckFailed(f"bob's search for fight club showed {found}, not 550; {b.state()}")
    b.driver.find_element("css selector", "ul#results > li.result[data-movie-id='550'] button.add").click()
    b.wait_card(550, timeout=APPEAR, what="card 550, added from bob's search results,")
    harness.expect_eventually(lambda: 550 in w.alice.movie_ids(), APPEAR, "550 on alice's list")
    # Searched again, a listed movie's result says so on its button, which no longer adds: no "Add"
    # beside "On the list".
    b.driver.find_element("css selector", "button#go").click()
    listed = harness.expect_eventually(lambda: b.js(
        "const r = document.querySelector(`ul#results > li.result[data-movie-id='550']`);"
        "const b = r && r.querySelector('button'); return b && !document.querySelector('#go').disabled"
        " && {text: r.textContent, button: b.textContent, disabled: b.disabled}"),
        APPEAR, "550's result searched again")
    if listed["button"] != "On the list" or not listed["disabled"] or "Add" in listed["text"]:
        raise CheckFailed(f"550, on the list, searched again: {listed}")
    # carol gone: bob's page says in words who holds a token and when it was last seen.
    w.carol.stop()
    harness.expect_eventually(lambda: b.js("return document.querySelector('form#search').dataset.mode") == "id",
                              APPEAR, "bob's search box back to ids once carol is gone")
    query.clear()
    query.send_keys("dune")
    b.driver.find_element("css selector", "button#go").click()
    said = harness.expect_eventually(lambda: b.js(
        "const e = document.querySelector('p#error'); return e && !e.hidden ? e.textContent : ''"),
        APPEAR, "an error on bob's page for a title with no token holder connected")
    if "no connected peer holds a TMDB token" not in said or "carol holds one and was last seen" not in said:
        raise CheckFailed(f"bob's page said {said!r}")
    return (f"bob's page, without a token, found {len(found)} result(s) for fight club in {took:.2f} s; 550 added, "
            f"and searched again its button says {listed['button']!r}, disabled; "
            f"with carol stopped: {said!r}")


def luminance(css_color):
    """Relative luminance (0 black .. 1 white) of a computed `rgb(...)`/`rgba(...)` colour."""
    r, g, b = (int(float(x)) / 255 for x in re.findall(r"[\d.]+", css_color)[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def check_phone_keyboard_dark(w):
    """WEB.md: a phone-sized screen, the keyboard alone, dark mode."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys
    a = w.page("alice")
    w.live("alice")
    driver = a.driver
    size = driver.get_window_size()
    try:
        driver.set_window_size(360, 740)
        harness.expect_eventually(lambda: a.js("return window.innerWidth") <= 360, APPEAR, "a 360 px viewport")
        wide = a.js("const w = document.documentElement.clientWidth;"
                    "return [document.documentElement.scrollWidth, w, [...document.querySelectorAll("
                    "'li.card, form#search, ul#peers')].filter(e => e.getBoundingClientRect().right > w + 0.5)"
                    ".map(e => e.id || e.className)]")
        if wide[0] > wide[1] or wide[2]:
            raise CheckFailed(f"at 360 px the page is {wide[0]} px wide in a {wide[1]} px viewport; over the edge: "
                              f"{wide[2][:5]}")
        movie = w.movie_id()
        # A click on the heading puts the start of Tab's order at the top of the page, as for a
        # person who starts there (after other checks, it may be anywhere).
        a.js("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0)")
        driver.find_element("css selector", "h1").click()
        to_query = tab_to(a, "input#query", 15)
        if to_query is None:
            raise CheckFailed("15 presses of Tab never reached input#query")
        outline = a.js("const s = getComputedStyle(document.activeElement);"
                       "return [s.outlineStyle, s.outlineWidth, s.boxShadow]")
        if outline[0] == "none" and outline[2] == "none":
            raise CheckFailed(f"the focused input#query shows no focus ring: outline {outline[0]}, box-shadow none")
        ActionChains(driver).send_keys(str(movie), Keys.ENTER).perform()
        a.wait_card(movie, timeout=APPEAR, what=f"card {movie}, typed and added with Enter,")
        remove = f"li.card[data-movie-id='{movie}'] button.remove"
        to_remove = tab_to(a, remove, 400)
        if to_remove is None:
            raise CheckFailed(f"400 presses of Tab never reached {remove}")
        ActionChains(driver).send_keys(Keys.ENTER).perform()
        a.wait_card(movie, present=False, timeout=APPEAR, what=f"card {movie}, removed with Enter,")
        harness.expect_eventually(lambda: movie not in w.alice.movie_ids(), APPEAR, f"{movie} off alice's list")
        colours = {}
        for scheme in ("light", "dark"):
            driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                                   {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
            colours[scheme] = a.js("const s = getComputedStyle(document.body);"
                                   "const c = getComputedStyle(document.querySelector('li.card') || document.body);"
                                   "return [s.backgroundColor, s.color, c.backgroundColor]")
        light, dark = luminance(colours["light"][0]), luminance(colours["dark"][0])
        if not (light > 0.6 and dark < 0.25 and luminance(colours["dark"][1]) > 0.6):
            raise CheckFailed(f"light scheme {colours['light']}, dark scheme {colours['dark']}: the page doesn't follow "
                              f"prefers-color-scheme")
    finally:
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
        driver.set_window_size(size["width"], size["height"])
    return (f"360 px: no horizontal scroll ({wide[0]} px); keyboard: Tab ×{to_query} to the search box (focus ring "
            f"{outline[0]} {outline[1]}), Enter added {movie}, Tab ×{to_remove} to its Remove, Enter removed it; "
            f"background light {colours['light'][0]}, dark {colours['dark'][0]} (text {colours['dark'][1]})")


CHECKS = [
    ("open: the page's URL with a 256-bit token, web.token mode 600, status shows the address", check_open),
    ("files: index.html, its modules (app.js's imports) and styles without a token, no inline script or style",
     check_page_files),
    ("token: missing or wrong → 401 with a line of text, no data", check_no_token),
    ("host: a wrong Host → 421; 127.0.0.1, localhost, [::1] with the port admitted", check_host),
    ("origin: a POST from another origin, or none → 403, nothing added", check_origin),
    ("routes: unknown path → 404, wrong method → 405", check_routes),
    ("size: a body over 64 KiB → 413", check_body_limit),
    ("peerctl only: follow, connect, invite, join, forget, trust, diagnose → 403", check_forbidden_requests),
    ("api: control requests and responses as on the socket; not a request → 400", check_api),
    ("events: /api/events sends a change event for an add on the peer", check_events),
    ("live: added with alice's form (input#query, button#go), on bob's page ≤ 1 s, no reload", check_form_add),
    ("live: peerctl add on bob → alice's page ≤ 1 s; peerctl remove on bob → gone ≤ 1 s", check_peerctl_live),
    ("remove: a card's button.remove on bob's page removes it everywhere", check_remove_button),
    ("peers: each page lists the other as connected, and its path direct; no error shown", check_peers_shown),
    ("token: gone from the address bar, kept in sessionStorage; a tab without it shows nothing", check_token_in_page),
    ("paging: 120+ movies: 50 at first render, scrolling brings the rest in list order", check_paging),
    ("phone, keyboard, dark: 360 px without horizontal scroll; add and remove with Tab and Enter; dark scheme",
     check_phone_keyboard_dark),
    ("search: bob, without a token, searches through carol, who holds one, adds a result; then says who holds one",
     check_search_without_token),
    *web_browse.CHECKS,
    *web_marks.CHECKS,
    *web_tonight.CHECKS,
    *web_tv.CHECKS,
    *web_members.CHECKS,
    *web_profiles.CHECKS,
    *web_lists.CHECKS,
    *web_news.CHECKS,
    ("browser: no CSP violation, no severe console error", check_browser_clean),
    ("headers: every response carries CSP, nosniff, no-referrer, no-store", check_headers),
    ("no web: --no-web → open exits 1 unavailable, status without web", check_no_web),
    ("port taken: peerctl still served, open says unavailable and why", check_port_taken),
]
BROWSER_CHECKS = {check_form_add, check_peerctl_live, check_remove_button, check_peers_shown, check_token_in_page,
                  check_paging, check_phone_keyboard_dark, check_search_without_token, check_browser_clean,
                  *(check for _, check in web_browse.CHECKS), *(check for _, check in web_marks.CHECKS),
                  *(check for _, check in web_tonight.CHECKS), *(check for _, check in web_tv.CHECKS),
                  *(check for _, check in web_members.CHECKS),
                  *(check for _, check in web_profiles.CHECKS), *(check for _, check in web_lists.CHECKS),
                  *(check for _, check in web_news.CHECKS)}


# MARK: the screenshot


SCREENSHOT_VIEWPORT = (1440, 900)


def screenshot(w, path):
    """alice's page with 20 movies (some added by bob, some by both) in a 1440×900 viewport, as a PNG."""
    w.up()
    mine = [ws.add_request(m, t, y) for i, (m, t, y) in enumerate(MOVIES) if i % 3 != 2]
    theirs = [ws.add_request(m, t, y) for i, (m, t, y) in enumerate(MOVIES) if i % 3 == 2 or i in (0, 4)]
    ws.control_batch(w.alice.socket, mine)
    ws.control_batch(w.bob.socket, theirs)
    harness.expect_eventually(lambda: {m for m, _, _ in MOVIES} <= w.alice.movie_ids(), 30,
                              "the 20 movies on alice's list")
    page = w.page("alice")
    width, height = SCREENSHOT_VIEWPORT
    page.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
    page.open(timeout=APPEAR)
    w.live("alice")
    harness.expect_eventually(lambda: len(page.card_ids()) >= len(MOVIES), APPEAR, "20 cards on alice's page")
    harness.expect_eventually(lambda: page.js("return !!document.querySelector(`ul#peers > li.peer`)"), APPEAR,
                              "bob in alice's peers")
    page.js("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0)")
    # The fonts loaded, and two frames drawn since: the layout the screenshot takes is the final one.
    page.driver.execute_async_script("const done = arguments[arguments.length - 1]; document.fonts.ready.then("
                                     "() => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))")
    path = pathlib.Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if not page.driver.save_screenshot(str(path)):
        raise CheckFailed(f"Chromium saved no screenshot to {path}")
    width, height = ws.png_size(path)
    return f"{path}: {width}×{height}, {len(page.card_ids())} cards, {path.stat().st_size // 1024} KiB"


# MARK: main


def dead(w):
    """Why the run can't go on: alice or bob died (the tail of its log)."""
    died = [d for d in (w.alice, w.bob) if d is not None and not d.alive()]
    if died:
        return f"{', '.join(d.name for d in died)} died; log:\n{harness.tail(died[0].log)}"
    return None


def run(suite, w, checks, screenshot_path):
    """The checks, or with `screenshot_path` the screenshot alone; an exit status when that is the end."""
    if screenshot_path or any(check in BROWSER_CHECKS for _, check in checks):
        try:
            w.start_browsers()
        except ws.Skip as skip:
            return suite.skip(skip)
        print(f"web: Chromium {w.browsers[0].version}, headless", flush=True)
    if screenshot_path:
        try:
            print(f"web: screenshot {screenshot(w, screenshot_path)}", flush=True)
            return 0
        except (CheckFailed, HarnessError) as failure:
            suite.fail("the screenshot", failure)
            return 1
    suite.run(checks, w, stop=lambda: dead(w))
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--keep", action="store_true", help="keep the work directory even when all pass")
    parser.add_argument("--only", nargs="*", help="run only checks whose title contains one of these")
    parser.add_argument("--screenshot", metavar="PATH", help="save alice's page with 20 movies as a PNG; no checks")
    args = parser.parse_args()
    exit_on_signals()
    suite = Suite("web")
    if not suite.need_peerd():
        return suite.finish()
    with suite.work_dir(args.keep) as work:
        w = World(work)
        try:
            status = run(suite, w, selected(CHECKS, args.only), args.screenshot)
        finally:
            w.stop()
    return suite.finish() if status is None else status


if __name__ == "__main__":
    sys.exit(main())
