"""The devices suite's world (test_devices.py): the guests' lab (../guests/guest_lab.py) with two
members and three more hosts: alice on h1 and bob on h2 run peerd (one group, static peers, avahi
off); phone1 (h3) and phone2 (h4) are phones, a headless Chromium each with mobile emulation (390×844,
touch) driven by phone_driver.py inside its namespace; h5 is a third address with no browser, for
plain HTTP only. Plus what the checks share: alice's `peerctl device ...`, a device link taken apart,
and the member's page as a linked phone sees it on alice's LAN address.
"""
import json
import pathlib
import re
import secrets
import string
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "guests"))
import guest_lab as gl  # noqa: E402  (puts integration/ and integration/lab/ on sys.path)
from harness import CheckFailed, TimedOut, eventually  # noqa: E402

WAIT = gl.WAIT
DEVICE_PORT = 7604  # the contract's default: alice runs without --device-port, so the link must name it
COOKIE = "peerd_device"
LINK = re.compile(r"^http://(?P<address>[0-9.]+):(?P<port>\d+)/link/(?P<code>[^/?#\s]+)$")
SHOWN = gl.SHOWN


def now_ms():
    """The wall clock in ms: the same clock as Date.now() in the phones' pages (one machine)."""
    return time.time() * 1000


# MARK: the world


class DeviceWorld(gl.World):
    """alice and bob with gl.MOVIES on both, two phones with their browsers, and `third`: a phone
    driver on h5 without a browser (plain HTTP from a third address)."""

    def __init__(self, lab):
        super().__init__(lab, members=2, phones=2)
        self.third_host = lab.hosts[4]
        self.third = None

    def up(self):
        super().up()
        self.third = gl.Phone(self.third_host, "third").start()

    def stop(self):
        super().stop()
        if self.third is not None:
            self.third.stop()

    def peer_id(self, host):
        return self.ids[host.name]


# MARK: peerctl device


class DeviceLink(gl.LANLink):
    """What `peerctl device link --json` printed: `{url, expiresAt, member, name}`, its URL taken apart."""

    def __init__(self, answer):
        self.answer = answer
        match = LINK.match(str(answer.get("url") or ""))
        if not match:
            raise CheckFailed(f"the device link {answer.get('url')!r} is not http://ADDRESS:PORT/link/CODE: {answer}")
        self.url, self.address, self.port, self.code = answer["url"], match["address"], int(match["port"]), match["code"]
        self.expires_at, self.member, self.name = answer.get("expiresAt"), answer.get("member"), answer.get("name")

    def forged(self):
        """A code of this one's length and alphabet (hex, or base64url), drawn at random."""
        hexadecimal = all(c in string.hexdigits for c in self.code)
        alphabet = string.hexdigits.lower()[:16] if hexadecimal else string.ascii_letters + string.digits + "-_"
        while True:
            code = "".join(secrets.choice(alphabet) for _ in self.code)
            if code != self.code:
                return code


def device_link(w, *args):
    """`peerctl device link ARGS --json` on alice: a DeviceLink."""
    r = w.alice_host.peerctl("device", "link", *args, "--json")
    said = f"{r.stdout}{r.stderr}".strip()
    if r.returncode != 0:
        raise CheckFailed(f"peerctl device link {' '.join(args)} --json on alice: exit {r.returncode}: {said[:400]}")
    try:
        return DeviceLink(json.loads(r.stdout))
    except ValueError:
        raise CheckFailed(f"peerctl device link --json on alice printed no JSON: {said[:400]}") from None


def devices(w):
    """`peerctl device list --json` on alice: its devices."""
    r = w.alice_host.peerctl("device", "list", "--json")
    if r.returncode != 0:
        raise CheckFailed(f"peerctl device list --json on alice: exit {r.returncode}: {(r.stdout + r.stderr)[:400]}")
    try:
        return json.loads(r.stdout)["devices"]
    except (ValueError, KeyError, TypeError):
        raise CheckFailed(f"peerctl device list --json on alice printed {r.stdout[:400]!r}") from None


def ids_of(listed):
    return sorted(d.get("id") for d in listed)


def unlink(w, which):
    """`peerctl device unlink WHICH` on alice; the wall-clock ms when it returned."""
    r = w.alice_host.peerctl("device", "unlink", which)
    returned = now_ms()
    if r.returncode != 0:
        raise CheckFailed(f"peerctl device unlink {which!r} on alice: exit {r.returncode}: {(r.stdout + r.stderr)[:300]}")
    return returned


def device_at(w, address):
    """The newest device `device list` shows at `address` (a phone linked again after a failed check
    has its old device there too), or None."""
    return max((d for d in devices(w) if d.get("address") == address), key=lambda d: d.get("linkedAt") or 0,
               default=None)


# MARK: marks and picks, as the daemons hold them


