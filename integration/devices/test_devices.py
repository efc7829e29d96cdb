#!/usr/bin/env python3
"""Linked devices, end to end on a real LAN (issue 38, "Tests"; `make test`): two real peerd on hosts in
network namespaces on one bridge, two phones (hosts with no peerd, each a headless Chromium with mobile
emulation, 390×844 with touch, running INSIDE its own namespace) and a third address (plain HTTP only).
alice's machine links the phones with `peerctl device link`; its device door listens on her LAN address
(found by peerd itself: no --device-address, no --device-port), and the phones reach it only from theirs.

    sudo PEERD_BIN_DIR=/path/to/bins python3 integration/devices/test_devices.py [--keep-logs] [--only WORDS ...]

The lab (device_lab.py, on ../guests/guest_lab.py and ../lab/lab.py): h1 alice and h2 bob (peerd, one
group, static --peer addresses, avahi off), h3 phone1 and h4 phone2 (phone_driver.py: Selenium and
Chromium), h5 a third address. The checks:

  shut: before any link nothing listens on the device port (a connect from a phone is refused)
  1. link: alice's machine links phone1; it opens the URL and lands on alice's list (HttpOnly cookie, no
     code left in the URL); it taps a card, taps Want, and votes Yes by tap in a unanimous pick alice
     opened with `peerctl pick`; on alice and bob the want is alice's (list and history), and the vote
     counts: bob's yes to the same movie chooses it on both daemons and on the phone
  manifest: the linked page's link[rel=manifest] loads, with icons (192 or 512 px) that load as images
  2. unlink: `peerctl device unlink` → the phone's next API request gets 401 (JSON) and its open event
     streams (the page's own and one more the check opens) end, each within 1 s of unlink returning;
     a navigation then gets the 401 page that says how to link again
  3. links: a forged link, a reused one (opened a second time, from another phone) and an expired one
     (`--expires 1s`, opened once its expiresAt has passed) each get 401 and link nothing
  4. capability: phone2's cookie (Selenium's get_cookies) from the third address gets 401 (page, API,
     events); from phone2 it still works
  door: with phone2's cookie a wrong Host is 421 and a POST without Origin 403; a mark that names
     another member (`profile`) is still alice's; alice restarted, phone2 is still linked and answered
  5. profile: a phone linked with `--profile sam` marks as sam on alice and bob, not as alice (skipped
     with a line when peerctl has no `profile` command yet)
  profile removed: `peerctl profile remove sam` gets sam's phone out within 1 s, as an unlink does (skipped
     likewise)
  shut again: every device unlinked and alice restarted (the door stays open 10 minutes after the last
     unlink, WEB.md), nothing listens on the device port; a new link opens it

Every wait is on a condition, bounded by $PEERD_GUESTS_WAIT seconds (default 20); the unlink's 1 s is a
deadline measured in the page, not a sleep. Prints one PASS/FAIL/SKIP line per check and ends with
`devices: N passed, M failed`. Exit status 0 all passed, 1 something failed (the lab's logs are kept),
77 with one line `devices skipped: why` when the machine can't run it (not root, no ip netns, no
Chromium, chromedriver or Selenium).
"""
import pathlib
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import device_lab as dl  # noqa: E402  (puts integration/, integration/guests/ and integration/lab/ on sys.path)
import guest_lab as gl  # noqa: E402
from device_lab import COOKIE, DEVICE_PORT, DevicePage, device_link, devices, http, ids_of, now_ms, said  # noqa: E402
from harness import CheckFailed, TimedOut, eventually  # noqa: E402

UNLINK_BOUND_MS = 1000  # issue 38: an unlinked device is out within a second, its open streams included


# MARK: shut


def check_shut(w):
    """Before any link, nothing listens on alice's device port."""
    why = dl.gone_door(w, w.phones[0])
    if why:
        raise CheckFailed(f"with no device and no pending link: {why}")
    return f"{w.alice_host.ip}:{DEVICE_PORT} refused from {w.phones[0].label}; ss on alice: nothing listening"


