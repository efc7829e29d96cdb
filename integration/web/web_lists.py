"""The page's list switcher (proto/WEB.md, "Lists"), in Chromium: alice makes a list of her own with
`peerctl lists create`, as a household would; her page then offers it beside "who's watching", shows
that list's movies only once it is chosen (and the group's list never shows them), keeps it in the
address (`?list=ID`) through a reload, the back button and the TV view, and adds to it from the search
box (checked with `peerctl list --list`). A link to a list that is gone falls back to the group's list
with a note. On a 360 px phone with touch, and with the keyboard alone, the switcher works too."""
import json

from harness import CheckFailed
from selenium.webdriver.support.ui import Select
import web_marks as wm
import web_support as ws

GROUP = "group (everyone)"


def made_list(w, name):
    """The list `name` on alice's machine, made by peerctl (once): its id."""
    listed = w.alice.peerctl("lists", "--json")
    if listed.returncode == 0:
        for record in json.loads(listed.stdout).get("lists", []):
            if record.get("name") == name:
                return record["id"]
    made = w.alice.peerctl("lists", "create", name, "--json")
    if made.returncode != 0:
        raise CheckFailed(f"peerctl lists create {name}: exit {made.returncode}: {made.stdout}{made.stderr}")
    return json.loads(made.stdout)["list"]["id"]


def peerctl_ids(w, *args):
    """The movie ids `peerctl list --json` (with `args`) prints on alice's machine."""
    done = w.alice.peerctl("list", "--json", *args)
    if done.returncode != 0:
        raise CheckFailed(f"peerctl list {' '.join(args)}: exit {done.returncode}: {done.stdout}{done.stderr}")
    rows = json.loads(done.stdout)
    return {row["movieId"] for row in (rows["movies"] if isinstance(rows, dict) else rows)}


def address(page):
    return page.js("return location.search + location.hash")


def shown_list(page):
    """The list the page shows, as its address and its switcher say: (the address's `list`, the select's value)."""
    return page.js("return [new URLSearchParams(location.search).get('list'), document.getElementById('lists').value]")


def open_at(page, query="", view=""):
    """alice's page loaded anew at `?query#view`, its token still in the tab (sessionStorage)."""
    page.driver.get(f"{page.base}{'?' + query if query else ''}{view}")
    page.wait_ready(wm.APPEAR)


def a_list_and_movies(w):
    """alice's list `solo` (hers alone) with one movie, and one movie on the group's list."""
    a = w.page("alice")
    solo = made_list(w, "solo")
    on_group, on_solo = w.movie_id(), w.movie_id()
    wm.ask(w, "alice", {"type": "add", "movie": {"id": on_group, "title": "Group Night"}})
    # After the suite's other checks the group's list is longer than the page's first 50 cards: the
    # movie to look for is the one the page shows first.
    on_group = json.loads(w.alice.peerctl("list", "--json").stdout)[0]["movieId"]
    added = w.alice.peerctl("add", str(on_solo), "--list", "solo")
    if added.returncode != 0:
        raise CheckFailed(f"peerctl add {on_solo} --list solo: exit {added.returncode}: {added.stdout}{added.stderr}")
    return a, solo, on_group, on_solo


def shows_solo(page, solo, on_solo, on_group):
    """Whether the page shows solo: in its address and switcher, with its movie and not the group's."""
    ids = page.card_ids()
    return shown_list(page) == [solo, solo] and on_solo in ids and on_group not in ids


def choose(page, text):
    Select(page.driver.find_element("id", "lists")).select_by_visible_text(text)