def marks_of(host, movie):
    """The marks of `movie` in `peerctl list --json` on `host`: one {name, peer, want, seen, ...} per member."""
    row = next((m for m in host.movies() if m.get("movieId") == movie), None)
    if row is None:
        raise CheckFailed(f"{movie} is not on {host.name}'s list")
    return row.get("marks") or []


def wait_mark(w, host, movie, kind, who, peer=None, not_peer=None):
    """Waits until `host` lists `movie` with `kind` set by the member named `who` (and with id `peer`),
    and nobody with id `not_peer` has it; returns that member's mark and the newest history entry of the
    movie's marks."""
    def probe():
        marks = marks_of(host, movie)
        mine = [m for m in marks if m.get(kind) and m.get("name") == who and (peer is None or m.get("peer") == peer)]
        if not mine or any(m.get(kind) and m.get("peer") == not_peer for m in marks):
            return None
        return mine[0]
    try:
        mark = eventually(probe, WAIT, f"{who}'s {kind} of {movie} on {host.name}", 0.1)
    except TimedOut as error:
        raise CheckFailed(f"{error}; {host.name}'s marks of {movie}: {marks_of(host, movie)}") from None
    entry = next((e for e in host.history_entries() if e.get("movieId") == movie and e.get("op") == "mark"), None)
    if entry is None or entry.get("by") != who or (peer and entry.get("peer") != peer):
        raise CheckFailed(f"{host.name}'s newest history entry of a mark of {movie} is {entry}, not {who}'s")
    return mark, entry


# MARK: a linked phone's page


# JS: one request from the page, with its cookies: {status, type, text, json, at (Date.now() at the answer)}.
FETCH = """
  const [path, body] = arguments;
  const init = {cache: 'no-store', referrerPolicy: 'same-origin'};
  if (body !== null) {
    init.method = 'POST'; init.body = JSON.stringify(body); init.headers = {'Content-Type': 'application/json'};
  }
  return fetch(path, init).then(async r => {
    const text = await r.text();
    let json = null;
    try { json = JSON.parse(text); } catch (e) { /* text */ }
    return {status: r.status, type: r.headers.get('Content-Type'), text: text.slice(0, 300), json, at: Date.now()};
  }, e => ({status: null, error: String(e), at: Date.now()}));"""
# JS: what the document in the tab is: its navigation's HTTP status, URL, content type and words.
DOCUMENT = """
  const n = performance.getEntriesByType('navigation')[0];
  return {status: n ? n.responseStatus : null, url: location.href, type: document.contentType,
          ready: document.body ? document.body.dataset.ready || null : null,
          text: document.body ? document.body.innerText.trim().replace(/\\s+/g, ' ').slice(0, 300) : ''};"""
# What the browser fetched for this document (a module that never came leaves the page's script
# unrun: "Connecting…" and no error), and whether the script ran (route() sets body[data-view]).
LOADED = """
  const shown = (e) => [new URL(e.name).pathname, e.responseStatus, Math.round(e.duration)];
  return {view: document.body ? document.body.dataset.view || null : null,
          live: document.getElementById('live-text')?.textContent || null,
          fetched: performance.getEntriesByType('resource').map(shown)};"""
CARDS = "return [...document.querySelectorAll('ol#movies > li.card[data-movie-id]')].map(c => Number(c.dataset.movieId))"
PICK_CARD = ("const c = document.querySelector('#pick-card article.pick-card');"
             "return c && !document.getElementById('pick-vote').hidden ? Number(c.dataset.movieId) : null")