def check_shut_again(w):
    """Every device unlinked: alice restarted (WEB.md keeps the door open 10 minutes after the last
    unlink, for the words on how to link again), nothing listens; a link opens it again."""
    listed = devices(w)
    for device in listed:
        dl.unlink(w, device["id"])
    grace = w.phones[1].connect(w.alice_host.ip, DEVICE_PORT)
    w.alice_host.stop_peerd()
    w.start_member(w.alice_host)
    w.wait_connected()
    left = devices(w)
    why = dl.gone_door(w, w.phones[1])
    if left or why:
        raise CheckFailed(f"after unlinking {len(listed)} devices and a restart: device list {left}; {why}")
    link = device_link(w, "--name", "after the restart")
    reopened = w.phones[1].connect(link.address, link.port)
    if reopened != "connected":
        raise CheckFailed(f"with a link pending again, a connect to {link.address}:{link.port}: {reopened}")
    return (f"{len(listed)} devices unlinked by id (the door then: {grace}); after alice's restart "
            f"{w.alice_host.ip}:{DEVICE_PORT} refused; a new link opens it again")


# MARK: 1. link, browse, mark, vote


def check_link(w):
    """phone1 linked to alice: lands on her list, browses, wants a movie, votes; both daemons agree."""
    phone = w.phones[0]
    link = device_link(w, "--name", "alice's phone")
    if (link.address, link.port, link.member, link.name) != (w.alice_host.ip, DEVICE_PORT, "alice", "alice's phone"):
        raise CheckFailed(f"the link {link.answer}: expected alice's LAN address {w.alice_host.ip}, port {DEVICE_PORT}, "
                          f"member alice, name \"alice's phone\"")
    page = DevicePage(phone, link).open()
    phone.device_link = link
    landed = page.document()
    if landed["url"] != link.base or landed["status"] != 200:
        raise CheckFailed(f"{phone.label} landed on {landed['url']} ({landed['status']}), expected {link.base} (200)")
    listed = [m["movieId"] for m in w.alice_host.movies()]
    page.phone.wait("return [...document.querySelectorAll('ol#movies > li.card[data-movie-id]')].length === "
                    "arguments[0]", f"{len(listed)} cards on {phone.label}", len(listed))
    if sorted(page.cards()) != sorted(listed):
        raise CheckFailed(f"{phone.label}'s cards {page.cards()}; alice's list {listed}")
    cookie = dl.device_cookie(phone)
    in_js = phone.js("return document.cookie")
    if cookie is None or not cookie.get("httpOnly") or COOKIE in in_js:
        raise CheckFailed(f"the device cookie: {cookie}; document.cookie {in_js!r}: not an HttpOnly {COOKIE}")
    device = dl.device_at(w, phone.host.ip)
    if device is None or device.get("member") != "alice" or device.get("name") != "alice's phone":
        raise CheckFailed(f"device list: {devices(w)}; expected alice's phone, member alice, at {phone.host.ip}")
    movie, title = 550, gl.MOVIES[550][0]
    page.open_movie(movie, title)
    page.mark("want")
    alice_id = w.peer_id(w.alice_host)
    for host in w.members:
        dl.wait_mark(w, host, movie, "want", "alice", peer=alice_id)
    page.close_movie()
    voted = vote_in_tonight(w, page)
    return (f"{link.url} → {landed['url']}, {len(listed)} cards; cookie {COOKIE} HttpOnly; device list: "
            f"{device.get('name')!r} of {device.get('member')} at {device.get('address')}; tapped {title}'s card and "
            f"Want: alice wants {movie} on alice and bob (list and history); {voted}")


