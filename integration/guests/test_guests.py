#!/usr/bin/env python3
"""Guests of a pick, end to end on a real LAN (proto/WEB.md, "Guests"; `make test`): three real peerd
on hosts in network namespaces on one bridge, and two phones, more hosts on that bridge with no
peerd, each a headless Chromium with mobile emulation (390×844, touch on) running INSIDE its own
namespace. alice (h1) opens the picks; her guest door listens on her namespace's LAN address (found
by peerd itself: no --guest-address, no --guest-port), and the phones reach it only from theirs.

    sudo PEERD_BIN_DIR=/path/to/bins python3 integration/guests/test_guests.py [--keep-logs] [--only WORDS ...]

The lab (integration/lab/lab.py): h1 alice, h2 bob, h3 carol (peerd, one group secret, static --peer
addresses and --no-mdns: avahi is off in this lab), h4 phone1 and h5 phone2 (phone_driver.py: Selenium
and Chromium; plain HTTP probes and the flood also run in a phone's namespace). The checks:

  0. the lab: both phones load a page a plain `python3 -m http.server` serves on alice's LAN address,
     at 390 px with touch: the harness itself works
  1. majority: Sam (phone1) joins by touch and votes by taps and a swipe, Zoë (phone2) joins and votes
     by keyboard alone, the members by peerctl; alice closes; the same result on the three daemons and
     both phones (p#result, live); each guest a voter (guest: true) on every daemon
  2. unanimous: ends with the same movie everywhere once everyone said yes to it, with no close
  3. restart: alice stopped (SIGTERM) and started again mid-pick: the guest votes still count on all
     three, the link is the same, a phone reloads and votes on with its token from localStorage
  4. refused everywhere else: 404 for every path but the routes, 421 for a wrong Host, 403 for a POST
     without this Origin, 308 to the slash, 405 with Allow, the member page's port closed on the LAN;
     after the close 410 (JSON `closed` with `result` from the API) and section#closed on the phone
  5. QR: alice's member page (Chromium in her namespace, on loopback) shows figure#guest-qr; zbarimg
     reads the guest URL from its screenshot, exactly (and from pickState's svg); a guest's vote shows on
     that Tonight view from the `pick` event's state, with no `pickStatus` asked
  6. flood: 1,000 connections from a phone (half with bad capabilities, half idle): alice's RSS grows
     ≤ 10 MB, and members are served meanwhile
  7. opening: with alice's door shut (restarted, no pick open), the answer that opens a pick carries the
     link, not a problem
  8. peerctl: `pick --status` reads alice's pickState whatever the length of its QR svg
  9. lists: a pick alice opens on a list of hers and bob's ("movienight"): a phone joins by its link and
     votes; the votes count on that list on alice and bob, the group's list has no pick, the close
     reaches the phone

Where peerctl can't read an answer (8) or the opening's answer lacks the link (7), checks 1-6 say so in
a note under their verdict and read the same request's answer over the control socket, so that they
still judge the guest door itself.

Every wait is on a condition (harness.eventually, or polling the page), bounded by $PEERD_GUESTS_WAIT
seconds (default 20). Prints one PASS/FAIL line per check and ends with `guests: N passed, M failed`.
Exit status 0 all passed, 1 something failed (the lab's logs are kept), 77 with one line
`guests skipped: why` when the machine can't run it (not root, no ip netns, no Chromium, chromedriver,
Selenium or zbarimg).
"""
import json
import pathlib
import signal
import subprocess
import sys
import threading
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import guest_lab as gl  # noqa: E402  (puts integration/ and integration/lab/ on sys.path)
from guest_lab import (MOVIES, NAMES, WAIT, GuestPage, Link, close_open_picks, member_votes,  # noqa: E402
                       open_pick, status, voters_by_name, wait, wait_voted)
from harness import CheckFailed, HarnessError, TimedOut, eventually, stop_process  # noqa: E402

RSS_BOUND_KB = 10 * 1024
FLOOD = 1000


def members_through_deck(w, deck, winner, last="alice"):
    """alice, bob and carol say yes to `winner` and no to the rest of `deck`; `last` votes last."""
    order = [h for h in (w.bob_host, w.carol_host, w.alice_host) if gl.NAMES[h.name] != last]
    order.append(next(h for h in w.members if gl.NAMES[h.name] == last))
    for host in order:
        member_votes(host, [(m, m == winner) for m in deck])


def close_pick(w):
    """`peerctl pick --close --json` on alice; the pickState after it."""
    code, state, said = gl.peerctl_pick(w.alice_host, "--close")
    if code == 0:
        return state
    if gl.UNREADABLE in said:
        gl.note(f"peerctl pick --close --json on alice exited {code} ({said[:160]}); the close read back over "
                f"the control socket")
        state = gl.control(w.alice_host, {"type": "pickStatus", "version": 1})
        if state.get("open") is False:
            return state
    raise CheckFailed(f"peerctl pick --close on alice: exit {code}: {said}")


def expect_guest_voters(states, names):
    """Each status lists each of `names` as a voter with guest: true (and no member's peer id)."""
    for host, st in states.items():
        voters = voters_by_name(st)
        for name in names:
            v = voters.get(name)
            if v is None or v.get("guest") is not True or v.get("peer"):
                raise CheckFailed(f"{host}'s status: {name} is not a guest voter: {v}; voters {st.get('voters')}")


