"""The guests suite's world (test_guests.py): one lab LAN of five hosts on a bridge, three of them
running peerd (alice on h1, bob on h2, carol on h3, members of one group), two of them phones (h4, h5:
no peerd, a headless Chromium each with mobile emulation, driven through phone_driver.py running
inside the phone's namespace). Plus the helpers the checks share: the guest page as a phone sees it,
and plain HTTP from a phone's namespace.

avahi is off in this lab (Lab(avahi=False)): the daemons find each other by static `--peer`
addresses and `--no-mdns`, which is faster and all these checks need.
"""
import json
import os
import pathlib
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent / "lab"))
import harness  # noqa: E402
from harness import CheckFailed, HarnessError, TimedOut, eventually, stop_process, tail  # noqa: E402

WAIT = float(os.environ.get("PEERD_GUESTS_WAIT", "20"))  # s: any one bounded wait
NAMES = {"h1": "alice", "h2": "bob", "h3": "carol"}
PHONE_SIZE = (390, 844)
GUEST_PORT = 7603  # the contract's default: alice runs without --guest-port, so the link must name it
WEB_PORT = 7602  # the member page's default port (loopback only)
LINK = re.compile(r"^http://(?P<address>[0-9.]+):(?P<port>\d+)/g/(?P<cap>[A-Za-z0-9_-]{22})/$")
MOVIES = {  # id: (title, year): the list, and so every pick's deck (nobody marks anything)
    603: ("The Matrix", 1999),
    550: ("Fight Club", 1999),
    13: ("Forrest Gump", 1994),
    680: ("Pulp Fiction", 1994),
}

# JS: is the element shown (not display:none, itself or above, nor [hidden])?
SHOWN = "(e => !!e && !e.closest('[hidden]') && e.getClientRects().length > 0)"
CARD = f"(() => {{ const c = document.querySelector('article#card[data-movie-id]'); " \
       f"return {SHOWN}(c) ? Number(c.dataset.movieId) : null; }})()"
PAGE_STATE = f"""
  const q = s => document.querySelector(s), shown = {SHOWN};
  const r = q('p#result'), e = q('p#error');
  return {{url: location.href.replace(/\\/g\\/[^/]+/, '/g/…'), guest: document.body && document.body.dataset.guest,
    card: {CARD}, join: shown(q('form#join')), result: r ? (r.dataset.movieId || null) : 'absent',
    resultText: r ? r.textContent.trim().slice(0, 80) : null, closed: shown(q('section#closed')),
    error: shown(e) ? e.textContent.trim().slice(0, 120) : null,
    voters: [...document.querySelectorAll('ul#voters > li.voter')].map(li => li.textContent.trim().slice(0, 40) +
      ' [' + li.dataset.voted + ']')}};"""
# JS: the guest's own view of the pick, `GET state` with the token the page keeps in localStorage
# (found by its shape, ID.NAME.MAC): {token, status, body}.
OWN_STATE = r"""
  return (async () => {
    const shape = /^[0-9a-f]{16}\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]{22}$/;
    const find = (v, depth) => {
      if (typeof v === 'string') {
        if (shape.test(v)) return v;
        if (depth > 0) { try { return find(JSON.parse(v), depth - 1); } catch (e) { return null; } }
        return null;
      }
      if (v && typeof v === 'object' && depth > 0)
        for (const x of Object.values(v)) { const t = find(x, depth - 1); if (t) return t; }
      return null;
    };
    const tokens = [...new Set(Object.keys(localStorage).map(k => find(localStorage.getItem(k), 3)).filter(Boolean))];
    if (!tokens.length) return {token: null, keys: Object.keys(localStorage)};
    let last = null;
    for (const token of tokens) {  // one per pick this origin saw: the one this pick knows answers `you`
      try {
        const r = await fetch('state', {headers: {Authorization: 'Guest ' + token}, cache: 'no-store'});
        const text = await r.text();
        let body = text;
        try { body = JSON.parse(text); } catch (e) { /* kept as text */ }
        last = {token, status: r.status, body, tokens: tokens.length};
        if (r.status === 200 && body && body.you) return last;
      } catch (e) { last = {token, error: String(e), tokens: tokens.length}; }
    }
    return last;
  })();"""