def vote_in_tonight(w, page):
    """alice opens a unanimous pick with bob (`peerctl pick`); the phone taps Tonight and Yes on the
    first card; bob says yes to it too: chosen on both daemons and on the phone."""
    gl.close_open_picks(w)
    code, record, said_ = gl.peerctl_pick(w.alice_host, "--mode", "unanimous", "--with", "bob")
    if code != 0:
        raise CheckFailed(f"peerctl pick --mode unanimous --with bob on alice: exit {code}: {said_}")
    first = record["next"]["movieId"]
    eventually(lambda: gl.status(w.bob_host)["pick"] == record["pick"], gl.WAIT, "bob holding alice's pick")
    page.tap("a#to-tonight", "the Tonight link")
    page.pick_card(first)
    page.tap("#vote-yes", "Tonight's Yes")
    deck = [c["movieId"] for c in record["deck"]]
    page.pick_card(deck[1] if len(deck) > 1 else None)
    gl.wait_voted(w, w.members, {"alice": 1}, "alice's one vote, made on the phone, on alice and bob")
    gl.member_votes(w.bob_host, [(first, True)])

    def chosen():
        states = [gl.status(h) for h in w.members]
        return states if all(s.get("outcome") == "chosen" and s["result"]["movieId"] == first for s in states) else None
    try:
        states = eventually(chosen, gl.WAIT, f"{first} chosen on alice and bob")
    except TimedOut as error:
        raise CheckFailed(f"{error}: {[(s.get('outcome'), s.get('result')) for s in map(gl.status, w.members)]}") \
            from None
    page.phone.wait("return document.getElementById('pick-result')?.dataset.movieId === arguments[0]",
                    f"the result {first} on {page.label}'s Tonight view", str(first))
    gl.close_open_picks(w)
    return (f"Tonight: Yes tapped on {first} counted as alice's on both; with bob's yes, {first} chosen "
            f"({states[0]['result'].get('yeses')} yeses) on alice, bob and the phone")


# MARK: the manifest


# JS: the page's manifest, its icons fetched: {href, manifest, icons: [[src, sizes, status, type, width]]}.
MANIFEST = """
  const link = document.querySelector('link[rel=manifest]');
  if (!link) return {href: null};
  return fetch(link.href, {cache: 'no-store'}).then(r => r.json()).then(async m => {
    const icons = [];
    for (const icon of m.icons || []) {
      const r = await fetch(new URL(icon.src, link.href), {cache: 'no-store'});
      const bitmap = await createImageBitmap(await r.blob()).catch(() => null);
      icons.push([icon.src, icon.sizes, r.status, r.headers.get('Content-Type'), bitmap ? bitmap.width : 0]);
    }
    return {href: link.getAttribute('href'), manifest: m, icons};
  }, e => ({href: link.href, error: String(e)}));"""


def check_manifest(w):
    """The linked page names a web app manifest whose icons load: "Add to Home Screen" works."""
    page, _ = dl.ensure_linked(w, w.phones[0], "alice's phone")
    got = page.phone.js(MANIFEST)
    manifest = got.get("manifest") or {}
    if not got.get("href") or got.get("error") or not manifest.get("name") and not manifest.get("short_name"):
        raise CheckFailed(f"link[rel=manifest] on {page.label}'s page: {got}")
    icons = got.get("icons") or []
    broken = [i for i in icons if i[2] != 200 or not (i[3] or "").startswith("image/") or not i[4]]
    sizes = {i[1] for i in icons}
    if broken or not icons or not {"192x192", "512x512"} & sizes:
        raise CheckFailed(f"the manifest's icons (src, sizes, status, type, width): {icons}; a home screen needs "
                          f"192x192 or 512x512 that load")
    return (f"{got['href']}: {manifest.get('short_name') or manifest.get('name')!r}, display "
            f"{manifest.get('display')!r}; icons {[(i[0], i[1], i[4]) for i in icons]}")


def check_reloads(w):
    """A phone loads the page again and again (a pull to refresh, the home screen's icon): five loads
    in a row, each ready, none refused for being too many. One load is some 30 requests; the door
    counts a device's API requests and streams, not the page's files."""
    page, _ = dl.ensure_linked(w, w.phones[0], "alice's phone")
    phone = page.phone
    link = phone.device_link
    counts, started = [], time.monotonic()
    for _ in range(5):
        phone.get(link.base)
        phone.wait("return document.body && document.body.dataset.ready === 'true'", "the page ready after a reload")
        counts.append(phone.js("return performance.getEntriesByType('resource').length + 1"))
    took = time.monotonic() - started
    refused = phone.js("return performance.getEntriesByType('resource').filter(r => r.responseStatus === 429).length")
    if refused:
        raise CheckFailed(f"{refused} of the last load's requests were refused (429)")
    return f"5 loads in {took:.1f} s ({sum(counts)} requests), each ready, none refused"


