"""The TV view (proto/WEB.md, "#tv"), in Chromium, by keyboard alone: alice's page opened at /#tv is
driven with the arrow keys and Enter only (a remote's D-pad), no clicks. It moves through the posters,
opens a movie and marks it (and unmarks it), starts a pick and votes through its deck, then leaves by
its link; the normal page's TV link and Escape go there and back. A removal on bob while a poster has
the focus moves the focus to its neighbour.

After every key: the focus is on a poster or a button of the view, with a thick ring (outline ≥ 4 px)
in the viewport, and the page made at most one request for that key (window.fetch as the recorder
wraps it, web_support.RECORDER; the event stream left out): none for an arrow, one at most for Enter.
Requests the page makes after a key's effect showed count towards the next key, so a stray one (a
live change's, a timer's) fails too."""
from harness import CheckFailed
import web_support as ws
from web_marks import APPEAR, ask, until
from web_tonight import close_all, deck_of_three, status

# What has the focus, as a check sees it: a poster (its card's place in the grid) or a control of the
# view, and the ring drawn on it (on a poster's whole card).
FOCUS = """
const el = document.activeElement, card = el && el.closest && el.closest('li.card');
const ring = card || el, s = ring ? getComputedStyle(ring) : null, r = ring ? ring.getBoundingClientRect() : null;
return {
  id: el && el.id || '', tag: el ? el.tagName.toLowerCase() : '',
  movie: card ? Number(card.dataset.movieId) : null, left: card ? card.offsetLeft : null, top: card ? card.offsetTop : null,
  poster: Boolean(card && el.matches('a.movie-link')),
  control: Boolean(el && el.matches('#tv a[href], #tv button, #more button, dialog#tv-movie button')),
  outline: s ? [s.outlineStyle, parseFloat(s.outlineWidth) || 0] : ['none', 0],
  seen: Boolean(r && r.bottom > 0 && r.top < innerHeight && r.width > 0),
};"""


def focused(page):
    return page.js(FOCUS)


def requests(page):
    """The page's requests so far, by type (the URL for what is not a control request), the stream left out."""
    return page.js("return window.__web.requests.filter(r => !r.url.includes('/api/events'))"
                   ".map(r => r.type || r.url)")


class Remote:
    """Keys for alice's TV view, one at a time: after each, its effect awaited, the focus checked and
    the requests since the last key's effect counted."""

    def __init__(self, page):
        self.page = page
        self.counted = len(requests(page))
        self.presses = 0
        self.asked = []  # the request types that keys made, in order

    def press(self, key, effect, what):
        """Presses `key`, waits for `effect(page)`; an arrow may make no request, Enter one."""
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.keys import Keys
        ActionChains(self.page.driver).send_keys(key).perform()
        self.presses += 1
        until(self.page, effect, what)
        made = requests(self.page)[self.counted:]
        self.counted += len(made)
        most = 1 if key == Keys.ENTER else 0
        if len(made) > most:
            raise CheckFailed(f"{what}: {len(made)} requests for one key press ({most} at most): {made}")
        self.asked += made
        return self.visible(what), made

    def up_to(self, control, most):
        """↑ until the control with id `control` has the focus, `most` presses at most."""
        from selenium.webdriver.common.keys import Keys
        for _ in range(most):
            if focused(self.page)["id"] == control:
                return
            self.press(Keys.ARROW_UP, lambda p: True, f"↑ towards #{control}")
        if focused(self.page)["id"] != control:
            raise CheckFailed(f"↑ ×{most} never reached #{control}: the focus is on #{focused(self.page)['id']}")

    def visible(self, what):
        f = focused(self.page)
        if not (f["poster"] or f["control"]) or not f["seen"]:
            raise CheckFailed(f"{what}: the focus is on {f['tag']}#{f['id']} (movie {f['movie']}), not a poster or a "
                              f"control of the view in sight; {self.page.state()}")
        style, width = f["outline"]
        if style == "none" or width < 4:
            raise CheckFailed(f"{what}: the focus on {f['tag']}#{f['id']} (movie {f['movie']}) shows no thick ring: "
                              f"outline {style} {width} px")
        return f


def cards(page):
    """Each card on the page: [movie id, offsetLeft, offsetTop], in list order."""
    return page.js("return [...document.querySelectorAll('ol#movies > li.card')]"
                   ".map(c => [Number(c.dataset.movieId), c.offsetLeft, c.offsetTop])")