def own_votes(page):
    """The guest's own votes, as `GET state` with the page's token answers them: {movieId: yes}."""
    own = page.own_state()
    if not own.get("token"):
        raise CheckFailed(f"{page.phone.label}: no guest token in localStorage (keys: {own.get('keys')})")
    if own.get("status") != 200 or not isinstance(own.get("body"), dict):
        raise CheckFailed(f"{page.phone.label}: GET state with the page's token: {own}")
    you = own["body"].get("you") or {}
    return {int(k): v for k, v in (you.get("votes") or {}).items()}, own


def wait_results(w, hosts, what, want=None):
    """Every host's status has a result (outcome chosen), the same movie everywhere (`want` if given);
    returns (movie, statuses)."""
    last = {}

    def probe():
        states = {h.name: status(h) for h in hosts}
        last.update(states)
        ids = {(st.get("result") or {}).get("movieId") for st in states.values()}
        if any(st.get("outcome") != "chosen" for st in states.values()) or len(ids) != 1:
            return None
        return states

    try:
        states = eventually(probe, WAIT, what, 0.1)
    except TimedOut as error:
        seen = {n: (st.get("open"), st.get("outcome"), (st.get("result") or {}).get("movieId")) for n, st in last.items()}
        raise CheckFailed(f"{error}; (open, outcome, result) now: {seen}") from None
    movie = next(iter(states.values()))["result"]["movieId"]
    if want is not None and movie != want:
        raise CheckFailed(f"the result is {movie} on every daemon, expected {want}")
    return movie, states


# MARK: 0. the lab


def check_lab(w):
    """A page from `python3 -m http.server` on alice's LAN address loads on both phones, from their
    namespaces, at 390 px with touch."""
    root = w.alice_host.dir / "www"
    root.mkdir(exist_ok=True)
    (root / "index.html").write_text('<!doctype html><meta name="viewport" content="width=device-width">'
                                     '<title>lab</title><body data-lab="ok"><p>the lab works</p></body>')
    server = w.alice_host.spawn([sys.executable, "-m", "http.server", "--bind", w.alice_host.ip, "8080",
                                 "--directory", root], "http-server.log")
    try:
        phone = w.phones[0]
        wait(lambda: phone.connect(w.alice_host.ip, 8080) == "connected", "http.server on alice's address")
        seen = []
        for phone in w.phones:
            phone.get(f"http://{w.alice_host.ip}:8080/")
            got = phone.wait("return document.body && document.body.dataset.lab === 'ok' && "
                             "[innerWidth, innerHeight, 'ontouchstart' in window, navigator.maxTouchPoints]",
                             "the lab page")
            if got[0] != gl.PHONE_SIZE[0] or not got[2]:
                raise CheckFailed(f"{phone.label}: viewport {got[0]}×{got[1]}, touch {got[2]}: not a 390 px phone")
            seen.append(f"{phone.label} ({phone.host.ip}) {got[0]}×{got[1]}, touch {got[2]} ({got[3]} points)")
    finally:
        stop_process(server, signal.SIGTERM, 3)
    return f"Chromium {w.phones[0].version}; " + "; ".join(seen)


# MARK: 1. majority