# MARK: 2. unlink


# JS: what ends when the device is unlinked, stamped with Date.now() in sessionStorage (the page
# loads itself again on a 401, and sessionStorage outlives that): `devtest.probe`, a second event
# stream this script opens with the phone's cookie, when it ends; `devtest.down`, when the page's
# own stream goes down (body[data-live] no longer 'true'). `leaving`: the document was being unloaded
# then, so the stream was cut by the browser, not ended by peerd.
WATCH_STREAMS = """
  for (const k of ['devtest.probe', 'devtest.down']) sessionStorage.removeItem(k);
  const put = (k, v) => sessionStorage.setItem(k, JSON.stringify({...v, leaving: !!window.__leaving}));
  addEventListener('pagehide', () => { window.__leaving = true; });
  const p = window.__probe = {opened: null, status: null};
  (async () => {
    let how = 'ended';
    try {
      const r = await fetch('/api/events', {headers: {Accept: 'text/event-stream'}, cache: 'no-store'});
      p.status = r.status;
      if (!r.ok) return put('devtest.probe', {at: Date.now(), how: 'refused ' + r.status});
      p.opened = Date.now();
      const reader = r.body.getReader();
      while (!(await reader.read()).done) { /* events */ }
    } catch (e) { how = 'error: ' + e; }
    put('devtest.probe', {at: Date.now(), how});
  })();
  const t = setInterval(() => {
    if (document.body.dataset.live === 'true') return;
    put('devtest.down', {at: Date.now(), live: document.body.dataset.live});
    clearInterval(t);
  }, 5);
  return true;"""
RECORDED = """
  const get = k => JSON.parse(sessionStorage.getItem(k) || 'null');
  const r = {probe: get('devtest.probe'), down: get('devtest.down')};
  return arguments[0] ? (r.probe && r.down ? r : null) : r;"""
# JS: the document's navigation: its HTTP status and when its answer came (wall clock ms).
NAVIGATION = """
  const n = performance.getEntriesByType('navigation')[0];
  return document.readyState !== 'loading' && n && n.responseStatus ?
    {status: n.responseStatus, at: performance.timeOrigin + n.responseEnd, text: document.body.innerText.slice(0, 300)} :
    null;"""


def streams_ended(phone, deadline):
    """Waits until both streams WATCH_STREAMS watches have ended, or `deadline` (wall-clock ms) passed
    (with 0.5 s more for the asking); what was recorded by then."""
    within = max(0.05, (deadline - now_ms()) / 1000) + 0.5
    reply = phone.ask_raw("wait", within + 30, script=RECORDED, args=[True], timeout=within)
    if reply.get("ok"):
        return reply["value"]
    return phone.wait(f"return (() => {{ {RECORDED} }})()", "sessionStorage after the wait", False)


