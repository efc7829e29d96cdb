"""Members' marks on the page (proto/WEB.md), in Chromium: the cards' badges (who wants it, who has
seen it, the average rating), the list's filters and sort, my marks set in the movie view by a tap on
a phone-sized viewport with touch and by the keyboard alone, each shown live on the other daemon's
page, and the Activity view built from history.

Marks are set through each daemon's own API (as its page would) or on the page itself. Waits are on
conditions: WebDriverWait from Python, or in the page a MutationObserver that stamps when what is
awaited first holds (the page's clock, the machine's wall clock), so that a live update is measured
against when its mark was made and held to test_web.LIVE_BOUND_MS."""
import datetime

from harness import CheckFailed

APPEAR = 15.0  # s: what a page shows comes within this on a loaded machine (bounds are measured, not waited)
LIVE_BOUND_MS = 1000  # WEB.md: a change is on the other page within this
PHONE = (360, 740)


class Movies:
    """The three movies these checks mark, added by alice: ids no other check uses."""

    def __init__(self, w):
        self.one, self.two, self.three = w.movie_id(), w.movie_id(), w.movie_id()
        self.titles = {self.one: "Marks One", self.two: "Marks Two", self.three: "Marks Three"}


def movies(w):
    if not hasattr(w, "marks_movies"):
        w.marks_movies = Movies(w)
    return w.marks_movies


# MARK: helpers


def ask(w, name, request):
    """A control request through `name`'s page API; its response, which must not be an error."""
    r = w.api[name].request({**request, "version": 1})
    body = r.json() if r.status == 200 else {}
    if r.status != 200 or body.get("type") == "error":
        raise CheckFailed(f"{request['type']} on {name}'s API: {r.status} {r.body[:200]!r}")
    return body


def mark(w, name, movie, *marks):
    """`name` sets marks (`(kind, set, extra)`) on `movie`; the wall-clock ms when the answer came."""
    body = ask(w, name, {"type": "mark", "movie": {"id": movie},
                         "marks": [{"kind": kind, "set": on, **extra} for kind, on, extra in marks]})
    if body.get("type") != "marked":
        raise CheckFailed(f"mark on {name}: {body}")
    import web_support as ws
    return ws.now_ms()


def listed(w, name, **fields):
    """The ids `list` answers on `name` with these fields, first page of 50 (the page's first)."""
    return [m["movieId"] for m in ask(w, name, {"type": "list", "limit": 50, **fields})["movies"]]


def until(page, condition, what, timeout=APPEAR):
    """WebDriverWait on `condition(page)`; its truthy value, or CheckFailed naming `what`."""
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.support.ui import WebDriverWait
    try:
        return WebDriverWait(page.driver, timeout, poll_frequency=0.05).until(lambda _: condition(page))
    except TimeoutException:
        raise CheckFailed(f"{what}: not within {timeout:g} s on {page.browser.name}'s page; {page.state()}") from None


def when(page, condition, args=(), what="", timeout=APPEAR):
    """Waits in the page until the JS expression `condition` (over `a`, the list `args`) holds,
    tested at once and on every DOM mutation; returns Date.now() when it first did."""
    page.driver.set_script_timeout(timeout + 10)
    at = page.driver.execute_async_script(f"""
      const done = arguments[arguments.length - 1], a = arguments[0];
      const test = () => {{ try {{ return Boolean({condition}); }} catch (e) {{ return false; }} }};
      if (test()) return done(Date.now());
      const watch = new MutationObserver(() => {{
        if (!test()) return;
        watch.disconnect(); clearTimeout(timer); done(Date.now());
      }});
      const timer = setTimeout(() => {{ watch.disconnect(); done(null); }}, {int(timeout * 1000)});
      watch.observe(document, {{childList: true, subtree: true, attributes: true, characterData: true}});
    """, list(args))
    if at is None:
        raise CheckFailed(f"{what}: not within {timeout:g} s on {page.browser.name}'s page; {page.state()}")
    return at