# MARK: a phone


class Phone:
    """phone_driver.py inside `host`'s namespaces, asked one JSON line at a time."""

    def __init__(self, host, label):
        self.host, self.label = host, label
        self.proc = None
        self.replies = queue.Queue()
        self.version = None

    def start(self):
        argv = self.host._enter([sys.executable, "-u", HERE / "phone_driver.py", "--dir", self.host.dir,
                                 "--name", self.label])
        log = open(self.host.dir / f"phone-{self.label}.log", "ab")
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log,
                                     env=self.host.env, start_new_session=True,
                                     preexec_fn=harness._die_with_parent)
        log.close()
        self.host.extras.append(self.proc)  # stopped (SIGTERM, by pid) when the lab closes
        threading.Thread(target=self._read, daemon=True).start()
        self._reply("the phone driver's first line", 20)
        return self

    def _read(self):
        for line in self.proc.stdout:
            try:
                self.replies.put(json.loads(line))
            except ValueError:
                self.replies.put({"ok": False, "error": f"not JSON: {line[:200]!r}"})
        self.replies.put(None)

    def _reply(self, what, timeout):
        try:
            reply = self.replies.get(timeout=timeout)
        except queue.Empty:
            raise HarnessError(f"{self.label}: no answer to {what} within {timeout:g} s") from None
        if reply is None:
            raise HarnessError(f"{self.label}: the phone driver exited ({self.proc.poll()}):\n"
                               f"{tail(self.host.dir / f'phone-{self.label}.log', 15)}")
        return reply

    def ask(self, op, answer_within=60, **fields):
        """One request; its answer (a dict). An answer with ok false raises HarnessError."""
        reply = self.ask_raw(op, answer_within, **fields)
        if not reply.get("ok"):
            raise HarnessError(f"{self.label}: {op} failed: {reply.get('error')}")
        return reply

    def ask_raw(self, op, answer_within=60, **fields):
        if self.proc is None or self.proc.poll() is not None:
            raise HarnessError(f"{self.label}: the phone driver is not running")
        self.proc.stdin.write((json.dumps({"op": op, **fields}) + "\n").encode())
        self.proc.stdin.flush()
        return self._reply(op, answer_within)

    # The browser.

    def start_browser(self, reach=(), size=PHONE_SIZE, mobile=True):
        answer = self.ask("start", 90, width=size[0], height=size[1], touch=mobile, reach=list(reach), mobile=mobile)
        self.version = answer["version"]
        return answer

    def js(self, script, *args):
        return self.ask("js", script=script, args=list(args))["value"]

    def state(self):
        try:
            return self.js(PAGE_STATE)
        except HarnessError as error:
            return f"(page state unreadable: {error})"

    def wait(self, script, what, *args, timeout=WAIT):
        """Polls `script` (a JS function body that returns) in the page until truthy; its value.
        Raises CheckFailed naming `what` and what the page shows."""
        reply = self.ask_raw("wait", timeout + 30, script=script, args=list(args), timeout=timeout)
        if not reply.get("ok"):
            raise CheckFailed(f"{what}: {reply.get('error')} on {self.label}; the page: {self.state()}")
        return reply["value"]

    def get(self, url):
        return self.ask("get", url=url)

    def keys(self, *keys):
        return self.ask("keys", keys=list(keys))["active"]

    def cookies(self):
        """The browser's cookies for the page it shows (Selenium's get_cookies: HttpOnly ones too)."""
        return self.ask("cookies")["cookies"]

    def tap(self, selector):
        return self.ask("tap", selector=selector)

    def swipe(self, selector, dx):
        return self.ask("swipe", selector=selector, dx=dx)

    def screenshot(self, selector=None):
        import base64
        return base64.b64decode(self.ask("screenshot", selector=selector)["png"])

    def console_errors(self, failed_loads=False):
        """Script errors and CSP violations; with `failed_loads`, also the resources that did not
        load (else left out: answers the checks expect, a 410 once closed, a 404)."""
        entries = self.ask("console")["entries"]
        return [e for e in entries if e.get("level") == "SEVERE" and "image.tmdb.org" not in e.get("message", "")
                and (failed_loads or "Failed to load resource" not in e.get("message", ""))]

    # The network, from the phone's namespace.

    def http(self, address, port, method, path, headers=None, body=None, timeout=10.0):
        return self.ask("http", timeout + 10, host=address, port=port, method=method, path=path,
                        headers=headers or {}, body=body, timeout=timeout)

    def connect(self, address, port):
        return self.ask("connect", 20, host=address, port=port)["result"]

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            try:
                self.ask_raw("quit", 15)
            except (HarnessError, OSError):
                pass
            stop_process(self.proc, signal.SIGTERM, 5)