def out_within_a_second(w, page, what, cut, travels=False):
    """`cut()` (peerctl on alice, which returns the wall-clock ms when it returned) ends the device of
    `page`'s phone: its next API request (its cookie, from its address) is 401 with JSON, and its open
    event streams (the page's own and one more) have ended, within UNLINK_BOUND_MS of `cut` returning;
    it is off device list. Returns (when `cut` returned, a line of what was measured)."""
    phone = page.phone
    phone.wait("return document.body.dataset.live === 'true'", f"{phone.label}'s page live (its stream open)")
    phone.js(WATCH_STREAMS)
    probe = phone.wait("return window.__probe.opened || sessionStorage.getItem('devtest.probe')",
                       f"a second event stream from {phone.label}")
    if not isinstance(probe, (int, float)):
        raise CheckFailed(f"GET /api/events from {phone.label}'s page with its cookie: {probe}")
    cookie = dl.device_cookie(phone)["value"]
    returned = cut()

    def ask():
        return http(phone, page.link, "POST", "/api/request", cookie=cookie, origin=True,
                    body={"type": "status", "version": 1})
    asked = ask()
    # A cut made on another peer (`travels`) reaches alice's peerd first: asked again until the
    # 401, or the bound.
    while travels and asked.get("status") == 200 and now_ms() - returned < UNLINK_BOUND_MS:
        time.sleep(0.02)  # a poll, not a wait: within the device's limit of 10 requests a second
        asked = ask()
    api_ms = now_ms() - returned
    ended = streams_ended(phone, returned + UNLINK_BOUND_MS)
    probe_ms, down_ms = ((ended.get(k) or {}).get("at", float("nan")) - returned for k in ("probe", "down"))
    numbers = (f"after {what} returned: {phone.label}'s API request (its cookie, from its address) answered "
               f"{asked.get('status')} in {api_ms:.0f} ms; the check's event stream ended at {probe_ms:+.0f} ms "
               f"({(ended.get('probe') or {}).get('how')}), the page's own at {down_ms:+.0f} ms")
    if asked.get("status") != 401 or "json" not in (asked.get("headers") or {}).get("content-type", ""):
        raise CheckFailed(f"the phone's first API request after {what}: {said(asked)}, expected 401 with JSON; "
                          f"{numbers}")
    if api_ms > UNLINK_BOUND_MS:
        raise CheckFailed(f"the 401 came {api_ms:.0f} ms after {what} returned, over {UNLINK_BOUND_MS} ms")
    for stream, record, ms in (("the check's event stream", ended.get("probe"), probe_ms),
                               ("the page's own event stream", ended.get("down"), down_ms)):
        if record is None or record.get("leaving") or not ms <= UNLINK_BOUND_MS:
            raise CheckFailed(f"{stream} from {phone.label} not ended by peerd within {UNLINK_BOUND_MS} ms of {what} "
                              f"returning: {record}; {numbers}")
    if dl.device_at(w, phone.host.ip) is not None:
        raise CheckFailed(f"device list after {what}: {devices(w)}")
    phone.device_link = None
    return returned, f"{numbers}; {asked.get('body', '').strip()[:80]!r}"


def check_unlink(w):
    """Unlinked, the phone is out within a second: its next API request and its open streams."""
    phone = w.phones[0]
    page, device = dl.ensure_linked(w, phone, "alice's phone")
    unlinked, numbers = out_within_a_second(w, page, "unlink", lambda: dl.unlink(w, device["name"]))
    # The page, refused, loads itself again: the 401 page of words (WEB.md); then a navigation of ours.
    reloaded = phone.wait(f"const n = (() => {{ {NAVIGATION} }})(); return n && n.status === 401 && n",
                          f"{phone.label}'s page loading itself again after the 401")
    in_page = page.api({"type": "status"})
    phone.get(page.link.base)
    doc = phone.wait(NAVIGATION, f"{phone.label}'s navigation to / after the unlink")
    if doc["status"] != 401 or "peerctl device link" not in doc["text"] or in_page.get("status") != 401:
        raise CheckFailed(f"after the unlink: a navigation to {page.link.base}: {doc}; the page's API request "
                          f"{in_page}; expected 401s and words on how to link again (`peerctl device link`)")
    return (f"{numbers}; the page loaded itself again ({reloaded['at'] - unlinked:.0f} ms): 401; a navigation: 401, "
            f"{doc['text'].strip()[:100]!r}")


# MARK: 3. forged, reused, expired