def bound(what, ms):
    if ms > LIVE_BOUND_MS:
        raise CheckFailed(f"{what}: {ms:.0f} ms, over the {LIVE_BOUND_MS} ms bound")
    return ms


def show_card(page, movie):
    """Scrolls the list until `movie`'s card is loaded (a long list comes 50 at a time)."""
    until(page, lambda p: p.js("window.scrollTo(0, document.body.scrollHeight)") or p.has_card(movie),
          f"card {movie}, scrolling down for it")


def badges(page, movie):
    """The card's badges: {kind: [what the eye sees, what a screen reader reads, aria-hidden of the first, mine]}."""
    return page.js("""
      const c = document.querySelector(`ol#movies > li.card[data-movie-id='${arguments[0]}']`);
      if (!c) return null;
      return Object.fromEntries([...c.querySelectorAll('.marks .badge')].map(b => [
        ['want', 'seen', 'rating', 'veto'].find(k => b.classList.contains(k)),
        [b.firstChild.textContent, b.querySelector('.vh').textContent, b.firstChild.getAttribute('aria-hidden'),
         b.classList.contains('mine')]]));""", str(movie))


def fresh_list(page):
    """The page loaded anew: the whole list, unfiltered, in its order."""
    page.open(timeout=APPEAR)
    page.js("window.scrollTo(0, 0)")


def open_view(page, movie, title):
    page.js("location.hash = arguments[0]", f"#movie/{movie}")
    until(page, lambda p: p.js("const d = document.querySelector('dialog#movie');"
                               "return d.open && document.getElementById('movie-title').textContent") == title,
          f"the movie view of {movie}")
    until(page, lambda p: p.js("return !!document.querySelector('dialog#movie #mark-want')"),
          f"the marks of {movie} in its view")


def pressed(page, kind):
    return page.js("const b = document.getElementById(arguments[0]); return b && b.getAttribute('aria-pressed')",
                   f"mark-{kind}")


def focus_ring(page):
    style = page.js("const s = getComputedStyle(document.activeElement); return [s.outlineStyle, s.outlineWidth]")
    if style[0] == "none" or style[1] in ("0px", ""):
        raise CheckFailed(f"{page.js('return document.activeElement.id')} has the focus and shows no ring: {style}")
    return f"{style[0]} {style[1]}"


# MARK: checks


