"""Profiles on the page (proto/WEB.md, "Profiles"), in Chromium: "who's watching" switches between
the members who live on alice's machine, and what the page does then is that member's. A profile is
made with `peerctl profile add`, as a household would; the mark set on the page is held to what
`list --json` says on both daemons (alice's and bob's), by member."""
from harness import CheckFailed
from selenium.webdriver.support.ui import Select
import web_marks as wm


def wanted_by(w, name, member):
    return {r["movieId"] for r in wm.listed_rows(w, name, wantedBy=[member])}


def check_who_is_watching(w):
    """alice makes the profile ren; her page offers "who's watching"; as ren, Want on a movie is ren's
    mark on both daemons, not alice's; back as alice, the movie view shows alice's own marks."""
    a = w.page("alice")
    movie, title = w.movie_id(), "Profile One"
    wm.ask(w, "alice", {"type": "add", "movie": {"id": movie, "title": title}})
    made = w.alice.peerctl("profile", "add", "ren")
    if made.returncode != 0:
        raise CheckFailed(f"peerctl profile add ren: exit {made.returncode}: {made.stdout}{made.stderr}")
    wm.fresh_list(a)
    wm.until(a, lambda p: p.js("return !document.getElementById('who-label').hidden"),
             "the who's-watching switch once alice has a profile")
    names = a.js("return [...document.querySelectorAll('#who option')].map(o => o.textContent)")
    if names != ["alice", "ren"]:
        raise CheckFailed(f"who's watching offers {names}, not alice and ren")
    Select(a.driver.find_element("id", "who")).select_by_visible_text("ren")
    wm.until(a, lambda p: p.js("return document.getElementById('name').textContent") == "ren · alice",
             "the header saying the page acts for ren on alice's machine")
    wm.open_view(a, movie, title)
    if wm.pressed(a, "want") != "false":
        raise CheckFailed(f"ren's Want of {movie} is pressed before ren set it")
    a.js("document.getElementById('mark-want').click()")
    wm.until(a, lambda p: wm.pressed(p, "want") == "true", "ren's Want pressed after the click")
    for name in ("alice", "bob"):
        wm.until(a, lambda p: movie in wanted_by(w, name, "ren"), f"{movie} wanted by ren on {name}'s daemon")
    if movie in wanted_by(w, "alice", "alice"):
        raise CheckFailed(f"alice's own member wants {movie}: the page's mark was not ren's alone")
    a.js("document.getElementById('movie-close').click()")
    Select(a.driver.find_element("id", "who")).select_by_visible_text("alice")
    wm.open_view(a, movie, title)
    wm.until(a, lambda p: wm.pressed(p, "want") == "false", "alice's own Want, not ren's, once alice is back")
    a.js("document.getElementById('movie-close').click()")
    return f"as ren, Want on {movie} is ren's on alice's and bob's daemons; back as alice, her Want is unset"


CHECKS = [
    ("profiles: who's watching switches the member the page acts for; a Want is that profile's", check_who_is_watching),
]