def check_majority(w):
    """Two guests and three members in a majority pick; alice closes; one result everywhere."""
    record, link = open_pick(w, "majority")
    if link.address != w.alice_host.ip or link.port != gl.GUEST_PORT:
        raise CheckFailed(f"the link {link.url} names {link.address}:{link.port}, expected alice's LAN address "
                          f"{w.alice_host.ip} and the default port {gl.GUEST_PORT}")
    deck = [c["movieId"] for c in record["deck"]]
    winner = deck[1]
    sam, zoe = GuestPage(w.phones[0], link, deck).open(), GuestPage(w.phones[1], link, deck).open()
    sam.join_by_touch("Sam")
    presses, _ = zoe.join_by_keyboard("Zoë")
    # Sam: a swipe on the first card, taps on the rest.
    pointers = []
    for i in range(len(deck)):
        how = "swipe" if i == 0 else "tap"
        _, _, pointer = sam.vote(sam.expected == winner, how)
        pointers.append(f"{how}:{pointer}")
    # Zoë: → and ← alone.
    focus = []
    for _ in deck:
        _, _, active = zoe.vote(zoe.expected == winner, "key")
        focus.append(active)
    bad = [p for p in pointers if not p.endswith(":touch")]
    if bad:
        raise CheckFailed(f"Sam's gestures reached the page as {pointers}, not all touch")
    wait_voted(w, [w.alice_host], {"Sam": len(deck), "Zoë": len(deck)}, "both guests' votes on alice")
    for page in (sam, zoe):
        got, _ = own_votes(page)
        if got != page.votes:
            raise CheckFailed(f"{page.phone.label}'s own votes per `state`: {got}; it voted {page.votes}")
    members_through_deck(w, deck, winner)
    everyone = {"alice": len(deck), "bob": len(deck), "carol": len(deck), "Sam": len(deck), "Zoë": len(deck)}
    wait_voted(w, w.members, everyone, "every vote on every daemon")
    for page in (sam, zoe):
        page.phone.wait("const v = [...document.querySelectorAll('ul#voters > li.voter[data-voted]')];"
                        "return v.length === 5 && v.every(li => li.dataset.voted === arguments[0]) && v.length",
                        f"five voters with {len(deck)} votes each in ul#voters on {page.phone.label}", str(len(deck)))
    close_pick(w)
    movie, states = wait_results(w, w.members, "the closed pick's result on alice, bob and carol", winner)
    if any(st.get("open") for st in states.values()):
        raise CheckFailed(f"open after the close: {[n for n, st in states.items() if st.get('open')]}")
    yeses = {n: st["result"].get("yeses") for n, st in states.items()}
    if set(yeses.values()) != {5}:
        raise CheckFailed(f"the winner's yeses per daemon {yeses}, expected 5 (three members, two guests)")
    expect_guest_voters(states, ["Sam", "Zoë"])
    shown = [sam.wait_result(movie), zoe.wait_result(movie)]
    for phone in w.phones:  # said, not judged: what the browsers logged as errors
        for entry in phone.console_errors()[:3]:
            gl.note(f"{phone.label}'s console: {entry.get('message', '')[:200]}")
    live = w.phones[0].js("const r = document.querySelector('p#result'); const l = r && r.closest('[aria-live]');"
                          "return l ? l.getAttribute('aria-live') : null")
    if live not in ("polite", "assertive"):
        raise CheckFailed(f"p#result is not in an aria-live region (aria-live {live!r})")
    return (f"link {link.url}; deck {deck}; Sam by {', '.join(pointers)}; Zoë by Tab×{presses} + Enter, then "
            f"→/← (focus {sorted(set(map(str, focus)))}); closed: result {movie} ({MOVIES[movie][0]}, 5 yeses) on "
            f"alice, bob and carol; guests Sam and Zoë (guest: true) on all three; both phones: {shown[0]!r}")


# MARK: 2. unanimous


def check_unanimous(w):
    """A unanimous pick ends by itself once all five said yes to one movie: on every daemon and phone."""
    record, link = open_pick(w, "unanimous")
    deck = [c["movieId"] for c in record["deck"]]
    target = deck[1]
    sam, zoe = GuestPage(w.phones[0], link, deck).open(), GuestPage(w.phones[1], link, deck).open()
    sam.join_by_touch("Sam")
    zoe.join_by_keyboard("Zoë")
    for page, how in ((sam, "tap"), (zoe, "key")):
        page.vote(False, how)
        page.vote(True, how)
    wait_voted(w, [w.alice_host], {"Sam": 2, "Zoë": 2}, "both guests' two votes on alice")
    st = status(w.alice_host)
    if st.get("outcome") != "voting":
        raise CheckFailed(f"the pick has outcome {st.get('outcome')} before the members voted")
    member_votes(w.bob_host, [(target, True)])
    member_votes(w.carol_host, [(target, True)])
    member_votes(w.alice_host, [(target, True)])
    movie, states = wait_results(w, w.members, "the unanimous result on alice, bob and carol", target)
    expect_guest_voters(states, ["Sam", "Zoë"])
    shown = [sam.wait_result(movie), zoe.wait_result(movie)]
    still_open = sorted(gl.NAMES[n] for n, s in states.items() if s.get("open"))
    close_open_picks(w)
    return (f"deck {deck}; guests: no to {deck[0]}, yes to {target}; members yes to {target}: chosen {movie} on "
            f"alice, bob and carol with no close (still open on {still_open or 'none'}); both phones: {shown[0]!r}")


# MARK: 3. restart


def check_restart(w):
    """alice restarts mid-pick: the guests' votes still count, the link is the same, a phone goes on."""
    record, link = open_pick(w, "majority")
    deck = [c["movieId"] for c in record["deck"]]
    sam, zoe = GuestPage(w.phones[0], link, deck).open(), GuestPage(w.phones[1], link, deck).open()
    sam.join_by_touch("Sam")
    zoe.join_by_keyboard("Zoë")
    sam.vote(True, "tap")
    sam.vote(False, "tap")
    zoe.vote(False, "key")
    wait_voted(w, w.members, {"Sam": 2, "Zoë": 1}, "the guests' votes on all three before the restart")
    before_votes, before = own_votes(sam)
    code = w.alice_host.stop_peerd(signal.SIGTERM)
    w.start_member(w.alice_host)
    w.wait_connected()
    st = status(w.alice_host)
    url = (st.get("guests") or {}).get("url")
    if url != link.url:
        raise CheckFailed(f"after the restart alice's guest link is {st.get('guests')}, before it was {link.url}")
    states = wait_voted(w, w.members, {"Sam": 2, "Zoë": 1}, "the guests' votes on all three after the restart")
    expect_guest_voters(states, ["Sam", "Zoë"])
    # phone1 reloads: no join again, its token still works, its next card is the third; it votes on.
    w.phones[0].ask("refresh")
    sam.wait_ready()
    sam.wait_card("Sam's card after the reload")
    if w.phones[0].js(f"return {gl.SHOWN}(document.querySelector('form#join'))"):
        raise CheckFailed("after the reload Sam's page asks for a name again")
    after_votes, after = own_votes(sam)
    if after_votes != before_votes or after["token"] != before["token"]:
        raise CheckFailed(f"Sam's own votes {before_votes} → {after_votes} across the restart "
                          f"(same token: {after['token'] == before['token']})")
    sam.vote(True, "tap")
    w.phones[1].ask("refresh")
    zoe.wait_ready()
    zoe.wait_card("Zoë's card after the reload")
    zoe.vote(True, "key")
    wait_voted(w, w.members, {"Sam": 3, "Zoë": 2}, "the guests' votes after the reload on all three")
    return (f"alice exited {code} on SIGTERM and came back with the same link {link.url}; Sam 2 and Zoë 1 votes "
            f"(guest: true) on all three after it; both phones reloaded, kept their tokens and voted on: "
            f"Sam 3, Zoë 2 everywhere")