def below(page, movie):
    """The card under `movie`'s in the grid: the first one further down at the same left."""
    grid = cards(page)
    _, left, top = next(c for c in grid if c[0] == movie)
    return next(c[0] for c in grid if c[1] == left and c[2] > top)


def on(want):
    """A condition: the focus is on `want` (a movie id, or a control's id)."""
    def holds(p):
        f = focused(p)
        return f["movie"] == want if isinstance(want, int) else f["id"] == want
    return holds


def mine(w, movie, kind):
    marks = ask(w, "alice", {"type": "show", "movie": movie}).get("movie", {}).get("marks", [])
    return any(m.get("peer") == w.alice.id and m.get(kind) for m in marks)


def shown_tv(page):
    return page.js("return document.body.dataset.view === 'tv' && !document.getElementById('tv').hidden && "
                   "getComputedStyle(document.querySelector('header.top')).display === 'none'")


def check_tv(w):
    """alice's page at /#tv by the arrow keys and Enter alone: posters, a movie marked and unmarked, a
    removal on bob, a pick started and voted through, Leave TV; the TV link and Escape."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys
    a = w.page("alice")
    w.live("alice", "bob")
    close_all(w)
    # Two rows of posters at least, all seen by alice but the pick's three (deck_of_three).
    ws.control_batch(w.alice.socket, [ws.add_request(w.movie_id(), f"TV {i}", 1990 + i) for i in range(8)])
    deck_of_three(w)
    a.open(a.base + "#tv", timeout=APPEAR)  # the link itself; the token is in the tab's sessionStorage
    w.live("alice")
    first, second = cards(a)[:2]
    until(a, lambda p: shown_tv(p) and p.js("return document.body.dataset.tonight") == "ready"
          and on(first[0])(p), "the TV view from /#tv, the focus on its first poster")
    big = a.js("const c = document.querySelector('ol#movies > li.card'); return [c.getBoundingClientRect().width,"
               "parseFloat(getComputedStyle(c.querySelector('.title')).fontSize)]")
    if big[0] < 200 or big[1] < 24:
        raise CheckFailed(f"a poster {big[0]:.0f} px wide with its title at {big[1]} px: not for across the room")
    tv = Remote(a)
    tv.visible("the first poster")
    # Through the posters.
    tv.press(Keys.ARROW_RIGHT, on(second[0]), "→ to the second poster")
    down = below(a, second[0])
    tv.press(Keys.ARROW_DOWN, on(down), "↓ to the poster under it")
    # Open it, mark it wanted by Enter, and unmark it again.
    tv.press(Keys.ENTER, lambda p: p.js("return document.getElementById('tv-movie').open") and on("tv-mark-want")(p),
             "Enter: the movie view, the focus on Want")
    title = a.js("return document.getElementById('tv-movie-title').textContent")
    tv.press(Keys.ARROW_RIGHT, on("tv-mark-seen"), "→ to Seen")
    tv.press(Keys.ARROW_LEFT, on("tv-mark-want"), "← back to Want")
    pressed = lambda value: lambda p: p.js(  # noqa: E731
        "return document.getElementById('tv-mark-want').getAttribute('aria-pressed')") == value and on("tv-mark-want")(p)
    tv.press(Keys.ENTER, pressed("true"), "Enter on Want: pressed")
    wanted = mine(w, down, "want")
    tv.press(Keys.ENTER, pressed("false"), "Enter on Want again: not pressed")
    if not wanted or mine(w, down, "want"):
        raise CheckFailed(f"alice's want of {down} on her daemon: {wanted} after Enter, then {mine(w, down, 'want')}")
    for _ in range(3):
        tv.press(Keys.ARROW_RIGHT, lambda p: True, "→ along the marks")
    if focused(a)["id"] != "tv-movie-back":
        raise CheckFailed(f"→ thrice from Want reached #{focused(a)['id']}, not Back")
    tv.press(Keys.ENTER, lambda p: not p.js("return document.getElementById('tv-movie').open") and on(down)(p),
             "Enter on Back: the focus back on the poster")
    removed = removal(w, a, tv, down)
    voted = vote_by_remote(w, a, tv)
    # Leave by the link at the top, then come back by the page's TV link, and leave by Escape.
    tv.up_to("tv-leave", 8)
    # Not counted from here: the list view asks for the peers every 5 s.
    keys = lambda key: ActionChains(a.driver).send_keys(key).perform()  # noqa: E731
    keys(Keys.ENTER)
    until(a, lambda p: p.js("return document.body.dataset.view") == "list" and not shown_tv(p),
          "Enter on Leave TV: the list view")
    # From the top of the page, as after a load: where Leave TV leaves the focus may be below the cards.
    a.js("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0)")
    tabs = ws.tab_to(a, "a#to-tv", 30)
    if tabs is None:
        raise CheckFailed("30 presses of Tab never reached the page's TV link a#to-tv")
    keys(Keys.ENTER)
    until(a, lambda p: shown_tv(p) and focused(p)["poster"], "the TV view from its link, a poster focused")
    keys(Keys.ESCAPE)
    until(a, lambda p: p.js("return document.body.dataset.view") == "list", "the list view after Escape")
    return (f"{tv.presses} keys (arrows and Enter): posters → ↓, {title!r} opened (show), Want by Enter on the "
            f"daemon and off again (mark ×2); {removed}; {voted}; requests {tv.asked}, at most one a key; a thick "
            f"ring on the focus throughout; poster {big[0]:.0f} px, title {big[1]:.0f} px; Leave TV, Tab ×{tabs} to the "
            f"TV link and Enter, Escape")


def removal(w, a, tv, movie):
    """bob removes the movie whose poster has the focus on alice's TV: the focus goes to its neighbour
    (and the movie is put back on the list)."""
    grid = [c[0] for c in cards(a)]
    at = grid.index(movie)
    neighbours = grid[max(0, at - 1):at] + grid[at + 1:at + 2]
    ws_removed = w.bob.peerctl("remove", str(movie))
    if ws_removed.returncode != 0:
        raise CheckFailed(f"peerctl remove {movie} on bob: {ws_removed.stdout}{ws_removed.stderr}")
    a.wait_card(movie, present=False, timeout=APPEAR)
    until(a, lambda p: focused(p)["movie"] in neighbours, f"the focus on a neighbour {neighbours} of removed {movie}")
    f = tv.visible(f"after bob removed {movie}")
    if w.bob.peerctl("add", str(movie)).returncode != 0:
        raise CheckFailed(f"peerctl add {movie} on bob, to put it back")
    return f"bob removed {movie}: the focus went to its neighbour {f['movie']}"


def vote_by_remote(w, a, tv):
    """Up to Start a pick, Enter; then Enter on Yes, No, Yes through alice's three cards."""
    from selenium.webdriver.common.keys import Keys
    tv.up_to("tv-start", 6)
    card = lambda p: p.js("const c = document.querySelector('#tv-card article.pick-card');"  # noqa: E731
                          "return c && !document.getElementById('tv-vote').hidden ? Number(c.dataset.movieId) : null")
    tv.press(Keys.ENTER, lambda p: card(p) is not None and focused(p)["id"] in ("tv-yes", "tv-no"),
             "Enter on Start a pick: a card, the focus on Yes or No")
    deck = [c["movieId"] for c in status(w.alice)["deck"]]
    if card(a) != deck[0]:
        raise CheckFailed(f"the TV shows card {card(a)}, the pick's first is {deck[0]}")
    said = []
    for i, yes in enumerate([True, False, True]):
        button = "tv-yes" if yes else "tv-no"
        if focused(a)["id"] != button:
            tv.press(Keys.ARROW_RIGHT if yes else Keys.ARROW_LEFT, on(button), f"to {button}")
        done = (lambda p: card(p) == deck[i + 1] and on(button)(p)) if i + 1 < len(deck) else (lambda p: card(p) is None)
        tv.press(Keys.ENTER, done, f"Enter on {button} for card {i + 1}")
        said.append("yes" if yes else "no")
    me = next(v for v in status(w.alice)["voters"] if v.get("peer") == w.alice.id)
    if me.get("voted") != len(deck):
        raise CheckFailed(f"alice's votes on her daemon: {me.get('voted')} of {len(deck)}")
    words = a.js("return document.getElementById('tv-said').textContent")
    close_all(w)
    return f"a pick started by Enter, {'/'.join(said)} by Enter on its {len(deck)} cards ({words!r})"


CHECKS = [
    ("tv: the TV view by the arrow keys and Enter alone: posters, a movie marked, a pick voted; ≤ 1 request a key",
     check_tv),
]