# MARK: the guest page, as a phone sees it


class GuestPage:
    """A phone on one pick's guest page. It knows the pick's deck and the votes this guest made, so
    after each vote it waits for exactly the card the contract says comes next: the first of the deck
    this guest has not voted on (None once they voted on all)."""

    def __init__(self, phone, link, deck):
        self.phone, self.link, self.deck = phone, link, list(deck)
        self.votes = {}  # movieId -> yes, as this guest cast them here

    def open(self):
        self.phone.get(self.link.url)
        self.wait_ready()
        return self

    def wait_ready(self):
        self.phone.wait("return document.body && document.body.dataset.guest === 'ready'",
                        f"body[data-guest=ready] on {self.phone.label}'s guest page")

    @property
    def expected(self):
        return next((m for m in self.deck if m not in self.votes), None)

    def card(self):
        return self.phone.js(f"return {CARD}")

    def wait_card(self, what):
        """Waits until the card on screen is `expected` (no card, when that is None); returns it."""
        want = self.expected
        self.phone.wait(f"return {CARD} === arguments[0] ? {{card: arguments[0]}} : null",
                        f"{what}: card {want if want is not None else 'none (all voted)'}", want)
        return want

    def join_by_touch(self, name):
        """Taps the name field, types `name`, taps the Join button; returns the first card."""
        self.phone.wait(f"return {SHOWN}(document.querySelector('form#join input#guest-name'))",
                        "the name field of form#join")
        self.phone.tap("input#guest-name")
        self.phone.js("document.querySelector('input#guest-name').focus()")  # a tap focuses; be sure
        self.phone.keys(f"text:{name}")
        self.phone.tap("form#join button[type=submit], form#join button:not([type])")
        return self.wait_card(f"the first card after {name} joined by touch")

    def join_by_keyboard(self, name, limit=12):
        """Tab until input#guest-name has the focus (no press if the page put it there), type `name`,
        Enter; returns (presses, first card)."""
        self.phone.wait(f"return {SHOWN}(document.querySelector('form#join input#guest-name'))",
                        "the name field of form#join")
        presses = 0
        active = self.phone.js("const e = document.activeElement; return e && e.id ? e.tagName.toLowerCase() + "
                               "'#' + e.id : null")
        while active != "input#guest-name":
            if presses == limit:
                raise CheckFailed(f"{limit} presses of Tab never reached input#guest-name on {self.phone.label}")
            active = self.phone.keys("TAB")
            presses += 1
        self.phone.keys(f"text:{name}", "ENTER")
        return presses, self.wait_card(f"the first card after {name} joined by keyboard")

    def vote(self, yes, how):
        """One vote on the card on screen, by `how` (tap, swipe, key); waits for the next card.
        Returns (the card voted on, the next one or None, what the page saw: the pointer type, or
        the element with the focus)."""
        card = self.card()
        if card is None or card != self.expected:
            raise CheckFailed(f"{self.phone.label} shows card {card}, expected {self.expected}: {self.phone.state()}")
        if how == "tap":
            seen = self.phone.tap("button#yes" if yes else "button#no")["pointer"]
        elif how == "swipe":
            seen = self.phone.swipe("article#card", 160 if yes else -160)["pointer"]
        elif how == "key":
            seen = self.phone.keys("ARROW_RIGHT" if yes else "ARROW_LEFT")
        else:
            raise ValueError(how)
        self.votes[card] = yes
        after = self.wait_card(f"the next card after {'yes' if yes else 'no'} by {how} on {card}")
        return card, after, seen

    def own_state(self):
        """GET state with the page's own token from localStorage: {token, status, body}."""
        return self.phone.js(OWN_STATE)

    def wait_result(self, movie):
        return self.phone.wait(
            "const r = document.querySelector('p#result[data-movie-id]');"
            "return r && r.dataset.movieId === arguments[0] ? r.textContent.trim() || '(empty)' : null",
            f"p#result[data-movie-id={movie}] on {self.phone.label}'s page", str(movie))

    def wait_closed(self):
        return self.phone.wait(f"return {SHOWN}(document.querySelector('section#closed')) && "
                               "document.querySelector('section#closed').textContent.trim().slice(0, 80)",
                               f"section#closed on {self.phone.label}'s page")