def check_links(w):
    """A forged, a reused and an expired link each get 401 and link nothing."""
    phone1, phone2 = w.phones
    link = device_link(w, "--name", "phone2")
    before = ids_of(devices(w))
    forged = http(phone1, link, "GET", f"/link/{link.forged()}")
    if forged.get("status") != 401 or dl.set_cookie(forged):
        raise CheckFailed(f"a forged link from {phone1.label}: {said(forged)}, set-cookie {dl.set_cookie(forged)}; "
                          f"expected 401 and no cookie")
    if ids_of(devices(w)) != before:
        raise CheckFailed(f"after a forged link: device list {devices(w)}, before {before}")
    DevicePage(phone2, link).open()
    phone2.device_link = link
    linked = devices(w)
    if len(linked) != len(before) + 1 or dl.device_at(w, phone2.host.ip) is None:
        raise CheckFailed(f"after {phone2.label} opened the link: device list {linked}")
    phone1.get(link.url)
    reused = phone1.wait("const n = performance.getEntriesByType('navigation')[0];"
                         "return document.readyState !== 'loading' && n && n.responseStatus ? "
                         "{status: n.responseStatus, text: document.body.innerText.slice(0, 200)} : null",
                         f"{phone1.label} opening the used link")
    if reused["status"] != 401:
        raise CheckFailed(f"the link {phone2.label} used, opened again from {phone1.label}: {reused}; expected 401")
    if ids_of(devices(w)) != ids_of(linked):
        raise CheckFailed(f"after the reused link: device list {devices(w)}, before {linked}")
    expiring = device_link(w, "--expires", "1s", "--name", "too late")
    printed = now_ms()
    if not isinstance(expiring.expires_at, (int, float)) or not printed - 5000 < expiring.expires_at < printed + 1500:
        raise CheckFailed(f"--expires 1s printed expiresAt {expiring.expires_at}; now is {printed:.0f}")
    eventually(lambda: now_ms() > expiring.expires_at + 1, 5, "the printed expiresAt passed", 0.02)
    expired = http(w.third, expiring, "GET", f"/link/{expiring.code}")  # a third address: phone1's link tries are few
    if expired.get("status") != 401 or dl.set_cookie(expired):
        raise CheckFailed(f"an expired link from {w.third.host.ip}: {said(expired)}; expected 401 and no cookie")
    if ids_of(devices(w)) != ids_of(linked):
        raise CheckFailed(f"after the expired link: device list {devices(w)}, before {linked}")
    return (f"forged /link/{len(link.code)} characters: 401; the used link again from {phone1.label}: 401 "
            f"({reused['text'].strip()[:60]!r}); expired ({expiring.expires_at - printed:.0f} ms after it was "
            f"printed): 401; device list only gained {phone2.label}")


# MARK: 4. a capability from another address


def check_capability(w):
    """phone2's cookie from the third address gets 401 everywhere; from phone2 it works."""
    phone2, third = w.phones[1], w.third
    page, _ = dl.ensure_linked(w, phone2, "phone2")
    cookie = dl.device_cookie(phone2)
    if cookie is None:
        raise CheckFailed(f"no {COOKIE} cookie in {phone2.label}'s browser: {phone2.cookies()}")
    link, value = page.link, cookie["value"]
    tries = {
        "GET /": http(third, link, "GET", "/", cookie=value),
        "POST /api/request": http(third, link, "POST", "/api/request", cookie=value, origin=True,
                                  body={"type": "status", "version": 1}),
        "GET /api/events": http(third, link, "GET", "/api/events", cookie=value),
    }
    wrong = {k: said(v) for k, v in tries.items() if v.get("status") != 401}
    if wrong:
        raise CheckFailed(f"{phone2.label}'s cookie from {third.host.ip}: {wrong}; expected 401")
    own = page.api({"type": "status"})
    plain = http(phone2, link, "POST", "/api/request", cookie=value, origin=True, body={"type": "status", "version": 1})
    if own.get("status") != 200 or (own.get("json") or {}).get("type") != "status" or plain.get("status") != 200:
        raise CheckFailed(f"from {phone2.label} after the third address tried: its page's status request "
                          f"{own.get('status')} {own.get('text')!r}, plain HTTP {said(plain)}")
    return (f"from {third.host.ip}: {', '.join(f'{k} 401' for k in tries)}; from {phone2.label} ({phone2.host.ip}): "
            f"the page's API 200 and plain HTTP 200")


# MARK: the door's other rules