# MARK: 4. refused everywhere else


class Probe:
    """Plain HTTP at the guest door from a phone's namespace; every answer kept for its headers."""

    def __init__(self, phone, link):
        self.phone, self.link = phone, link
        self.answers = []
        self.waited = 0

    def __call__(self, method, path, host=True, origin=None, token=None, body=None, port=None):
        headers = {}
        if host:
            headers["Host"] = self.link.host_header if host is True else host
        if origin:
            headers["Origin"] = self.link.origin if origin is True else origin
        if token:
            headers["Authorization"] = f"Guest {token}"
        if body is not None:
            headers["Content-Type"] = "application/json"
        for _ in range(4):
            a = self.phone.http(self.link.address, port or self.link.port, method, path, headers=headers, body=body)
            if a.get("status") != 429:
                break
            # The door's per-address limits are not this check's subject: wait as told, and ask again.
            delay = float(a["headers"].get("retry-after", "1"))
            self.waited += 1
            time.sleep(min(delay, 5))
        a["what"] = f"{method} {path}" + (f" Host: {host}" if host is not True else "") + \
            (f" Origin: {origin}" if origin not in (None, True) else "") + (" (no Origin)" if method == "POST"
                                                                             and not origin else "")
        self.answers.append(a)
        return a


def said(a):
    body = (a.get("body") or "").strip().replace("\n", " ")
    return f"{a.get('status')} {body[:120]!r}" if a.get("status") else a.get("error")