def check_switcher(w):
    """With a list made by peerctl the switcher appears; choosing it shows its movies only, the address
    carries it through a reload, back and forward and the TV view; the page's live changes are its own;
    the search box adds to it; a link to a list that is gone falls back to the group's with a note."""
    a, solo, on_group, on_solo = a_list_and_movies(w)
    wm.fresh_list(a)
    wm.until(a, lambda p: p.js("return !document.getElementById('lists-label').hidden"),
             "the list switcher once alice holds a list of her own")
    names = a.js("return [...document.querySelectorAll('#lists option')].map(o => o.textContent)")
    if names != [GROUP, "solo"]:
        raise CheckFailed(f"the switcher offers {names}, not {[GROUP, 'solo']}")
    wm.until(a, lambda p: p.has_card(on_group), f"{on_group} on the group's list")
    if a.has_card(on_solo):
        raise CheckFailed(f"the group's list shows {on_solo}, which is solo's only")
    choose(a, "solo")
    wm.until(a, lambda p: shown_list(p) == [solo, solo] and p.js("return document.body.dataset.ready") == "true",
             "the page at ?list=<solo's id> once solo is chosen")
    wm.until(a, lambda p: p.card_ids() == [on_solo], f"solo's movie {on_solo} alone")
    a.driver.refresh()
    a.wait_ready(wm.APPEAR)
    wm.until(a, lambda p: shown_list(p) == [solo, solo] and p.card_ids() == [on_solo], "solo again after a reload")
    a.driver.back()
    wm.until(a, lambda p: shown_list(p) == [None, ""] and p.has_card(on_group) and not p.has_card(on_solo),
             "the group's list after the back button")
    a.driver.forward()
    wm.until(a, lambda p: shown_list(p) == [solo, solo] and p.card_ids() == [on_solo], "solo after forward")
    # Live: the list's changes come, the group's don't.
    w.live("alice")
    later_group, later_solo = w.movie_id(), w.movie_id()
    wm.ask(w, "alice", {"type": "add", "movie": {"id": later_group, "title": "Group Later"}})
    wm.ask(w, "alice", {"type": "add", "movie": {"id": later_solo, "title": "Solo Later"}, "inList": solo})
    wm.until(a, lambda p: p.has_card(later_solo), f"{later_solo}, added to solo, live on solo's page")
    if a.has_card(later_group):
        raise CheckFailed(f"solo's page shows {later_group}, added to the group's list")
    # The search box (no TMDB token here: it adds the id typed) adds to the list shown.
    typed = w.movie_id()
    a.js("const q = document.getElementById('query'); q.value = arguments[0];"
         "document.getElementById('go').click()", str(typed))
    wm.until(a, lambda p: p.has_card(typed), f"{typed}, added with the search box, on solo's page")
    if typed not in peerctl_ids(w, "--list", "solo"):
        raise CheckFailed(f"{typed} added on solo's page is not on `peerctl list --list solo`")
    if typed in peerctl_ids(w) or typed in w.bob.movie_ids():
        raise CheckFailed(f"{typed} added on solo's page is on the group's list")
    # The TV view keeps the list.
    a.js("location.hash = '#tv'")
    wm.until(a, lambda p: p.js("return document.body.dataset.view") == "tv", "the TV view")
    tv = a.card_ids()
    if set(tv) != {on_solo, later_solo, typed} or shown_list(a)[0] != solo:
        raise CheckFailed(f"the TV view at {address(a)!r} shows {tv}, not solo's movies")
    a.js("location.hash = ''")
    # A list that is gone: the group's list, said so.
    open_at(a, "list=" + "f" * 32)
    wm.until(a, lambda p: p.js("const n = document.getElementById('list-note'); return !n.hidden && n.textContent"),
             "the note that the link's list is gone")
    wm.until(a, lambda p: shown_list(p) == [None, ""] and p.has_card(on_group), "the group's list after the note")
    note = a.js("return document.getElementById('list-note').textContent")
    return (f"switcher {names}; solo ({solo[:8]}) shows [{on_solo}] only, kept by reload, back/forward, #tv; "
            f"live add on solo shown, the group's not; {typed} typed lands on `list --list solo` only; "
            f"a gone list: {note!r}")


def check_phone_and_keyboard(w):
    """At 360 px with touch the switcher fits and takes a tap; by the keyboard alone, Tab reaches it,
    an arrow chooses solo, and the focus is back on the switcher once solo's page is loaded."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys
    a, solo, on_group, on_solo = a_list_and_movies(w)
    open_at(a)
    wm.phone(a, True)
    try:
        wm.until(a, lambda p: p.js("return !document.getElementById('lists-label').hidden"), "the switcher on a phone")
        box = a.js("const r = document.getElementById('lists').getBoundingClientRect(), w = document.documentElement;"
                   "return [r.left, r.right, r.height, w.scrollWidth, w.clientWidth]")
        if box[0] < 0 or box[1] > box[4] + 0.5 or box[2] < 40 or box[3] > box[4]:
            raise CheckFailed(f"at 360 px the switcher is at {box[0]:.0f}–{box[1]:.0f} px, {box[2]:.0f} px tall, "
                              f"in a page {box[3]} px wide ({box[4]} px viewport)")
        kind = wm.tap(a, "#lists")
        if kind != "touch" or not a.js("return document.activeElement.id === 'lists'"):
            raise CheckFailed(f"a tap on the switcher was a {kind!r} pointer, and the focus is on "
                              f"#{a.js('return document.activeElement.id')}")
        choose(a, "solo")
        wm.until(a, lambda p: shows_solo(p, solo, on_solo, on_group), "solo on the phone")
    finally:
        wm.phone(a, False)
    open_at(a)
    a.js("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0)")
    a.driver.find_element("css selector", "h1").click()
    presses = ws.tab_to(a, "select#lists", 15)
    if presses is None:
        raise CheckFailed("15 presses of Tab never reached select#lists")
    ring = wm.focus_ring(a)
    ActionChains(a.driver).send_keys(Keys.ARROW_DOWN).perform()
    wm.until(a, lambda p: shows_solo(p, solo, on_solo, on_group), "solo chosen with ↓")
    wm.until(a, lambda p: p.js("return document.activeElement.id") == "lists", "the focus on the switcher again")
    ActionChains(a.driver).send_keys(Keys.ARROW_UP).perform()
    wm.until(a, lambda p: shown_list(p) == [None, ""] and p.has_card(on_group), "the group's list with ↑")
    return (f"360 px: the switcher {box[1] - box[0]:.0f}×{box[2]:.0f} px, a {kind} tap focuses it, solo chosen; "
            f"keyboard: Tab ×{presses} (ring {ring}), ↓ shows solo, the focus back on it, ↑ the group's list")


CHECKS = [
    ("lists: the switcher shows a list's movies only, keeps it in the address, adds to it, falls back when gone",
     check_switcher),
    ("lists: the switcher on a 360 px phone with touch, and by the keyboard alone", check_phone_and_keyboard),
]