def check_door(w):
    """phone2's device (alice's): a wrong Host is 421, a POST without the page's Origin 403; a request that
    names another member (`profile`) still acts for alice; after alice restarts, the device still works."""
    phone2 = w.phones[1]
    page, device = dl.ensure_linked(w, phone2, "phone2")
    link, cookie = page.link, dl.device_cookie(phone2)["value"]
    status = {"type": "status", "version": 1}
    wrong_host = phone2.http(link.address, link.port, "GET", "/", headers={"Host": f"evil.example:{link.port}",
                                                                         "Cookie": f"{COOKIE}={cookie}"})
    no_origin = http(phone2, link, "POST", "/api/request", cookie=cookie, body=status)
    if wrong_host.get("status") != 421 or no_origin.get("status") != 403:
        raise CheckFailed(f"with phone2's cookie: a wrong Host {said(wrong_host)} (expected 421), a POST without "
                          f"Origin {said(no_origin)} (expected 403)")
    other = sam_profile(w)["name"] if not profiles_missing(w) else "bob"
    movie = 680
    marked = http(phone2, link, "POST", "/api/request", cookie=cookie, origin=True,
                  body={"type": "mark", "version": 1, "profile": other, "movie": {"id": movie},
                        "marks": [{"kind": "seen", "set": True}]})
    _, entry = dl.wait_mark(w, w.alice_host, movie, "seen", "alice", peer=w.peer_id(w.alice_host))
    if any(m.get("seen") and m.get("name") == other for m in dl.marks_of(w.alice_host, movie)):
        raise CheckFailed(f"phone2's mark naming profile {other!r} ({said(marked)}) was made as {other}: "
                          f"{dl.marks_of(w.alice_host, movie)}")
    w.alice_host.stop_peerd()
    w.start_member(w.alice_host)
    w.wait_connected()
    after = page.api(status)
    kept = dl.device_at(w, phone2.host.ip)
    if after.get("status") != 200 or kept is None or kept.get("id") != device.get("id"):
        raise CheckFailed(f"after alice's restart: phone2's page asked status: {after.get('status')} "
                          f"{after.get('text')!r}; device list {devices(w)}")
    return (f"wrong Host 421, no Origin 403; a mark naming {other!r} was alice's ({entry.get('text')!r}); after "
            f"alice's restart phone2's page is answered (200) and device list still has {kept.get('name')!r}")


# MARK: 5. a profile's device


def profiles_missing(w):
    """Why check 5 can't run: peerctl has no `profile` command yet, or None."""
    r = w.alice_host.peerctl("profile", "list", "--json")
    said_ = (r.stderr or r.stdout).strip()
    if r.returncode == 64 and "unexpected argument" in said_.lower():
        return f"peerctl has no `profile` command here (profiles are not on this branch yet): {said_.splitlines()[0]}"
    return None


def check_profile(w):
    """A phone linked with --profile sam marks as sam, on alice and bob."""
    phone = w.phones[0]
    sam = sam_profile(w)
    link = device_link(w, "--profile", "sam", "--name", "sam's phone")
    if link.member != "sam":
        raise CheckFailed(f"peerctl device link --profile sam printed member {link.member!r}: {link.answer}")
    page = DevicePage(phone, link).open()
    phone.device_link = link
    device = dl.device_at(w, phone.host.ip)
    if device is None or device.get("member") != "sam":
        raise CheckFailed(f"device list after sam's link: {devices(w)}")
    movie, title = 13, gl.MOVIES[13][0]
    page.open_movie(movie, title)
    page.mark("want")
    alice_id = w.peer_id(w.alice_host)
    seen = []
    for host in w.members:
        _, entry = dl.wait_mark(w, host, movie, "want", "sam", peer=sam["peer"], not_peer=alice_id)
        seen.append(f"{gl.NAMES[host.name]}: {entry.get('text')!r}")
    page.close_movie()
    return (f"device list: {device.get('name')!r} of sam; tapped Want on {title}: by sam ({sam['peer'][:8]}), "
            f"not alice, in list and history on " + "; ".join(seen))


def check_profile_removed(w):
    """`peerctl profile remove sam`: sam's phone is out within a second, as an unlinked one is."""
    phone = w.phones[0]
    device = dl.device_at(w, phone.host.ip)
    if device is not None and device.get("member") == "sam" and getattr(phone, "device_link", None):
        page = DevicePage(phone, phone.device_link).resume()
    else:
        if device is not None:
            dl.unlink(w, device["id"])
        phone.device_link = None
        sam_profile(w)
        page, device = dl.ensure_linked(w, phone, "sam's phone", "--profile", "sam")

    def remove():
        r = w.alice_host.peerctl("profile", "remove", "sam")
        returned = now_ms()
        if r.returncode != 0:
            raise CheckFailed(f"peerctl profile remove sam on alice: exit {r.returncode}: {(r.stdout + r.stderr)[:300]}")
        return returned
    _, numbers = out_within_a_second(w, page, "profile remove sam", remove)
    return f"{device.get('name')!r} of {device.get('member')}: {numbers}"