class DevicePage:
    """A phone on the member's page at a device link's address."""

    def __init__(self, phone, link):
        self.phone, self.link = phone, link

    @property
    def label(self):
        return self.phone.label

    def open(self):
        """Opens the link in a blank tab: the phone lands on `/`, the page ready. (A page left from a
        check before, told it is unlinked, reloads itself; a reload that came while the link was
        opening took its place, and the link, used up, never set the cookie.)"""
        self.phone.get("about:blank")
        self.phone.get(self.link.url)
        self.wait_ready("after opening the link")
        return self

    def resume(self):
        """The page this phone shows, back on the list; loaded again only when it is not this link's
        ready page (each load costs some 25 of the device's requests, and the door limits them)."""
        here = self.phone.js("return [location.origin, document.body && document.body.dataset.ready]")
        if here != [self.link.origin, "true"]:
            self.phone.get(self.link.base)
        else:
            self.phone.js("location.hash = ''")
        self.wait_ready("back on the list")
        return self

    def wait_ready(self, when):
        try:
            self.phone.wait("return document.body && document.body.dataset.ready === 'true'",
                            f"the page ready (body[data-ready=true]) on {self.label} {when}")
        except CheckFailed as error:
            errors = [e.get("message", "")[:200] for e in self.phone.console_errors(failed_loads=True)][:8]
            raise CheckFailed(f"{error}\nthe document: {self.document()}\nits script and fetches: "
                              f"{self.phone.js(LOADED)}\nthe console's errors: {errors}") from None

    def document(self):
        return self.phone.js(DOCUMENT)

    def fetch(self, path, body=None):
        return self.phone.js(FETCH, path, body)

    def api(self, request):
        """A control request to the page's API, as the page sends it (with the phone's cookie)."""
        return self.fetch("/api/request", {**request, "version": 1})

    def cards(self):
        return self.phone.js(CARDS)

    def show(self, selector, what):
        self.phone.wait(f"return {SHOWN}(document.querySelector(arguments[0]))", what, selector)

    def tap(self, selector, what):
        """Waits for `selector` to show, taps it with a finger; raises unless the page saw a touch."""
        self.show(selector, what)
        pointer = self.phone.tap(selector)["pointer"]
        if pointer != "touch":
            raise CheckFailed(f"the tap on {selector} ({what}) reached {self.label}'s page as pointer {pointer!r}")

    def open_movie(self, movie, title):
        """Taps the movie's card (its poster) in the list; waits for its movie view."""
        self.tap(f"ol#movies > li.card[data-movie-id='{movie}'] .poster-box", f"the card of {movie}")
        self.phone.wait("const d = document.querySelector('dialog#movie');"
                        "return d && d.open && document.getElementById('movie-title')?.textContent === arguments[0]"
                        " && !!document.getElementById('mark-want')",
                        f"the movie view of {title} with its marks on {self.label}", title)

    def mark(self, kind):
        """Taps the movie view's mark button `kind`; waits for it to be pressed."""
        self.tap(f"#mark-{kind}", f"the {kind} button")
        self.phone.wait("return document.getElementById(arguments[0])?.getAttribute('aria-pressed') === 'true'",
                        f"#mark-{kind} pressed on {self.label}", f"mark-{kind}")

    def close_movie(self):
        self.tap("#movie-close", "the movie view's Close")
        self.phone.wait("return !document.querySelector('dialog#movie').open", f"the movie view closed on {self.label}")

    def pick_card(self, movie):
        """Waits for Tonight's card to be `movie` (None: no card)."""
        return self.phone.wait(f"const m = (() => {{ {PICK_CARD} }})(); return m === arguments[0] ? {{card: m}} : null",
                               f"Tonight's card {movie} on {self.label}", movie)


def http(phone, link, method, path, cookie=None, origin=False, body=None):
    """One plain HTTP request from `phone`'s namespace to the link's address, with its Host header (and
    Origin, a cookie, a JSON body, if asked): {status, headers, body} or {status: None, error}."""
    headers = {"Host": link.host_header}
    if cookie:
        headers["Cookie"] = f"{COOKIE}={cookie}"
    if origin:
        headers["Origin"] = link.origin
    if body is not None:
        headers["Content-Type"] = "application/json"
    return phone.http(link.address, link.port, method, path, headers=headers, body=body)


def said(answer):
    if answer.get("status") is None:
        return answer.get("error") or "no answer"
    return f"{answer['status']} {answer.get('body', answer.get('text', ''))[:160]!r}"


def set_cookie(answer):
    """The Set-Cookie header of a plain HTTP answer naming the device cookie, or None."""
    value = (answer.get("headers") or {}).get("set-cookie") or ""
    return value if COOKIE in value else None


def device_cookie(phone):
    """The device cookie in `phone`'s browser (Selenium's get_cookies), or None."""
    return next((c for c in phone.cookies() if c.get("name") == COOKIE), None)


def ensure_linked(w, phone, name, *args):
    """A DevicePage of `phone` linked to alice's machine (a new link named `name` with `args` when
    `device list` has no device at the phone's address): (page, device)."""
    device = device_at(w, phone.host.ip)
    link = getattr(phone, "device_link", None)
    if device is None or link is None:
        link = device_link(w, "--name", name, *args)
        page = DevicePage(phone, link).open()
        phone.device_link = link
        device = device_at(w, phone.host.ip)
        if device is None:
            raise CheckFailed(f"{phone.label} opened {link.url} and landed on the page, but device list shows no "
                              f"device at {phone.host.ip}: {devices(w)}")
        return page, device
    return DevicePage(phone, link).resume(), device


def gone_door(w, from_phone):
    """Why the device door is not shut on alice (something listens on DEVICE_PORT), or None."""
    listening = w.alice_host.run(["ss", "-Hltn", f"( sport = :{DEVICE_PORT} )"]).stdout.strip()
    reached = from_phone.connect(w.alice_host.ip, DEVICE_PORT)
    if listening or reached != "refused":
        return f"a connect from {from_phone.label} to {w.alice_host.ip}:{DEVICE_PORT}: {reached}; ss on alice: " \
               f"{listening or 'nothing listening'}"
    return None