def check_badges(w):
    """Three movies on alice's page, then marks made on both daemons: the cards' badges change, live."""
    a = w.page("alice")
    w.live("alice", "bob")
    m = movies(w)
    for movie, title in m.titles.items():
        ask(w, "alice", {"type": "add", "movie": {"id": movie, "title": title, "year": 1990 + movie % 10}})
    session = a.session()
    for movie in m.titles:
        show_card(a, movie)
    if any(badges(a, movie) for movie in m.titles):
        raise CheckFailed(f"badges on unmarked cards: {[badges(a, movie) for movie in m.titles]}")
    mark(w, "alice", m.one, ("want", True, {}))
    mark(w, "alice", m.three, ("rating", True, {"rating": 9}))
    mark(w, "bob", m.one, ("want", True, {}), ("rating", True, {"rating": 4}))
    mark(w, "bob", m.two, ("want", True, {}), ("seen", True, {"on": "2026-01-02"}), ("veto", True, {}))
    made = mark(w, "bob", m.three, ("rating", True, {"rating": 7}))
    shown = when(a, "document.querySelector(`li.card[data-movie-id='${a[0]}'] .badge.rating`)?.dataset.rating === '8'",
                 [str(m.three)], f"card {m.three}'s average rating 8.0 after bob rated it")
    when(a, "document.querySelector(`li.card[data-movie-id='${a[0]}'] .badge.veto`)", [str(m.two)],
         f"card {m.two}'s veto badge")
    when(a, "document.querySelector(`li.card[data-movie-id='${a[0]}'] .badge.want`)?.dataset.count === '2'",
         [str(m.one)], f"card {m.one} wanted by 2")
    one, two, three = (badges(a, movie) for movie in (m.one, m.two, m.three))
    expected = {
        # A rating is a viewing (PEER.md, "Marks"): bob rated m.one, alice and bob m.three.
        m.one: (one, {"want": ["♥ 2", "Wanted by alice, bob.", "true", True],
                      "seen": ["✓ 1", "Seen by bob.", "true", False],
                      "rating": ["★ 4.0", "Rated 4.0 of 10 on average by bob.", "true", False]}),
        m.two: (two, {"want": ["♥ 1", "Wanted by bob.", "true", False],
                      "seen": ["✓ 1", "Seen by bob.", "true", False],
                      "veto": ["✕ 1", "Vetoed by bob.", "true", False]}),
        m.three: (three, {"seen": ["✓ 2", "Seen by alice, bob.", "true", True],
                          "rating": ["★ 8.0", "Rated 8.0 of 10 on average by alice, bob.", "true", True]}),
    }
    wrong = {movie: (got, want) for movie, (got, want) in expected.items() if got != want}
    if wrong:
        raise CheckFailed(f"badges (seen, read, aria-hidden, mine) {wrong}")
    api = {r["movieId"]: r for r in listed_rows(w, "alice") if r["movieId"] in m.titles}
    if api[m.three].get("averageRating") != 8 or len(api[m.one].get("marks", [])) != 2:
        raise CheckFailed(f"the daemon's rows: {api}")
    if a.session() != session:
        raise CheckFailed("alice's page was reloaded")
    return (f"{m.one}: {one['want'][1]!r} (mine outlined) {one['rating'][1]!r}; {m.two}: "
            f"{' '.join(v[0] for v in two.values())}; {m.three}: {three['rating'][0]} — the last on alice's page "
            f"{shown - made:.0f} ms after bob's mark returned; compact text aria-hidden, words for screen readers")