class LANLink:
    """A link to a door on a machine's LAN address: `address` and `port`, and what a request to it names."""

    address, port = None, None

    @property
    def host_header(self):
        return f"{self.address}:{self.port}"

    @property
    def origin(self):
        return f"http://{self.address}:{self.port}"

    @property
    def base(self):
        return f"{self.origin}/"


class Link(LANLink):
    """A guest link, `http://ADDRESS:PORT/g/CAP/`, taken apart."""

    def __init__(self, url):
        match = LINK.match(url or "")
        if not match:
            raise CheckFailed(f"the guest link {url!r} is not http://ADDRESS:PORT/g/<22 characters>/")
        self.url, self.address, self.port, self.cap = url, match["address"], int(match["port"]), match["cap"]

    def path(self, rest=""):
        return f"/g/{self.cap}/{rest}"


# MARK: the world


class World:
    """The lab, its daemons (the first `members` hosts: alice, bob and carol by default) and its
    phones (the `phones` hosts after them); `alice_browser` is started by the QR check."""

    def __init__(self, lab, members=3, phones=2):
        self.lab = lab
        self.members = lab.hosts[:members]
        self.alice_host, self.bob_host = self.members[:2]
        self.carol_host = self.members[2] if members > 2 else None
        self.phone_hosts = lab.hosts[members:members + phones]
        self.phones = []
        self.alice_browser = None
        self.ids = {}
        self.notes = []

    @property
    def names(self):
        return ", ".join(NAMES[h.name] for h in self.members)

    def member_args(self, host):
        """Static peers: alice dials everyone, the others dial bob (as daemon_trio does)."""
        dials = [o for o in self.members if o is not host and (host is self.alice_host or o is self.bob_host)]
        peers = [a for d in dials for a in ("--peer", f"{d.ip}:7601")]
        return ["--no-mdns", *peers]

    def start_member(self, host):
        host.start_peerd(NAMES[host.name], extra_args=self.member_args(host))
        self.ids[host.name] = host.status()["peer"]

    def connected_ids(self, host):
        return {p.get("peer") for p in host.peers() if p.get("state") == "connected"}

    def wait_connected(self, timeout=WAIT * 2):
        def all_connected():
            return all({self.ids[o.name] for o in self.members if o is not h} <= self.connected_ids(h)
                       for h in self.members)
        try:
            eventually(all_connected, timeout, f"{self.names} connected", 0.1)
        except TimedOut as error:
            rows = []
            for h in self.members:
                try:
                    rows.append(f"{h.name}: {[(p.get('name'), p.get('state'), p.get('lastError')) for p in h.peers()]}")
                except HarnessError as e:
                    rows.append(f"{h.name}: {e}")
            raise HarnessError(f"{error}\n" + "\n".join(rows)) from None

    def up(self):
        """The daemons (alice last, so her dials find the others listening), connected, with the
        movies on every one; the phones' drivers and browsers, started side by side."""
        for i, phone_host in enumerate(self.phone_hosts, 1):
            self.phones.append(Phone(phone_host, f"phone{i}").start())
        starting = []
        for phone in self.phones:  # Chromium starts while the daemons do
            t = threading.Thread(target=self._start_browser, args=(phone,), daemon=True)
            t.start()
            starting.append(t)
        for host in [*self.members[1:], self.alice_host]:
            self.start_member(host)
        self.wait_connected()
        for movie, (title, year) in MOVIES.items():
            r = self.alice_host.peerctl("add", movie, "--title", title, "--year", year)
            if r.returncode != 0:
                raise HarnessError(f"peerctl add {movie} on alice: {r.stderr.strip()}")
        eventually(lambda: all(set(MOVIES) <= h.movie_ids() for h in self.members), WAIT,
                   f"the {len(MOVIES)} movies on {self.names}")
        for t in starting:
            t.join(120)
        for phone in self.phones:
            if phone.version is None:
                raise HarnessError(f"{phone.label}'s Chromium did not start: {getattr(phone, 'start_error', '?')}")

    def _start_browser(self, phone):
        try:
            phone.start_browser(reach=[self.alice_host.ip])
        except Exception as error:  # reported by up()
            phone.start_error = error

    @property
    def alice_pid(self):
        return self.alice_host.peerd.pid if self.alice_host.peerd_running() else None

    def dead(self):
        died = [h for h in self.members if not h.peerd_running()]
        if died:
            h = died[0]
            return f"{NAMES[h.name]}'s peerd died\n{tail(h.dir / 'peerd.log', 30)}"
        return None

    def stop(self):
        for phone in [*self.phones, *([self.alice_browser] if self.alice_browser else [])]:
            phone.stop()