def check_refused(w):
    """Only the routes, only behind the capability, only with the link's Host and Origin; 410 once closed."""
    record, link = open_pick(w, "majority")
    deck = [c["movieId"] for c in record["deck"]]
    watcher = GuestPage(w.phones[1], link, deck).open()
    watcher.join_by_touch("Zoë")
    p = Probe(w.phones[0], link)
    problems = []

    def expect(a, want, extra=None):
        if a.get("status") != want:
            problems.append(f"{a['what']} → {said(a)}, expected {want}")
        elif extra:
            why = extra(a)
            if why:
                problems.append(f"{a['what']} → {a['status']}: {why}")

    # The door works: so a refusal below is a refusal, not a door that answers 404 to everything.
    expect(p("GET", link.path()), 200, lambda a: None if a["headers"].get("content-type", "").startswith("text/html")
           else f"Content-Type {a['headers'].get('content-type')!r}")
    for name in ("guest.js", "api.js", "live.js", "card.js", "dom.js", "base.css", "guest.css"):
        expect(p("GET", link.path(name)), 200)
    expect(p("GET", link.path("state")), 200)
    joined = p("POST", link.path("join"), origin=True, body={"name": "Probe"})
    expect(joined, 200)
    token = None
    try:
        token = json.loads(joined["body"])["token"]
    except (ValueError, KeyError, TypeError):
        problems.append(f"POST join answered no token: {said(joined)}")
    if token:
        expect(p("POST", link.path("vote"), origin=True, token=token, body={"movie": deck[0], "yes": True}), 200)
    works = len(problems) == 0
    served = len(p.answers)

    other = "A" * 21 + "g" if link.cap != "A" * 21 + "g" else "B" * 21 + "g"
    for path in ["/", "/index.html", "/app.js", "/api/events", "/favicon.ico", link.path("list"),
                 link.path("../state"), f"/g/{link.cap}/../{link.cap}/state", link.path("./state"),
                 link.path("/state"), link.path("%2e%2e/state"), link.path("state/x"), link.path("state/"),
                 link.path("guest.js/x"), link.path("app.js"), link.path("tonight.js"), link.path("guest.html"),
                 f"/g/{other}/state", f"/g/{other}/", f"/g/{link.cap[:-1]}/state",
                 f"/g/{link.cap}x/state", f"/G/{link.cap}/state", "/g/", "/g//state"]:
        expect(p("GET", path), 404)
    expect(p("POST", "/api/request", origin=True, body={"type": "list", "version": 1, "limit": 1}), 404)
    for host in ("evil.example", f"evil.example:{link.port}", f"127.0.0.1:{link.port}", link.address,
                 f"{link.address}:{gl.WEB_PORT}", f"localhost:{link.port}"):
        expect(p("GET", link.path("state"), host=host), 421)
    expect(p("POST", link.path("join"), body={"name": "NoOrigin"}), 403)
    for origin in ("http://evil.example", f"http://{link.address}:{gl.WEB_PORT}", f"https://{link.host_header}",
                   "null", f"http://127.0.0.1:{link.port}"):
        expect(p("POST", link.path("join"), origin=origin, body={"name": "Foreign"}), 403)
    if token:
        expect(p("POST", link.path("vote"), token=token, body={"movie": deck[0], "yes": False}), 403)
    expect(p("POST", link.path("join"), origin=True, body={"name": "x" * 2000}), 413)

    def to_slash(a):
        where = a["headers"].get("location")
        return None if where in (link.path(), link.url) else f"Location {where!r}, expected {link.path()!r}"
    expect(p("GET", f"/g/{link.cap}"), 308, to_slash)
    expect(p("GET", f"/g/{other}"), 404)  # a capability this peer did not make: 404, even without the slash

    def allows(method):
        def check(a):
            allow = a["headers"].get("allow")
            return None if allow and method in [m.strip() for m in allow.split(",")] else f"Allow {allow!r}"
        return check
    expect(p("DELETE", link.path("state")), 405, allows("GET"))
    expect(p("POST", link.path("state"), origin=True, body={}), 405, allows("GET"))
    expect(p("GET", link.path("join")), 405, allows("POST"))
    expect(p("PUT", link.path("vote"), origin=True, body={}), 405, allows("POST"))
    expect(p("POST", link.path(), origin=True, body={}), 405, allows("GET"))
    web = w.phones[0].connect(link.address, gl.WEB_PORT)
    if web != "refused":
        problems.append(f"the member page's port {link.address}:{gl.WEB_PORT} on the LAN: {web}, expected refused")
    no_host = p("GET", link.path("state"), host=None)
    refusals = len(p.answers) - 1  # less the request without Host, shown apart

    # Closed: 410 everywhere, the API's with JSON `closed` and the result.
    result = close_pick(w).get("result")
    want_result = result.get("movieId") if result else None

    def closed_json(a):
        try:
            body = json.loads(a["body"])
        except ValueError:
            return f"not JSON: {a['body'][:120]!r}"
        code = (body.get("error") or {}).get("code")
        if code != "closed" or "result" not in body:
            return f"error.code {code!r}, result {'present' if 'result' in body else 'absent'}: {a['body'][:200]!r}"
        got = (body["result"] or {}).get("movieId") if isinstance(body["result"], dict) else body["result"]
        return None if got == want_result else f"result {got}, alice's pick --close said {want_result}"
    expect(p("GET", link.path()), 410)
    expect(p("GET", link.path("state")), 410, closed_json)
    expect(p("POST", link.path("join"), origin=True, body={"name": "Late"}), 410, closed_json)
    if token:
        expect(p("POST", link.path("vote"), origin=True, token=token, body={"movie": deck[0], "yes": False}), 410,
               closed_json)
    closed_text = watcher.wait_closed()
    no_referrer = [a["what"] for a in p.answers if a.get("status") and
                   a["headers"].get("referrer-policy") != "no-referrer"]
    if no_referrer:
        problems.append(f"{len(no_referrer)} answers without Referrer-Policy: no-referrer, e.g. {no_referrer[:4]}")
    if problems:
        raise CheckFailed(f"{len(problems)} of {len(p.answers)} answers not as the contract says "
                          f"(the door itself {'works' if works else 'does NOT work'}; a request without Host: "
                          f"{said(no_host)}):\n" + "\n".join(problems))
    return (f"from {w.phones[0].label} ({w.phones[0].host.ip}): the door serves the page, its files, state, join "
            f"and vote; {refusals - served} refusals as the contract says (404, 421, 403, 413, 308 to the slash, 405 "
            f"with Allow); a request without "
            f"Host: {said(no_host)}; {link.address}:{gl.WEB_PORT} refused; after the close 410 (the API's "
            f"with `closed` and result {want_result}); phone2 shows section#closed: {closed_text!r}"
            + (f"; {p.waited} answers were 429 and asked again" if p.waited else ""))


# MARK: 5. QR


def decode_png(w, png, name):
    path = w.lab.run_dir / name
    path.write_bytes(png)
    return gl.zbar(path), path