def check_filters(w):
    """alice's filters: 'Not seen by any of us' keeps what the daemon's unseen list keeps (a rated
    movie is seen until its raters say they haven't seen it), and a movie bob marks seen leaves it
    live; 'Wanted by me' keeps only alice's; sort by rating orders by the average."""
    from selenium.webdriver.support.ui import Select
    a = w.page("alice")
    w.live("alice", "bob")
    m = movies(w)
    # A rating is a viewing: m.one and m.three, rated, are seen, until their raters say otherwise.
    rated = [movie for movie in (m.one, m.three) if movie in listed(w, "alice", unseen=True, limit=10000)]
    if rated:
        raise CheckFailed(f"{rated}, rated, listed as not seen by any of us")
    mark(w, "bob", m.one, ("seen", False, {}))
    mark(w, "alice", m.three, ("seen", False, {}))
    mark(w, "bob", m.three, ("seen", False, {}))
    until(a, lambda _: {m.one, m.three} <= set(listed(w, "alice", unseen=True, limit=10000)),
          f"{m.one} and {m.three} not seen once their raters said so")
    fresh_list(a)
    until(a, lambda p: p.card_ids() == listed(w, "alice"), "alice's unfiltered page as the list's first page")
    a.driver.find_element("css selector", "label:has(> input#f-unseen)").click()
    unseen = listed(w, "alice", unseen=True)
    until(a, lambda p: p.card_ids() == unseen, "the cards of the daemon's unseen list")
    if m.two in listed(w, "alice", unseen=True, limit=10000) or m.two in a.card_ids():
        raise CheckFailed(f"{m.two}, seen by bob, under 'not seen by any of us'")
    Select(a.driver.find_element("css selector", "select#sort")).select_by_visible_text("Rating")
    by_rating = listed(w, "alice", unseen=True, sort="rating")
    until(a, lambda p: p.card_ids() == by_rating, "the unseen cards sorted by rating")
    if by_rating[:2] != [m.three, m.one]:
        raise CheckFailed(f"sorted by rating, unseen: {by_rating[:4]}; expected {m.three} (8.0), {m.one} (4.0) first")
    ratings = a.js("return [...document.querySelectorAll('ol#movies > li.card')].map(c =>"
                   "Number(c.querySelector('.badge.rating')?.dataset.rating ?? -1))")
    if ratings != sorted(ratings, reverse=True):
        raise CheckFailed(f"the cards' average ratings, in page order: {ratings[:6]}…")
    # bob has seen m.one now: it leaves alice's unseen list, live.
    made = mark(w, "bob", m.one, ("seen", True, {}))
    gone = when(a, "!document.querySelector(`li.card[data-movie-id='${a[0]}']`)", [str(m.one)],
                f"card {m.one}, seen by bob, gone under 'not seen'")
    left = bound(f"card {m.one} off alice's filtered page after bob's seen mark returned", gone - made)
    a.driver.find_element("css selector", "label:has(> input#f-unseen)").click()
    a.driver.find_element("css selector", "label:has(> input#f-mine)").click()
    mine = listed(w, "alice", wantedBy=["me"], sort="rating")
    if mine != [m.one]:
        raise CheckFailed(f"the daemon's list wanted by alice: {mine}; expected only {m.one}")
    until(a, lambda p: p.card_ids() == mine, "only the movie alice wants")
    # alice wants m.three too (through her API, as another tab would): it joins, first by rating.
    made = mark(w, "alice", m.three, ("want", True, {}))
    joined = when(a, "document.querySelector(`li.card[data-movie-id='${a[0]}']`)", [str(m.three)],
                  f"card {m.three}, wanted by alice now, on her 'wanted by me' page")
    until(a, lambda p: p.card_ids() == [m.three, m.one], f"{m.three} before {m.one} by rating")
    came = bound(f"card {m.three} on alice's 'wanted by me' page after her mark returned", joined - made)
    count = a.js("return document.getElementById('count').textContent")
    a.driver.find_element("css selector", "label:has(> input#f-mine)").click()
    Select(a.driver.find_element("css selector", "select#sort")).select_by_value("added")
    whole = listed(w, "alice")
    until(a, lambda p: p.card_ids() == whole, "the whole list again with the filters off")
    return (f"not seen: {len(unseen)} cards as the daemon's first page, without {m.two}; by rating "
            f"{by_rating[:2]} first, averages non-increasing; {m.one} left {left:.0f} ms after bob's seen mark; "
            f"wanted by me: [{m.one}], then {m.three} joined {came:.0f} ms after alice's want "
            f"(header {count.strip()!r}); "
            f"filters off: the list's first page again")


def phone(page, on):
    """A 360 px phone with touch (CDP emulation), or back to the desktop window."""
    driver = page.driver
    if on:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": PHONE[0], "height": PHONE[1],
                                                                      "deviceScaleFactor": 2, "mobile": True})
        driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
        until(page, lambda p: p.js("return window.innerWidth === arguments[0] && navigator.maxTouchPoints > 0",
                                   PHONE[0]), "a 360 px viewport with touch")
    else:
        driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": False})
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def tap(page, selector):
    """A tap with a finger (CDP touch events) at the middle of `selector`; the pointer type the page saw."""
    page.js("window.__pointers = []; document.addEventListener('pointerdown', e => __pointers.push(e.pointerType),"
            "{capture: true, once: true}); document.querySelector(arguments[0]).scrollIntoView({block: 'center'})",
            selector)
    x, y = page.js("const r = document.querySelector(arguments[0]).getBoundingClientRect();"
                   "return [r.left + r.width / 2, r.top + r.height / 2]", selector)
    point = {"x": x, "y": y, "radiusX": 4, "radiusY": 4, "force": 1, "id": 0}
    page.driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
    page.driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    return until(page, lambda p: p.js("return window.__pointers[0]"), f"a pointer on {selector} after the tap")