# MARK: a suite's main


def run_world(suite, world, checks, hello):
    """Brings `world` up, prints `hello(world, seconds)`, then runs `checks` on it in order: `(title,
    check)` or `(title, check, unless)`, where `unless(world)` may say why the check is skipped here.
    After a failed check, the tails of the daemons' logs. A daemon that died ends the run. The world
    is stopped at the end, whatever happened."""
    try:
        t0 = time.monotonic()
        try:
            world.up()
        except HarnessError as error:
            suite.fail("starting the daemons and the phones", error)
            return
        print(hello(world, since(t0)), flush=True)
        global notes
        for title, check, *unless in checks:
            why = unless[0](world) if unless else None
            if why:
                suite.skip_check(title, why)
                continue
            notes = []
            if not suite.check(title, check, world, notes=notes):
                world.lab.print_logs([h.name for h in world.members], {"peerd.log": 12})
            reason = world.dead()
            if reason:
                what, _, detail = reason.partition("\n")
                suite.fail(what, detail)
                return
    finally:
        world.stop()


def main(name, doc, checks, make_world, hello, hosts, layout, **tools):
    """The command line of a lab suite of phones (`--keep-logs`, `--only WORDS`): skipped (77) when the
    machine can't host the lab or lacks the browser's tools (and the binaries `tools` names, as
    missing_tools takes them); else `checks` on `make_world(lab)`, a lab of `hosts` hosts without avahi
    that its banner describes as `layout`."""
    import argparse
    import lab as labkit
    from suite import Suite, selected
    parser = argparse.ArgumentParser(description=doc.split("\n")[0])
    parser.add_argument("--keep-logs", action="store_true", help="keep the lab's logs even when all pass")
    parser.add_argument("--only", nargs="*", help="run only checks whose title contains one of these words")
    args = parser.parse_args()
    suite = Suite(name)
    reason = labkit.preflight() or missing_tools(**tools)
    if reason:
        return suite.skip(reason)
    if not suite.need_peerd():
        return suite.finish()
    chosen = selected(checks, args.only)

    def banner(lab):
        return f"{name} {lab.prefix}: {layout}; logs in {lab.run_dir}"
    options = {"hosts": hosts, "avahi": False, "ipv6": False, "keep_logs": args.keep_logs or None}
    return labkit.run_suite(suite, options, banner, lambda lab: run_world(suite, make_world(lab), chosen, hello))