def check_qr(w):
    """figure#guest-qr on alice's member page (loopback, her namespace) decodes to the guest URL."""
    record, link = open_pick(w, "majority")
    if w.alice_browser is None:
        w.alice_browser = gl.Phone(w.alice_host, "alice-browser").start()
        w.alice_browser.start_browser(size=(1280, 900), mobile=False)
    b = w.alice_browser
    r = w.alice_host.peerctl("open", "--no-browser")
    page = r.stdout.strip()
    if r.returncode != 0 or not page.startswith(f"http://127.0.0.1:{gl.WEB_PORT}/"):
        raise CheckFailed(f"peerctl open --no-browser on alice: exit {r.returncode}: {page} {r.stderr.strip()}")
    b.get(page)
    b.wait("return document.body && document.body.dataset.ready === 'true'", "alice's member page ready")
    b.js("location.hash = '#tonight'")
    b.wait(f"return {gl.SHOWN}(document.querySelector('figure#guest-qr svg'))", "figure#guest-qr on Tonight")
    href = b.js("const a = document.querySelector('a#guest-link'); return a && [a.getAttribute('href'), a.textContent]")
    if not href or href[0] != link.url:
        raise CheckFailed(f"a#guest-link is {href}, expected href {link.url}")
    decoded, path = decode_png(w, b.screenshot("figure#guest-qr"), "guest-qr.png")
    live = guest_vote_on_tonight(w, b, link, record["deck"][0]["movieId"])
    # pickState's svg, on its own with a wide white margin: tells a QR that is wrong from one cut short.
    svg = record["guests"].get("svg", "")
    b.get("about:blank")
    b.js("document.body.style.margin = '0'; document.body.innerHTML = '<div id=\"qr\" style=\"background:#fff;"
         "padding:48px;display:inline-block\"></div>'; const d = document.getElementById('qr');"
         "d.innerHTML = arguments[0]; const s = d.querySelector('svg');"
         "if (s) { s.setAttribute('width', '360'); s.setAttribute('height', '360'); }", svg)
    from_svg, _ = decode_png(w, b.screenshot("#qr"), "pickstate-svg.png")
    if decoded != link.url:
        raise CheckFailed(f"zbarimg read {decoded!r} from figure#guest-qr ({path}); the link is {link.url}; "
                          f"pickState's svg alone reads {from_svg!r}")
    if from_svg != link.url:
        raise CheckFailed(f"pickState's svg reads {from_svg!r}; the link is {link.url}")
    return (f"figure#guest-qr and pickState's svg both decode (zbarimg) to {link.url}; a#guest-link the same; "
            f"{live}")


def guest_vote_on_tonight(w, b, link, movie):
    """A guest's vote shows on alice's open Tonight view from the `pick` event alone: the event carries
    the pick's whole state, so her page asks no `pickStatus` for it (proto/WEB.md)."""
    b.js("window.__asked = []; const f = window.fetch; window.fetch = function (r, init) {"
         "  try { window.__asked.push(JSON.parse(init && init.body).type); } catch (e) { /* no JSON */ }"
         "  return f.apply(this, arguments); }")
    p = Probe(w.phones[0], link)
    joined = p("POST", link.path("join"), origin=True, body={"name": "Eve"})
    try:
        token = json.loads(joined["body"])["token"]
    except (ValueError, KeyError, TypeError):
        raise CheckFailed(f"Eve's join: {said(joined)}") from None
    voted = p("POST", link.path("vote"), origin=True, token=token, body={"movie": movie, "yes": True})
    if voted.get("status") != 200:
        raise CheckFailed(f"Eve's vote: {said(voted)}")
    b.wait("return [...document.querySelectorAll('#pick-voters li.voter')].some(li => "
           "li.textContent.includes('Eve (guest)') && li.dataset.voted === '1')", "Eve's vote on alice's Tonight view")
    asked = b.js("return window.__asked")
    if "pickStatus" in asked:
        raise CheckFailed(f"alice's page asked {asked} for Eve's vote; the pick event carries the pick's state")
    return f"Eve's guest vote on alice's Tonight view from the event alone (asked {asked or 'nothing'})"


# MARK: 6. flood


class Sampler(threading.Thread):
    """VmRSS and open fds of one pid every 20 ms until stopped."""

    def __init__(self, pid):
        super().__init__(daemon=True)
        self.pid, self.peak_kb, self.peak_fds = pid, 0, 0
        self.running = True

    def run(self):
        while self.running:
            try:
                self.peak_kb = max(self.peak_kb, gl.rss_kb(self.pid))
                self.peak_fds = max(self.peak_fds, gl.fd_count(self.pid) or 0)
            except (OSError, HarnessError):
                pass
            time.sleep(0.02)


def established(host, port):
    r = host.run(["ss", "-Htn", "state", "established", f"( sport = :{port} )"])
    return len([line for line in r.stdout.splitlines() if line.strip()])


