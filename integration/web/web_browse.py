"""The page's Discover view and movie view (issue 21), in Chromium: bob holds no TMDB token and browses
through carol, who holds one (a fake TMDB on loopback). Rows load more as they scroll; the movie view
opens from a card and from its link, closes with Escape, works by keyboard alone and fits 360 px."""
import harness
from harness import CheckFailed
from web_marks import tap
from web_support import tab_to

APPEAR = 10.0  # s: what a page shows comes within this


def carol_running(w):
    """carol, with the token, up and connected to bob (an earlier check may have stopped her)."""
    w.carol_up()
    if not w.carol.alive():
        w.carol.start()
    harness.expect_eventually(lambda: w.carol.connected_to(w.bob), 30, "carol connected to bob")


def tiles(page, row=0):
    return page.js("const r = document.querySelectorAll('#rows section.row')[arguments[0]];"
                   "return r ? [...r.querySelectorAll('li.tile')].map(t => Number(t.dataset.movieId)) : []", row)


def check_discover(w):
    """bob's Discover view: rows through carol; the first row loads page 2 when scrolled to its end, and
    rows further down load when the window scrolls to them."""
    b = w.page("bob")
    w.live("bob")
    carol_running(w)
    b.js("window.__discoverClicked = performance.now()")
    b.driver.find_element("css selector", "a#to-discover").click()
    harness.expect_eventually(lambda: b.js("return document.body.dataset.discover") == "ready", APPEAR,
                              "the Discover view's first row on bob's page")
    rendered = b.js("const m = performance.getEntriesByName('discover-render');"
                    "return m.length ? m[0].startTime - window.__discoverClicked : -1")
    first = tiles(b)
    if len(first) != 20 or b.js("return location.hash") != "#discover":
        raise CheckFailed(f"first row: {len(first)} tiles, hash {b.js('return location.hash')!r}")
    b.js("const s = document.querySelector('#rows section.row ul.strip'); s.scrollLeft = s.scrollWidth")
    more = harness.expect_eventually(lambda: len(tiles(b)) > 20 and tiles(b), APPEAR,
                                     "a second page in the first row after scrolling it to its end")
    if len(set(more)) != len(more):
        raise CheckFailed(f"the first row repeats movies: {more}")
    rows = b.js("return document.querySelectorAll('#rows section.row').length")
    b.js("window.scrollTo(0, document.body.scrollHeight)")
    last = harness.expect_eventually(lambda: tiles(b, rows - 1), APPEAR,
                                     f"the last row ({rows} rows) loading once scrolled to")
    added = add_from_tile(w, b)
    kept = shown_while_away(w, b)
    return (f"first row on screen {rendered:.0f} ms after the click on Discover: 20 tiles, {len(more)} after scrolling "
            f"it sideways; {rows} rows (5 lists and the genres); the last loaded {len(last)} tiles when scrolled to; "
            f"{added}; {kept}")


def add_from_tile(w, b):
    """The first tile of the first row not on the list yet: its Add puts it on bob's list, and it then
    says "On the list" and adds nothing more."""
    movie = b.js("const t = [...document.querySelectorAll('#rows section.row li.tile')]"
                 ".find(t => !t.querySelector('button.add').disabled); return t ? Number(t.dataset.movieId) : null")
    if movie is None:
        raise CheckFailed("every tile of bob's Discover view says it is on the list")
    b.js("window.scrollTo(0, 0); document.querySelector(`li.tile[data-movie-id='${arguments[0]}'] button.add`)"
         ".click()", movie)
    harness.expect_eventually(lambda: movie in w.bob.movie_ids(), APPEAR, f"{movie}, added from its tile, on bob's list")
    said = harness.expect_eventually(lambda: b.js(
        "const a = document.querySelector(`li.tile[data-movie-id='${arguments[0]}'] button.add`);"
        "return a.disabled && a.textContent", movie), APPEAR, f"{movie}'s tile saying it is on the list")
    return f"{movie} added from its tile, which then says {said!r}"