# MARK: picks through peerctl

# Lines the running check prints under its verdict (test_guests.py hands each check a fresh list):
# what the suite had to work around to go on, such as a peerctl that could not read an answer.
notes = []


def note(line):
    if line not in notes:
        notes.append(line)


def control(host, request, timeout=20):
    """One request on `host`'s control socket (CONTROL.md: 4-byte big-endian length, then JSON), as
    peerctl sends it; the answer, parsed. The socket is a file in the lab's run directory."""
    import socket
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(timeout)
        s.connect(str(host.socket))
        s.sendall(harness.frame(json.dumps(request).encode()))
        buffer = b""
        while True:
            body, buffer = harness.split_frame(buffer)
            if body is not None:
                return json.loads(body)
            chunk = s.recv(1 << 16)
            if not chunk:
                raise HarnessError(f"{host.name}'s control socket closed before answering {request}")
            buffer += chunk


UNREADABLE = "malformed-frame"


def peerctl_pick(host, *args):
    """`peerctl pick ARGS --json` on `host`: (exit status, the pickState or None, what it said)."""
    r = host.peerctl("pick", *args, "--json")
    if r.returncode == 0:
        return 0, json.loads(r.stdout), ""
    return r.returncode, None, (r.stdout + r.stderr).strip()


def status(host):
    """`peerctl pick --status --json` on `host`. When peerctl can't read the answer (see
    check_peerctl_reads: a long QR svg), the same request on the control socket, with a note."""
    code, state, said = peerctl_pick(host, "--status")
    if code == 0:
        return state
    if UNREADABLE in said:
        note(f"peerctl pick --status --json on {NAMES.get(host.name, host.name)} exited {code} ({said[:160]}); "
             f"read over the control socket instead")
        answer = control(host, {"type": "pickStatus", "version": 1})
        if answer.get("type") == "pickState":
            return answer
    raise HarnessError(f"peerctl pick --status --json on {host.name}: exit {code}: {said}")


def close_open_picks(world):
    """No pick left open by an earlier check (a later one's status would show the newest open one)."""
    for _ in range(10):
        if control(world.alice_host, {"type": "pickClose", "version": 1}).get("type") != "pickState":
            return


def open_pick(world, mode):
    """alice opens a pick (`peerctl pick --mode MODE --with bob,carol --json`); returns (its record, its
    Link) and waits until bob and carol hold it. The link comes from the opening's answer; if that
    has none (see check_opening_link) or peerctl could not read it, from pick --status, with a note."""
    close_open_picks(world)
    code, record, said = peerctl_pick(world.alice_host, "--mode", mode, "--with", "bob,carol")
    if code != 0 and UNREADABLE not in said:
        raise CheckFailed(f"peerctl pick --mode {mode} --with bob,carol on alice: exit {code}: {said}")
    if code != 0:
        note(f"peerctl pick --mode {mode} --json on alice exited {code} ({said[:160]}); the pick was opened: "
             f"its state read over the control socket")
        record = control(world.alice_host, {"type": "pickStatus", "version": 1})
    guests = record.get("guests")
    if not isinstance(guests, dict) or "url" not in guests:
        note(f"the answer opening the {mode} pick had guests = {json.dumps(guests)[:200]}; the link taken from "
             f"pick --status once it had one")
        def linked():
            st = status(world.alice_host)
            return st if st["pick"] == record["pick"] and "url" in (st.get("guests") or {}) else None
        try:
            record = eventually(linked, WAIT, "alice's pick --status with a guest link")
        except TimedOut:
            raise CheckFailed(f"alice's pickState has no guest link: guests = "
                              f"{json.dumps(status(world.alice_host).get('guests'))[:300]}") from None
    link = Link(record["guests"]["url"])
    pick = record["pick"]
    for host in (world.bob_host, world.carol_host):
        eventually(lambda: status(host)["pick"] == pick, WAIT, f"{host.name} holding alice's {mode} pick")
    return record, link