def check_touch(w):
    """bob on a phone taps Want in the movie view of a movie: alice's card of it says bob wants it, live."""
    a, b = w.page("alice"), w.page("bob")
    w.live("alice", "bob")
    m = movies(w)
    fresh_list(a)
    show_card(a, m.three)
    before = badges(a, m.three).get("want", ["", ""])[1]
    if "bob" in before:
        raise CheckFailed(f"card {m.three} says {before!r} before bob's tap")
    b.open(timeout=APPEAR)
    try:
        phone(b, True)
        open_view(b, m.three, m.titles[m.three])
        if pressed(b, "want") != "false":
            raise CheckFailed(f"bob's Want of {m.three} pressed before the tap: {pressed(b, 'want')}")
        fits = b.js("const w = document.documentElement.clientWidth; return [...document.querySelectorAll("
                    "'dialog#movie .my-marks button, dialog#movie .my-marks select, dialog#movie .my-marks input')]"
                    ".map(e => e.getBoundingClientRect())"
                    ".filter(r => r.right > w + 0.5 || r.left < -0.5 || r.height < 40)"
                    ".length")
        if fits:
            raise CheckFailed(f"{fits} of bob's mark controls are over the 360 px edge or under 40 px tall")
        kind = tap(b, "#mark-want")
        if kind != "touch":
            raise CheckFailed(f"the tap came as pointer {kind!r}")
        tapped = until(b, lambda p: p.last_click("#mark-want"), "the click of bob's tap on #mark-want")
        on_a = when(a, "document.querySelector(`li.card[data-movie-id='${a[0]}'] .badge.want .vh`)?.textContent"
                       ".includes('bob')", [str(m.three)], f"card {m.three} wanted by bob on alice's page")
        until(b, lambda p: pressed(p, "want") == "true", "bob's Want pressed after his tap")
        said = badges(a, m.three)["want"][1]
        wide = b.js("const d = document.querySelector('dialog#movie'); return [d.scrollWidth, d.clientWidth]")
        if wide[0] > wide[1]:
            raise CheckFailed(f"the movie view at 360 px scrolls sideways: {wide[0]} px in {wide[1]}")
        b.js("document.getElementById('movie-close').click()")
    finally:
        phone(b, False)
    if m.three not in [r["movieId"] for r in listed_rows(w, "alice", wantedBy=["bob"])]:
        raise CheckFailed(f"alice's daemon doesn't list {m.three} as wanted by bob")
    ms = bound(f"card {m.three} wanted by bob on alice's page after bob's tap", on_a - tapped)
    return (f"bob at {PHONE[0]}×{PHONE[1]} with touch: mark controls in the viewport, ≥ 40 px tall; a {kind} tap "
            f"on Want → alice's card says {said!r} {ms:.0f} ms after the tap")


def listed_rows(w, name, **fields):
    return ask(w, name, {"type": "list", "limit": 10000, **fields})["movies"]