def shown_while_away(w, b):
    """carol stopped and bob's kept first page made 3 h old: a fresh load of #discover shows it, with its age."""
    import json
    path = w.bob.state_dir / "tmdb" / "list-popular-p1.json"
    kept = json.loads(path.read_text())
    kept["fetchedAt"] -= 3 * 3600 * 1000
    path.write_text(json.dumps(kept))
    w.carol.stop()
    harness.expect_eventually(lambda: not w.bob.connected_to(w.carol), 30, "bob sees carol gone")
    b.driver.get("about:blank")
    b.driver.get(b.base + "#discover")
    note = harness.expect_eventually(lambda: b.js(
        "const n = document.querySelector('#rows section.row .row-note'); return n ? n.textContent : ''"),
        APPEAR, "the first row's note with carol away")
    shown = tiles(b)
    if "As TMDB listed it 3 h ago" not in note or "carol holds one" not in note or len(shown) != 20:
        raise CheckFailed(f"with carol away: note {note!r}, {len(shown)} tiles")
    return f"carol away: the kept row shown ({len(shown)} tiles), saying {note!r}"


def open_dialog(page):
    return page.js("const d = document.querySelector('dialog#movie'); return d.open ? "
                   "document.getElementById('movie-title')?.textContent : null")


def check_movie_view(w):
    """The movie view of 603 on bob's page: from its card, from its link (a reload), Escape, keyboard, 360 px."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys
    b = w.page("bob")
    carol_running(w)
    b.driver.get(b.base + "#")  # the list view (the token stays in the tab's sessionStorage)
    if 603 not in w.bob.movie_ids():
        w.bob.peerctl("add", "603")
    # On a long list (an earlier check added 120) a new card is past the pages loaded: scroll to it.
    harness.expect_eventually(lambda: b.js("window.scrollTo(0, document.body.scrollHeight)") or b.has_card(603),
                              APPEAR * 3, "card 603 on bob's page, scrolling down for it", 0.3)
    # carol may have a backlog of made-up movies to try (an earlier check added 120): 603 first.
    harness.expect_eventually(lambda: 603 in w.carol.movie_ids(), APPEAR, "603 on carol's list")
    w.carol.peerctl("refresh", "603")
    harness.expect_eventually(lambda: "details" in w.bob.peerctl_json("show", 603), APPEAR * 3,
                              "603 described on bob")
    # A click on the card's poster, where a person clicks (at its middle, whatever is drawn there).
    poster = b.driver.find_element("css selector", "li.card[data-movie-id='603'] .poster-box")
    b.js("arguments[0].scrollIntoView({block: 'center'})", poster)
    ActionChains(b.driver).move_to_element(poster).click().perform()
    harness.expect_eventually(lambda: open_dialog(b) == "The Matrix", APPEAR, "the movie view of 603 from its poster")
    said = harness.expect_eventually(lambda: (t := b.js("return document.querySelector('dialog#movie').innerText"))
                                     and "136 min" in t and "IMDb" in t and t, APPEAR, "603's runtime and IMDb link")
    similar = harness.expect_eventually(lambda: b.js(
        "return document.querySelectorAll('dialog#movie li.tile').length"), APPEAR, "similar movies in the view")
    if b.js("return location.hash") != "#movie/603" or "Remove from the list" not in said:
        raise CheckFailed(f"hash {b.js('return location.hash')!r}; view says {said[:300]!r}")
    logos = b.js("return [...document.querySelectorAll('dialog#movie li.provider img')].map(i => i.src)")
    if "Where to watch (US)" not in said or "MUBI" not in said or "JustWatch" not in said or not logos:
        raise CheckFailed(f"where to watch 603 in US (MUBI, with JustWatch named and a logo): {said[:600]!r}, "
                          f"logos {logos}")
    ActionChains(b.driver).send_keys(Keys.ESCAPE).perform()
    harness.expect_eventually(lambda: open_dialog(b) is None, APPEAR, "the movie view closed by Escape")
    # The dialog's `close` event, which puts the link back, comes in a task of its own after it closes.
    harness.expect_eventually(lambda: not b.js("return location.hash").startswith("#movie"), APPEAR,
                              "the link back to the list view after Escape")
    # Its own link: a fresh load of #movie/603 opens it.
    b.driver.get(b.base + "#movie/603")
    b.driver.refresh()
    harness.expect_eventually(lambda: open_dialog(b) == "The Matrix", APPEAR, "the movie view from its link")
    # Its card may be past the pages loaded now; the view still knows it is listed (from `show`).
    harness.expect_eventually(lambda: b.js("return document.querySelector('dialog#movie button.add.big').textContent")
                              == "Remove from the list", APPEAR, "the view's button saying 603 is listed")
    ActionChains(b.driver).send_keys(Keys.ESCAPE).perform()
    harness.expect_eventually(lambda: open_dialog(b) is None, APPEAR, "closed again")
    keys = keyboard_only(b, ActionChains, Keys)
    fits = at_360(b)
    touched = tap_poster(b)
    return (f"from a click on the card's poster: {similar} similar movies, '136 min', IMDb, where to watch in US "
            f"(MUBI, its logo, JustWatch named); Escape closes; the link opens it after a "
            f"reload; {keys}; {fits}; {touched}")


def tap_poster(b):
    """A finger's tap on the poster of 603's card opens its view (and Escape closes it again)."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys
    pointer = tap(b, "li.card[data-movie-id='603'] .poster-box")
    harness.expect_eventually(lambda: open_dialog(b) == "The Matrix", APPEAR, "the movie view of 603 from a tap")
    ActionChains(b.driver).send_keys(Keys.ESCAPE).perform()
    harness.expect_eventually(lambda: open_dialog(b) is None, APPEAR, "closed again after the tap")
    return f"a {pointer} tap on the poster opens it"