def check_machine_removed(w):
    """bob removes alice's machine from the group: the phone linked to alice is out within a second
    of bob's `members remove` returning, its open streams included (last: alice is out for good)."""
    phone = w.phones[0]
    device = dl.device_at(w, phone.host.ip)
    if device is not None:
        dl.unlink(w, device["id"])
    phone.device_link = None
    page, device = dl.ensure_linked(w, phone, "alice's phone, at last")

    def remove():
        r = w.bob_host.peerctl("members", "remove", "alice")
        returned = now_ms()
        if r.returncode != 0:
            raise CheckFailed(f"peerctl members remove alice on bob: exit {r.returncode}: {(r.stdout + r.stderr)[:300]}")
        return returned
    _, numbers = out_within_a_second(w, page, "bob's removal of alice", remove, travels=True)
    return f"{device.get('name')!r} of {device.get('member')}: {numbers}"


def sam_profile(w):
    """sam, a profile on alice's machine (`peerctl profile add sam` unless there is one): its member record."""
    def sam():
        members = w.alice_host.peerctl_json("profile", "list")["members"]
        return next((m for m in members if m.get("name") == "sam"), None)
    if sam() is None:
        r = w.alice_host.peerctl("profile", "add", "sam")
        if r.returncode != 0:
            raise CheckFailed(f"peerctl profile add sam on alice: exit {r.returncode}: {(r.stdout + r.stderr)[:300]}")
    found = sam()
    if found is None or not found.get("peer") or found["peer"] == w.peer_id(w.alice_host):
        raise CheckFailed(f"peerctl profile list --json on alice after adding sam: {found}")
    return found


CHECKS = [
    ("shut: before any link nothing listens on alice's device port", check_shut),
    ("link: a linked phone lands on alice's list, taps a movie, Want and a vote in Tonight; alice's on both peers",
     check_link),
    ("manifest: the linked page names a web app manifest whose icons load", check_manifest),
    ("reloads: a phone loads the page five times in a row, each ready, none refused as too many", check_reloads),
    ("unlink: the next API request gets 401 and the open streams end within 1 s; a navigation shows link again",
     check_unlink),
    ("links: a forged, a reused and an expired link get 401 and link nothing", check_links),
    ("capability: a phone's cookie from a third address gets 401; from the phone it works", check_capability),
    ("door: a wrong Host 421, no Origin 403, a device can't name another member, a restart keeps the device",
     check_door),
    ("profile: a phone linked with --profile sam marks as sam on both peers, not as alice", check_profile,
     profiles_missing),
    ("profile removed: the phone of a removed profile is out within 1 s, its open streams included",
     check_profile_removed, profiles_missing),
    ("shut again: with every device unlinked, alice restarted listens on no device port until the next link",
     check_shut_again),
    ("machine removed: bob removes alice from the group; her phone is out within 1 s, its streams included",
     check_machine_removed),
]


# MARK: main


def hello(w, seconds):
    return (f"devices: alice {w.ids['h1'][:8]} ({w.alice_host.ip}), bob {w.ids['h2'][:8]} ({w.bob_host.ip}) "
            f"connected with {len(gl.MOVIES)} movies; phones {', '.join(p.host.ip for p in w.phones)} with "
            f"Chromium {w.phones[0].version}; third address {w.third_host.ip}; {seconds:.1f} s")


if __name__ == "__main__":
    sys.exit(gl.main("devices", __doc__, CHECKS, dl.DeviceWorld, hello, hosts=5,
                     layout=f"h1 alice, h2 bob (peerd, static peers, avahi off), h3 and h4 phones (Chromium "
                            f"{gl.PHONE_SIZE[0]}×{gl.PHONE_SIZE[1]}, touch), h5 a third address"))