def check_keyboard(w):
    """alice, by keyboard alone: 'Wanted by me', Tab to a card, Enter, Tab to Seen and Enter, Tab to
    her rating and type 8; bob's open view of the movie shows it, live."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys
    from web_support import tab_to
    a, b = w.page("alice"), w.page("bob")
    w.live("alice", "bob")
    m = movies(w)
    b.open(timeout=APPEAR)
    open_view(b, m.three, m.titles[m.three])
    fresh_list(a)
    keys = lambda *k: ActionChains(a.driver).send_keys(*k).perform()  # noqa: E731
    a.driver.find_element("css selector", "h1").click()
    presses = [tab_to(a, "input#f-mine", 20)]
    if presses[0] is None:
        raise CheckFailed("20 presses of Tab never reached input#f-mine")
    ring = focus_ring(a)
    keys(Keys.SPACE)
    until(a, lambda p: p.card_ids() == [m.one, m.three] or p.card_ids() == [m.three, m.one],
          "alice's wanted movies after Space on 'Wanted by me'")
    presses.append(tab_to(a, f"li.card[data-movie-id='{m.three}'] a.movie-link", 10))
    if presses[-1] is None:
        raise CheckFailed(f"10 presses of Tab never reached card {m.three}")
    keys(Keys.ENTER)
    until(a, lambda p: p.js("return document.activeElement.id") == "movie-close", "the view open, Close focused")
    until(a, lambda p: p.js("return !!document.getElementById('mark-seen')"), "alice's Seen button")
    presses.append(tab_to(a, "#mark-seen", 12))
    if presses[-1] is None:
        raise CheckFailed("12 presses of Tab never reached #mark-seen")
    seen_ring = focus_ring(a)
    keys(Keys.ENTER)
    today = datetime.date.today().isoformat()
    pressed_at = until(a, lambda p: p.js("return window.__web.clicks.filter(c => c.what === '#mark-seen').pop()?.at"),
                       "the recorder seeing Enter's click on #mark-seen")
    on_b = when(b, "document.querySelector(`dialog#movie li.member[data-peer='${a[0]}']`)?.textContent"
                   ".includes(`saw it on ${a[1]}`)", [w.alice.id, today], "alice's seen mark in bob's open view")
    until(a, lambda p: pressed(p, "seen") == "true", "alice's Seen pressed")
    if a.js("return document.activeElement.id") != "mark-seen":
        raise CheckFailed(f"after Enter the focus went to {a.js('return document.activeElement.id')!r}, "
                          f"not staying on #mark-seen")
    presses.append(tab_to(a, "select#my-rating", 8))
    if presses[-1] is None:
        raise CheckFailed("8 presses of Tab never reached select#my-rating")
    keys("8")
    rated = when(b, "document.querySelector(`dialog#movie li.member[data-peer='${a[0]}']`)?.textContent"
                    ".includes('rates it 8/10')", [w.alice.id], "alice's rating 8 in bob's open view")
    line = b.js("return document.querySelector(`dialog#movie li.member[data-peer='${arguments[0]}']`).textContent",
                w.alice.id)
    average = b.js("return document.querySelector('dialog#movie .average')?.textContent")
    keys(Keys.ESCAPE)
    until(a, lambda p: p.js("return document.activeElement.matches(arguments[0])",
                            f"li.card[data-movie-id='{m.three}'] a.movie-link"), "the focus back on the card")
    b.js("document.getElementById('movie-close').click()")
    ms = bound("alice's seen mark in bob's open view after her Enter", on_b - pressed_at)
    return (f"Tab ×{presses[0]} to 'Wanted by me' (ring {ring}), Space; Tab ×{presses[1]} to card {m.three}, Enter; "
            f"Tab ×{presses[2]} to Seen (ring {seen_ring}), Enter → bob's view {ms:.0f} ms later, focus kept; "
            f"Tab ×{presses[3]} to the rating, 8 → bob's view {rated - pressed_at:.0f} ms after Seen's Enter: "
            f"{line.strip()!r}, {average!r}; Escape back to the card")


def entries(page):
    return page.js("return [...document.querySelectorAll('ol#history > li.entry')].map(e =>"
                   "[e.dataset.cursor, e.querySelector('.what').textContent])")


def contiguous(shown, history, what):
    """`shown` ([cursor, text]…) is a run of the daemon's history (newest first), text for text."""
    cursors = [e["cursor"] for e in history]
    if not shown or shown[0][0] not in cursors:
        raise CheckFailed(f"{what}: its first line {shown[:1]} is not in the daemon's history")
    start = cursors.index(shown[0][0])
    expected = [[e["cursor"], e["text"]] for e in history[start:start + len(shown)]]
    if shown != expected:
        at = next(i for i, (x, y) in enumerate(zip(shown + [None] * len(expected), expected)) if x != y)
        raise CheckFailed(f"{what}: line {at} is {shown[at] if at < len(shown) else None}, the daemon's "
                          f"{expected[at]}")