def check_flood(w):
    """1,000 connections at the guest door from phone2; alice's RSS and the members meanwhile."""
    record, link = open_pick(w, "majority")
    pid = w.alice_pid
    comm = pathlib.Path(f"/proc/{pid}/comm").read_text().strip()
    if comm != "peerd":
        raise HarnessError(f"pid {pid} is {comm!r}, not alice's peerd")
    before_kb, before_fds = gl.rss_kb(pid), gl.fd_count(pid)
    sampler = Sampler(pid)
    sampler.start()
    phone = w.phone_hosts[1]
    argv = phone._enter([sys.executable, "-u", HERE / "flood.py", "--address", link.address, "--port", link.port,
                         "--count", FLOOD])
    log = open(phone.dir / "flood.log", "ab")
    flood = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, env=phone.env,
                             start_new_session=True, preexec_fn=gl.harness._die_with_parent, text=True)
    log.close()
    phone.extras.append(flood)
    try:
        up = json.loads(flood.stdout.readline() or "{}")
        if up.get("event") != "up":
            raise HarnessError(f"the flood did not come up: {up}")
        counts = [established(w.alice_host, link.port)]
        t0 = time.monotonic()
        status(w.alice_host)
        status_s = gl.since(t0)
        t0 = time.monotonic()
        member_votes(w.bob_host, [(record["deck"][0]["movieId"], True)])
        wait_voted(w, [w.alice_host], {"bob": 1}, "bob's vote on alice during the flood")
        vote_s = gl.since(t0)
        # Held until alice has taken every connection she will (her count still for a second, 8 s at
        # most: below her 10 s idle timeout), so the peak is the flood's, not a moment of it.
        held = time.monotonic()
        while gl.since(held) < 8:
            counts.append(established(w.alice_host, link.port))
            if len(counts) > 4 and max(counts[-5:]) == min(counts[-5:]):
                break
            time.sleep(0.25)
        held_s = gl.since(held)
        server_side = max(counts)
        still = flood.poll() is None
        flood.stdin.write("release\n")
        flood.stdin.flush()
        done = json.loads(flood.stdout.readline() or "{}")
    finally:
        stop_process(flood, signal.SIGTERM, 5)
    eventually(lambda: established(w.alice_host, link.port) <= 2, WAIT, "the flood's connections gone on alice")
    after_kb = eventually(lambda: gl.rss_kb(pid), 5, "alice's RSS")
    sampler.running = False
    sampler.join(2)
    if not w.alice_host.peerd_running():
        raise CheckFailed("alice's peerd died in the flood")
    peak_kb = max(sampler.peak_kb, after_kb)
    numbers = (f"RSS before {before_kb / 1024:.1f} MB, peak {peak_kb / 1024:.1f} MB (+{(peak_kb - before_kb) / 1024:.1f}), "
               f"after {after_kb / 1024:.1f} MB; fds before {before_fds}, peak {sampler.peak_fds}; "
               f"flood: {up.get('connected')} of {FLOOD} connected in {up.get('seconds')} s "
               f"(failed {up.get('failed')}), held {held_s:.1f} s more: at most {server_side} established on alice's side, "
               f"answers {done.get('answers')}, closed by alice {done.get('closedByServer')}, reset "
               f"{done.get('resetByServer')}, {done.get('openAtRelease')} still open at release; "
               f"members meanwhile: pick --status {status_s * 1000:.0f} ms, bob's vote on alice in {vote_s:.2f} s")
    if not still:
        raise CheckFailed(f"the flood ended before the members' checks: {numbers}")
    if peak_kb - before_kb > RSS_BOUND_KB:
        raise CheckFailed(f"alice's RSS grew {(peak_kb - before_kb) / 1024:.1f} MB, over 10 MB: {numbers}")
    return numbers


# MARK: 7, 8. what the opener's answers say


def check_opening_link(w, tries=8):
    """With alice's guest door shut (alice restarted with no pick open), the answer that opens a pick
    carries the guest link (`guests.url`), not a problem. Done `tries` times: a race would show
    in some of them only."""
    seen = []
    for attempt in range(1, tries + 1):
        close_open_picks(w)
        w.alice_host.stop_peerd(signal.SIGTERM)
        w.start_member(w.alice_host)
        w.wait_connected()
        door = w.phones[0].connect(w.alice_host.ip, gl.GUEST_PORT)
        answer = gl.control(w.alice_host, {"type": "pick", "version": 1, "mode": "majority",
                                           "with": ["bob", "carol"]})
        if answer.get("type") != "pickState":
            raise CheckFailed(f"opening a pick on alice: {answer}")
        guests = answer.get("guests") or {}
        later = (gl.control(w.alice_host, {"type": "pickStatus", "version": 1}).get("guests") or {}).get("url")
        if "url" not in guests:
            raise CheckFailed(f"attempt {attempt}: the door was {door} before the opening; the answer opening the "
                              f"pick has guests = {json.dumps(guests)}, while pickStatus right after has the link "
                              f"{later}" + (f"\nearlier attempts: {seen}" if seen else ""))
        Link(guests["url"])
        seen.append(f"door {door} before, link in the answer, pickStatus the same: {later == guests['url']}")
    close_open_picks(w)
    return f"{tries} restarts of alice, then a pick: " + "; ".join(sorted(set(seen)))


def check_peerctl_reads(w):
    """`peerctl pick --status` (--json and text) reads alice's pickState whatever its QR svg's length:
    picks are opened (over the control socket) until one's svg is over 4,096 characters."""
    tried = []
    for _ in range(16):
        close_open_picks(w)
        answer = gl.control(w.alice_host, {"type": "pick", "version": 1, "mode": "majority",
                                           "with": ["bob", "carol"]})
        st = gl.control(w.alice_host, {"type": "pickStatus", "version": 1})
        svg = (st.get("guests") or {}).get("svg") or ""
        as_json = w.alice_host.peerctl("pick", "--status", "--json")
        as_text = w.alice_host.peerctl("pick", "--status")
        tried.append((len(svg), as_json.returncode, as_text.returncode))
        if as_json.returncode != 0 or as_text.returncode != 0:
            said = (as_json.stderr or as_text.stderr).strip()
            raise CheckFailed(f"pick {answer['pick']['seq']}: its svg is {len(svg)} characters; peerctl pick --status "
                              f"--json exited {as_json.returncode}, the text form {as_text.returncode}: {said}\n"
                              f"(svg length, --json exit, text exit) of each pick tried: {tried}")
        if len(svg) > 4096:
            if json.loads(as_json.stdout).get("guests", {}).get("svg") != svg:
                raise CheckFailed("peerctl pick --status --json printed another svg than the control socket's")
            break
    close_open_picks(w)
    longest = max(n for n, _, _ in tried)
    return (f"{len(tried)} picks, svg lengths {[n for n, _, _ in tried]}: peerctl read every one"
            + ("" if longest > 4096 else " (none over 4,096 characters: the long case was not exercised)"))