def keyboard_only(b, ActionChains, Keys):
    b.js("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0)")
    b.driver.find_element("css selector", "h1").click()
    presses = tab_to(b, "li.card[data-movie-id='603'] a.movie-link", 400)
    if presses is None:
        raise CheckFailed("400 presses of Tab never reached the card of 603")
    ActionChains(b.driver).send_keys(Keys.ENTER).perform()
    harness.expect_eventually(lambda: open_dialog(b) == "The Matrix", APPEAR, "the view opened with Enter")
    if not b.js("return document.activeElement.id === 'movie-close'"):
        raise CheckFailed("the view opened without the focus on its Close button")
    inside = tab_to(b, "dialog#movie button.add.big", 10)
    if inside is None:
        raise CheckFailed("Tab never reached the view's add/remove button")
    ActionChains(b.driver).send_keys(Keys.ESCAPE).perform()
    harness.expect_eventually(lambda: open_dialog(b) is None, APPEAR, "closed by Escape")
    harness.expect_eventually(lambda: b.js(
        "return document.activeElement.matches(\"li.card[data-movie-id='603'] a.movie-link\")"), APPEAR,
        "the focus back on the card that opened the view, after Escape")
    return f"keyboard: Tab ×{presses} to the card, Enter opens, Tab ×{inside} to its button, Escape back to the card"


def at_360(b):
    driver = b.driver
    size = driver.get_window_size()
    try:
        driver.set_window_size(360, 740)
        harness.expect_eventually(lambda: b.js("return window.innerWidth") <= 360, APPEAR, "a 360 px viewport")
        b.js("location.hash = '#movie/603'")
        harness.expect_eventually(lambda: open_dialog(b) == "The Matrix", APPEAR, "the view at 360 px")
        wide = b.js("const d = document.querySelector('dialog#movie'), w = document.documentElement.clientWidth;"
                    "return [d.scrollWidth, d.clientWidth, d.getBoundingClientRect().right, w]")
        if wide[0] > wide[1] or wide[2] > wide[3] + 0.5:
            raise CheckFailed(f"at 360 px the movie view is {wide[0]} px wide in {wide[1]}, its right edge at {wide[2]}")
        b.js("document.getElementById('movie-close').click()")
    finally:
        driver.set_window_size(size["width"], size["height"])
    return f"360 px: the view {wide[1]} px wide, nothing over the edge"


CHECKS = [
    ("discover: bob, without a token, browses rows through carol; they load more as they scroll", check_discover),
    ("movie view: from a card's poster (a click, a tap) and from its link, Escape, keyboard alone, 360 px",
     check_movie_view),
]
