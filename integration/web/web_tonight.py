"""The Tonight view (proto/WEB.md): a pick opened on alice's page shows its first card on bob's
page without a reload; alice votes with the arrow keys alone, bob on a 360×740 viewport with touch
(a swipe, then taps); the result is announced on both pages and equals `peerctl pick --status`'s on
both daemons. Then a vote made with `peerctl vote` on bob moves the progress on alice's page, live,
from the `pick` event's state alone (the page asks no `pickStatus` for it).

Waits are on conditions (WebDriverWait, or a MutationObserver in the page); a live update is held to
LIVE_BOUND_MS against when what caused it returned."""
import json

from harness import CheckFailed
import web_support as ws
from web_marks import APPEAR, PHONE, ask, bound, focus_ring, phone, tap, until, when

TITLES = ["Tonight One", "Tonight Two", "Tonight Three"]


def deck_of_three(w):
    """Three fresh movies on the list, and every other listed movie seen by alice: a pick of the
    list by alice and bob has exactly these three (CONTROL.md, "pick": seen movies are left out)."""
    ids = [w.movie_id() for _ in TITLES]
    ws.control_batch(w.alice.socket, [ws.add_request(m, t, 2000 + i) for i, (m, t) in enumerate(zip(ids, TITLES))])
    rows = ask(w, "alice", {"type": "list", "limit": 10000})["movies"]
    others = [r["movieId"] for r in rows if r["movieId"] not in ids]
    marks = [{"type": "mark", "version": 1, "movie": {"id": m}, "marks": [{"kind": "seen", "set": True}]}
             for m in others]
    for start in range(0, len(marks), 100):
        for r in ws.control_batch(w.alice.socket, marks[start:start + 100]):
            if r.get("type") == "error":
                raise CheckFailed(f"marking the rest of the list seen: {r}")
    return ids


def close_all(w):
    """No pick left open from an earlier check, whoever opened it."""
    for _ in range(20):
        if w.alice.peerctl("pick", "--close", "--force").returncode != 0:
            return


def show_tonight(page):
    page.js("location.hash = '#tonight'")
    until(page, lambda p: p.js("return document.body.dataset.tonight === 'ready' && "
                               "!document.getElementById('tonight').hidden"), "the Tonight view")


def status(daemon):
    r = daemon.peerctl("pick", "--status", "--json")
    if r.returncode != 0:
        raise CheckFailed(f"peerctl pick --status on {daemon.name}: {r.returncode} {r.stdout}{r.stderr}")
    return json.loads(r.stdout)


def card(page):
    return page.js("const c = document.querySelector('#pick-card article.pick-card');"
                   "return c && !document.getElementById('pick-vote').hidden ? Number(c.dataset.movieId) : null")


def others_through(w, voters, ranking=None):
    """A voter other than alice and bob (carol, when an earlier check started her) votes no through
    the deck, or ranks the finalists in `ranking`'s order."""
    for v in voters:
        if v.get("peer") in (w.alice.id, w.bob.id):
            continue
        if w.carol and v.get("peer") == w.carol.id and ranking:
            ws_peerctl(w.carol, "vote", "--rank", ",".join(map(str, ranking)))
        elif w.carol and v.get("peer") == w.carol.id:
            while w.carol.peerctl("vote", "no").returncode == 0:
                pass
        else:
            raise CheckFailed(f"a voter the test can't vote for: {v}")