def check_list_pick(w):
    """A pick opened on a list other than the group's (proto/PEER.md, "Lists"): a phone joins it by its link
    and votes by touch; the votes count on that list on alice and bob, the close reaches the phone, and the
    group's list shows no pick."""
    close_open_picks(w)
    alice, bob = w.alice_host, w.bob_host

    def ok(host, *args):
        r = host.peerctl(*args)
        if r.returncode != 0:
            raise CheckFailed(f"peerctl {' '.join(args)} on {NAMES.get(host.name)}: {r.stdout}{r.stderr}".strip())
        return r

    if alice.peerctl("list", "--list", "movienight").returncode != 0:
        ok(alice, "lists", "create", "movienight", "--members", "bob")
    for movie in (603, 13):
        ok(alice, "add", str(movie), "--list", "movienight")
    record = json.loads(ok(alice, "pick", "--list", "movienight", "--with", "bob", "--json").stdout)
    link = Link((record.get("guests") or {}).get("url"))
    deck = [c["movieId"] for c in record["deck"]]
    if not deck or set(deck) - {603, 13}:
        raise CheckFailed(f"the pick on movienight dealt {deck}; the list holds 603 and 13")
    kim = GuestPage(w.phones[0], link, deck).open()
    kim.join_by_touch("Kim")
    for _ in deck:
        kim.vote(True, "tap")

    def kims_votes(host):
        st = json.loads(ok(host, "pick", "--list", "movienight", "--status", "--json").stdout)
        v = voters_by_name(st).get("Kim")
        return st if v and v.get("guest") and v.get("voted") == len(deck) else None

    for host in (alice, bob):
        eventually(lambda: kims_votes(host), WAIT, f"Kim's {len(deck)} votes on movienight on {host.name}")
    on_group = alice.peerctl("pick", "--status", "--json")
    group = json.loads(on_group.stdout or "{}") if on_group.returncode == 0 else {}
    if group.get("open"):
        raise CheckFailed(f"the pick on movienight shows as the group's: {group}")
    closed = json.loads(ok(alice, "pick", "--list", "movienight", "--close", "--json").stdout)
    movie = (closed.get("result") or {}).get("movieId")
    if movie not in deck:
        raise CheckFailed(f"the closed pick on movienight: {closed}")
    shown = kim.wait_result(movie)
    return f"link {link.url}; deck {deck}; Kim's votes on alice and bob; closed: {movie}, on the phone {shown!r}"


CHECKS = [
    ("lab: both phones load a page served on alice's LAN address, from their own namespaces", check_lab),
    ("majority: Sam by touch and a swipe, Zoë by keyboard, members by peerctl; closed: one result everywhere",
     check_majority),
    ("unanimous: the result on every daemon and phone once all said yes, with no close", check_unanimous),
    ("restart: alice restarted mid-pick keeps the guests' votes and the link; a phone reloads and votes on",
     check_restart),
    ("refused: only the routes behind the capability, the link's Host and Origin; 410 and section#closed after",
     check_refused),
    ("qr: figure#guest-qr on alice's Tonight view decodes (zbarimg) to the guest URL; a guest's vote shows there "
     "from the pick event alone", check_qr),
    ("flood: 1,000 connections from a phone: alice's RSS grows ≤ 10 MB and members are served", check_flood),
    ("opening: with the door shut, the answer that opens a pick carries the guest link", check_opening_link),
    ("peerctl: pick --status reads the opener's pickState whatever the length of its QR svg", check_peerctl_reads),
    ("lists: a guest votes on a pick opened on another list; the close reaches the phone", check_list_pick),
]


# MARK: main


def hello(w, seconds):
    return (f"guests: alice {w.ids['h1'][:8]} ({w.alice_host.ip}), bob {w.ids['h2'][:8]} ({w.bob_host.ip}), "
            f"carol {w.ids['h3'][:8]} ({w.carol_host.ip}) connected with {len(MOVIES)} movies; phones "
            f"{', '.join(p.host.ip for p in w.phones)} with Chromium {w.phones[0].version}; {seconds:.1f} s")


if __name__ == "__main__":
    sys.exit(gl.main("guests", __doc__, CHECKS, gl.World, hello, hosts=5, zbarimg="zbar-tools",
                     layout=f"h1 alice, h2 bob, h3 carol (peerd, static peers, avahi off), h4 and h5 phones "
                            f"(Chromium {gl.PHONE_SIZE[0]}×{gl.PHONE_SIZE[1]}, touch)"))