def check_activity(w):
    """alice's Activity view: the daemon's history newest first, in its words; More brings the next
    page; a mark made on bob comes to the top, live; a line links to its movie's view."""
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.common.action_chains import ActionChains
    a = w.page("alice")
    w.live("alice", "bob")
    m = movies(w)
    # Two pages of history at least (run alone, no earlier check made them): alice adds what is missing.
    missing = 110 - len(ask(w, "alice", {"type": "history", "limit": 110})["entries"])
    if missing > 0:
        import web_support as ws
        ws.control_batch(w.alice.socket, [ws.add_request(w.movie_id(), f"History {i}") for i in range(missing)])
    fresh_list(a)
    a.driver.find_element("css selector", "a#to-activity").click()
    until(a, lambda p: p.js("return document.body.dataset.activity") == "ready" and len(entries(p)) >= 50,
          "50 lines in the Activity view")
    first = entries(a)
    history = ask(w, "alice", {"type": "history", "limit": 300})["entries"]
    contiguous(first, history, "the Activity view")
    if a.js("return location.hash") != "#activity" or a.js("return document.getElementById('to-activity')"
                                                             ".getAttribute('aria-current')") != "page":
        raise CheckFailed(f"hash {a.js('return location.hash')!r}, a#to-activity not the current view")
    a.driver.find_element("css selector", "button#more-history").click()
    until(a, lambda p: len(entries(p)) >= len(first) + 50, "50 more lines after More")
    both = entries(a)
    history = ask(w, "alice", {"type": "history", "limit": 300})["entries"]
    contiguous(both, history, "the Activity view after More")
    if len({c for c, _ in both}) != len(both):
        raise CheckFailed("the Activity view repeats lines after More")
    made = mark(w, "bob", m.two, ("rating", True, {"rating": 6}))
    title = m.titles[m.two]
    top = when(a, "document.querySelector('ol#history > li.entry .what')?.textContent.startsWith(`bob rated ${a[0]}`)",
               [title], "bob's rating at the top of alice's Activity view")
    line = entries(a)[0][1]
    ms = bound("bob's rating in alice's Activity view after his mark returned", top - made)
    history = ask(w, "alice", {"type": "history", "limit": 300})["entries"]
    contiguous(entries(a), history, "the Activity view after bob's rating")
    link = a.driver.find_element("css selector", f"ol#history > li.entry[data-movie-id='{m.two}'] a.what")
    a.js("arguments[0].scrollIntoView({block: 'center'})", link)
    link.click()
    until(a, lambda p: p.js("return document.querySelector('dialog#movie').open && "
                            "document.getElementById('movie-title').textContent") == title, "the line's movie view")
    ActionChains(a.driver).send_keys(Keys.ESCAPE).perform()
    until(a, lambda p: p.js("return location.hash") == "#activity" and not p.js(
        "return document.querySelector('dialog#movie').open"), "back on #activity after Escape")
    a.js("location.hash = ''")
    return (f"{len(first)} lines as the daemon's history ({first[0][1]!r} first), {len(both)} after More, none "
            f"twice; bob's rating "
            f"on top {ms:.0f} ms after it returned: {line!r}; its link opens the movie view, Escape back to #activity")


CHECKS = [
    ("marks: cards show who wants it, who has seen it and the average rating, live", check_badges),
    ("marks: filters 'not seen by any of us' and 'wanted by me', sort by rating; a seen mark leaves live",
     check_filters),
    ("marks: a tap on Want on bob's phone-sized page shows on alice's card ≤ 1 s", check_touch),
    ("marks: alice sets Seen and a rating by keyboard alone; bob's open movie view shows them ≤ 1 s", check_keyboard),
    ("marks: the Activity view lists history newest first, pages with More, updates live", check_activity),
]