def swipe(page, selector, dx):
    """A finger drag (CDP touch events) from the middle of `selector`, `dx` px sideways."""
    page.js("document.querySelector(arguments[0]).scrollIntoView({block: 'center'})", selector)
    x, y = page.js("const r = document.querySelector(arguments[0]).getBoundingClientRect();"
                   "return [r.left + r.width / 2, r.top + r.height / 2]", selector)
    send = lambda kind, points: page.driver.execute_cdp_cmd(  # noqa: E731
        "Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})
    point = lambda at: {"x": at, "y": y, "radiusX": 4, "radiusY": 4, "force": 1, "id": 0}  # noqa: E731
    send("touchStart", [point(x)])
    for step in range(1, 11):
        send("touchMove", [point(x + dx * step / 10)])
    send("touchEnd", [])


def check_pick_on_pages(w):
    """alice starts a pick on her page; bob's open Tonight view shows its first card live; alice
    votes with → and ← alone, bob with a swipe and taps at 360×740 with touch; both pages announce
    the result the daemons hold."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys
    a, b = w.page("alice"), w.page("bob")
    w.live("alice", "bob")
    close_all(w)
    ids = w.tonight_deck = deck_of_three(w)
    b.open(timeout=APPEAR)
    session = b.session()
    show_tonight(b)
    a.open(timeout=APPEAR)
    a.driver.find_element("css selector", "a#to-tonight").click()
    until(a, lambda p: p.js("return document.getElementById('to-tonight').getAttribute('aria-current')") == "page"
          and p.js("return document.body.dataset.tonight") == "ready", "alice's Tonight view")
    until(a, lambda p: p.js("return !document.getElementById('pick-start').hidden"), "alice's Start a pick")
    a.driver.find_element("css selector", "button#start-pick").click()
    clicked = until(a, lambda p: p.last_click("#start-pick"), "the click on #start-pick")
    shown = when(b, "document.querySelector('#pick-card article.pick-card') && "
                    "!document.getElementById('pick-vote').hidden", what="the first card on bob's page")
    ms = bound("the first card on bob's page after alice's click", shown - clicked)
    pick = status(w.alice)
    deck = [c["movieId"] for c in pick["deck"]]
    if sorted(deck) != sorted(ids):
        raise CheckFailed(f"the pick's deck {deck}, expected the three movies {ids}")
    if b.session() != session:
        raise CheckFailed("bob's page was reloaded")
    others_through(w, pick["voters"])
    # alice, by the keyboard alone: → yes, ← no, then → again.
    until(a, lambda p: card(p) == deck[0], "alice's first card")
    ring = None
    keys = [Keys.ARROW_RIGHT, Keys.ARROW_LEFT, Keys.ARROW_RIGHT]
    for i, key in enumerate(keys):
        ActionChains(a.driver).send_keys(key).perform()
        if i + 1 < len(deck):
            until(a, lambda p: card(p) == deck[i + 1], f"alice's card {i + 2} after her key")
        else:
            until(a, lambda p: card(p) is None, "alice through the deck")
        if ring is None and a.js("return document.activeElement.id") == "vote-yes":
            ring = focus_ring(a)
    # bob on a phone: taps on Yes and No, then a swipe right on the last card.
    try:
        phone(b, True)
        until(b, lambda p: card(p) == deck[0], "bob's first card at 360 px")
        wide = b.js("return [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        if wide[0] > wide[1]:
            raise CheckFailed(f"bob's Tonight view at 360 px scrolls sideways: {wide[0]} px in {wide[1]}")
        small = b.js("return ['vote-yes', 'vote-no'].map(i => document.getElementById(i).getBoundingClientRect())"
                     ".filter(r => r.height < 40 || r.right > document.documentElement.clientWidth).length")
        if small:
            raise CheckFailed(f"{small} of the vote buttons are under 40 px tall or over the edge")
        kinds = [tap(b, "#vote-yes")]
        until(b, lambda p: card(p) == deck[1], "bob's second card after his tap on Yes")
        kinds.append(tap(b, "#vote-no"))
        until(b, lambda p: card(p) == deck[2], "bob's third card after his tap on No")
        swipe(b, "#pick-card article.pick-card", 200)
        until(b, lambda p: card(p) is None, "bob through the deck")
    finally:
        phone(b, False)
    if set(kinds) != {"touch"}:
        raise CheckFailed(f"bob's taps came as pointers {kinds}")
    said = {}
    for name, page in (("alice", a), ("bob", b)):
        until(page, lambda p: p.js("return document.getElementById('tonight').dataset.outcome") in ("chosen", "none"),
              f"the result on {name}'s page")
    for d in (w.alice, w.bob):
        st = until(a, lambda _: (lambda s: s if s["outcome"] != "voting" else None)(status(d)),
                   f"{d.name}'s pick --status with a result")
        result = st.get("result")
        for name, page in (("alice", a), ("bob", b)):
            text = page.js("return document.getElementById('pick-result').textContent")
            movie = page.js("return document.getElementById('pick-result').dataset.movieId || null")
            live = page.js("return document.getElementById('pick-result').getAttribute('aria-live')")
            if live != "polite":
                raise CheckFailed(f"#pick-result on {name}'s page is not an aria-live region: {live!r}")
            if result:
                # Under the view's heading "Tonight", the result says "Chosen", not "Tonight" again.
                want = f"Chosen: {result['title']} ({result['year']})"
                if movie != str(result["movieId"]) or want not in text:
                    raise CheckFailed(f"{name}'s page says {text!r} ({movie}); {d.name}'s daemon: {want}")
            elif movie or "no movie" not in text.lower():
                raise CheckFailed(f"{name}'s page says {text!r}; {d.name}'s daemon chose none")
            said[name] = text
    close_all(w)
    return (f"bob's first card {ms:.0f} ms after alice's click, no reload; alice by →←→ (ring {ring}), bob by a "
            f"swipe and {len(kinds)} touch taps at {PHONE[0]}×{PHONE[1]}; both pages: {said['alice']!r}, as "
            f"pick --status on both daemons")


def check_progress_live(w):
    """bob opens a majority pick with peerctl and votes with `peerctl vote yes`: alice's Tonight view
    shows bob's progress 1 of 3 live, then closes it with its button, which names bob's pick; the
    result shows on her page."""
    a = w.page("alice")
    w.live("alice", "bob")
    if not hasattr(w, "tonight_deck"):
        w.tonight_deck = deck_of_three(w)
    close_all(w)
    a.open(timeout=APPEAR)
    show_tonight(a)
    opened = w.bob.peerctl("pick", "--mode", "majority", "--json")
    if opened.returncode != 0:
        raise CheckFailed(f"peerctl pick on bob: {opened.stdout}{opened.stderr}")
    pick = json.loads(opened.stdout)
    others_through(w, pick["voters"])
    until(a, lambda p: p.js("return document.getElementById('tonight').dataset.pick") ==
          f"{pick['pick']['origin']}:{pick['pick']['seq']}" and card(p) is not None, "bob's pick on alice's page")
    n = len(pick["deck"])
    asked = lambda: a.js("return window.__web.requests.filter(r => r.type === 'pickStatus').length")  # noqa: E731
    before = asked()
    _, voted = ws_peerctl(w.bob, "vote", "yes")
    at = when(a, "document.querySelector(`#pick-voters li.voter[data-peer='${a[0]}']`)?.dataset.voted === '1'",
              [w.bob.id], "bob's 1 vote on alice's page")
    ms = bound("bob's progress on alice's page after peerctl vote returned", at - voted)
    # The `pick` event carried the pick's whole state: alice's page drew it without asking again.
    if asked() != before:
        raise CheckFailed(f"alice's page asked pickStatus {asked() - before} times for bob's vote; the event carries it")
    line = a.js("return document.querySelector(`#pick-voters li.voter[data-peer='${arguments[0]}']`).textContent",
                w.bob.id)
    if f"1 of {n}" not in line:
        raise CheckFailed(f"bob's line on alice's page: {line!r}, expected 1 of {n}")
    # The pick is bob's: alice's button says whose pick it closes (peerctl asks for --force).
    close = a.driver.find_element("css selector", "button#close-pick")
    if close.text != "Close bob's pick":
        raise CheckFailed(f"alice's close button on bob's pick says {close.text!r}, expected \"Close bob's pick\"")
    close.click()
    until(a, lambda p: p.js("return document.getElementById('tonight').dataset.open") == "false"
          and not p.js("return document.getElementById('pick-start').hidden"), "the pick closed, Start a pick again")
    st = status(w.alice)
    text = a.js("return document.getElementById('pick-result').textContent")
    if st.get("result") and st["result"]["title"] not in text:
        raise CheckFailed(f"alice's page says {text!r}; the daemon's result {st['result']}")
    return (f"bob's line {line.strip()!r} on alice's page {ms:.0f} ms after peerctl vote returned, from the pick "
            f"event alone (no pickStatus asked); closed: {text!r}")


def ws_peerctl(daemon, *args):
    result = daemon.peerctl(*args)
    returned = ws.now_ms()
    if result.returncode != 0:
        raise CheckFailed(f"peerctl {' '.join(args)} on {daemon.name}: {result.stdout}{result.stderr}")
    return result, returned


def check_ranked(w):
    """bob opens a ranked pick of 3 finalists with peerctl; alice's Tonight view lists them, she moves
    the last one to the top with its ↑ button by Enter alone and sends her ranking; the daemon holds
    it as hers, and once bob ranks too both pages announce the runoff's result."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys
    a = w.page("alice")
    w.live("alice", "bob")
    if not hasattr(w, "tonight_deck"):
        w.tonight_deck = deck_of_three(w)
    close_all(w)
    a.open(timeout=APPEAR)
    show_tonight(a)
    opened = w.bob.peerctl("pick", "--mode", "ranked", "--finalists", "3", "--json")
    if opened.returncode != 0:
        raise CheckFailed(f"peerctl pick --mode ranked on bob: {opened.stdout}{opened.stderr}")
    pick = json.loads(opened.stdout)
    finalists = [c["movieId"] for c in pick["deck"]]
    others_through(w, pick["voters"], finalists)
    shown = lambda p: p.js("return [...document.querySelectorAll('ol#finalists > li.finalist')]"  # noqa: E731
                           ".map(li => Number(li.dataset.movieId))")
    until(a, lambda p: shown(p) == finalists and not p.js("return document.getElementById('pick-rank').hidden"),
          "the finalists on alice's page")
    last = finalists[-1]
    a.js("document.querySelector(`li.finalist[data-movie-id='${arguments[0]}'] button.up`).focus()", str(last))
    ring = focus_ring(a)
    for _ in finalists[1:]:
        ActionChains(a.driver).send_keys(Keys.ENTER).perform()
    mine = [last] + finalists[:-1]
    until(a, lambda p: shown(p) == mine, f"alice's order {mine} after ↑ twice")
    a.js("document.getElementById('send-ranking').focus()")
    ActionChains(a.driver).send_keys(Keys.ENTER).perform()
    until(a, lambda p: p.js("return document.querySelector(`#pick-voters li.voter[data-peer='${arguments[0]}']`)"
                            "?.dataset.voted", w.alice.id) == str(len(finalists)), "alice's ranking counted on her page")
    ws_peerctl(w.bob, "vote", "--rank", ",".join(map(str, finalists)))
    until(a, lambda p: p.js("return document.getElementById('tonight').dataset.outcome") in ("chosen", "none"),
          "the ranked pick's result on alice's page")
    st = status(w.alice)
    text = a.js("return document.getElementById('pick-result').textContent")
    if st.get("result") and f"Chosen: {st['result']['title']}" not in text:
        raise CheckFailed(f"alice's page says {text!r}; the daemon's result {st['result']}")
    close_all(w)
    return f"finalists {finalists}; alice by Enter on ↑ (ring {ring}): {mine}; after bob's ranking: {text!r}"


CHECKS = [
    ("tonight: a pick from alice's page; bob's page shows its card live; arrows and touch vote; both show the result",
     check_pick_on_pages),
    ("tonight: a peerctl vote on bob moves the progress on alice's Tonight view live, from the event alone",
     check_progress_live),
    ("tonight: a ranked pick: alice orders the finalists by keyboard and sends them; the runoff's result shows",
     check_ranked),
]