def voters_by_name(state):
    return {v["name"]: v for v in state.get("voters", [])}


def voter(state, name, ids):
    """The voter `name` of a pickState: a member (alice, bob, carol) by their peer id in `ids`, whatever
    name the status shows; a guest by name."""
    peer = ids.get(name)
    for v in state.get("voters", []):
        if (peer and v.get("peer") == peer) or (not peer and v.get("guest") and v.get("name") == name):
            return v
    return None


def wait_voted(world, hosts, expected, what):
    """Waits until every host's status shows each voter named in `expected` with that many votes;
    returns the statuses by host name."""
    ids = {NAMES[h]: i for h, i in world.ids.items()}
    last = {}

    def probe():
        states = {}
        for h in hosts:
            st = status(h)
            last[h.name] = st
            for name, want in expected.items():
                v = voter(st, name, ids)
                if v is None or v.get("voted") != want:
                    return None
            states[h.name] = st
        return states

    try:
        return eventually(probe, WAIT, what, 0.1)
    except TimedOut as error:
        seen = "\n".join(f"{n}: " + ", ".join(f"{v['name']}{'(guest)' if v.get('guest') else ''}={v.get('voted')}"
                                               for v in st.get("voters", [])) for n, st in last.items())
        raise CheckFailed(f"{error}\nexpected {expected}; voters now:\n{seen}") from None


def member_votes(host, votes):
    """`peerctl vote yes|no MOVIE` on `host` for each (movie, yes) of `votes`."""
    for movie, yes in votes:
        r = host.peerctl("vote", "yes" if yes else "no", movie)
        if r.returncode != 0 and UNREADABLE in r.stderr + r.stdout:
            # The vote is made before the answer (CONTROL.md); only its pickState was unreadable.
            said = (r.stderr + r.stdout).strip()[:160]
            note(f"peerctl vote on {NAMES.get(host.name, host.name)} exited {r.returncode} ({said}); the vote "
                 f"counted all the same (the checks wait for it in pick --status)")
        elif r.returncode != 0:
            raise CheckFailed(f"peerctl vote {'yes' if yes else 'no'} {movie} on {host.name}: "
                              f"{r.stdout}{r.stderr}".strip())


def rss_kb(pid):
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise HarnessError(f"no VmRSS for pid {pid}")


def fd_count(pid):
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return None


def missing_tools(**more):
    """Why a lab of phones can't run here, or None: Selenium, Chromium, chromedriver and ss, and the
    binaries `more` names (binary=its Debian package)."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "Selenium is not installed (python3 -m pip install selenium; make test-deps does)"
    tools = {"chromium": "chromium", "chromedriver": "chromium-driver", **more, "ss": "iproute2"}
    missing = [pkg for binary, pkg in tools.items() if not shutil.which(binary)]
    if missing:
        return f"needs {', '.join(missing)} (apt-get install {' '.join(missing)})"
    return None


def zbar(png_path):
    """What `zbarimg --raw -q` reads in the PNG (stripped), or None."""
    r = subprocess.run(["zbarimg", "--raw", "-q", str(png_path)], capture_output=True, text=True, timeout=30)
    return r.stdout.strip() if r.returncode == 0 else None


def wait(probe, what, timeout=WAIT, interval=0.1):
    return harness.expect_eventually(probe, timeout, what, interval)


def since(t0):
    return time.monotonic() - t0
