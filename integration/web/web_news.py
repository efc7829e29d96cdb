"""News of wanted movies on the page (issue 41; proto/WEB.md, "News"), in Chromium. carol holds a TMDB
token (the fake TMDB) and checks where each wanted, unseen movie streams every 2 s (--news-interval 2s);
the group's services are Netflix and MUBI in DE. 603 streams only on Amazon Prime Video there when carol
wants it; then it comes to Netflix, carol reports it, and the report replicates to bob and alice, who hold
no token. bob's page on a phone-sized screen with touch shows the count on its News link live (timed
from the report's commit), the report when News is tapped, and the count cleared; by keyboard alone,
News and then the report open the movie view; a link with the token and `&movie=603` (what a desktop
notification opens) opens the movie view, one with `&view=news` the News view; alice's page shows the
same report.

The page's news is asked through each daemon's own API without `looked` (peerctl news counts as looking),
so the checks see the count the page sees."""
import datetime

import harness
import web_support as ws
from harness import CheckFailed
from web_browse import carol_running
from web_marks import PHONE, ask, focus_ring, phone, tap, until, when

APPEAR = 15.0  # s: what a page shows comes within this on a loaded machine
MOVIE, TITLE, YEAR = 603, "The Matrix", 1999
NETFLIX, PRIME = 8, 9  # fake_tmdb_lists.PROVIDERS
LINE = f"{TITLE} ({YEAR}) is now on Netflix (DE)"
CHECK_EVERY = 2.0  # s: carol's --news-interval (test_web.World.carol_up)
REPORT_BOUND_MS = 2000  # the count on the link, after the report's commit: its event, 400 ms of debounce, one request


# MARK: the world's news


def peerctl(daemon, *args):
    result = daemon.peerctl(*args)
    if result.returncode != 0:
        raise CheckFailed(f"peerctl {' '.join(map(str, args))} on {daemon.name}: exit {result.returncode}: "
                          f"{(result.stdout + result.stderr).strip()}")
    return result


def streams_on(daemon, movie):
    """The provider ids `show` says stream `movie` in DE, or None before its describe of DE came."""
    shown = daemon.peerctl_json("show", movie)
    providers = (shown.get("details") or {}).get("providers") or {}
    return [p["id"] for p in providers.get("stream", [])] if providers.get("region") == "DE" else None


def described(w):
    """carol in the group's DE with Netflix and MUBI, wanting 603, described as streaming on Prime only."""
    if getattr(w, "news_described", False):
        return
    w.up()
    carol_running(w)
    w.fake.set_offers(MOVIE, "DE", stream=[PRIME])
    peerctl(w.carol, "services", "--region", "DE", "netflix", "mubi")
    peerctl(w.carol, "want", MOVIE)
    harness.expect_eventually(lambda: streams_on(w.carol, MOVIE) == [PRIME], APPEAR * 2,
                              f"{MOVIE} described on carol as streaming in DE on Prime only")
    w.news_described = True


def carol_report(w):
    """carol's report of 603 arriving on Netflix, from `peerctl news --json`; None before it is made."""
    items = w.carol.peerctl_json("news")["items"]
    return next((i for i in items if i["movieId"] == MOVIE and LINE in i["lines"]), None)


def come_to_netflix(w):
    """603 streams on Netflix too from now on; (wall-clock ms then)."""
    w.fake.set_offers(MOVIE, "DE", stream=[NETFLIX, PRIME])
    return ws.now_ms()


def reported(w):
    """carol's report (described, the offers changed, and the report made), made once for these checks."""
    described(w)
    if not getattr(w, "news_report", None):
        if not carol_report(w):
            come_to_netflix(w)
        w.news_report = harness.expect_eventually(lambda: carol_report(w), APPEAR * 2,
                                                  f"carol's report of {MOVIE} on Netflix (peerctl news)")
    return w.news_report


def made_at(w, report):
    """When carol made the report, ms since 1970: its line's `at` in carol's history."""
    op = report["operation"]
    for entry in w.carol.peerctl_json("history", "--limit", "200")["entries"]:
        if entry["cursor"] == report["cursor"]:
            return entry["at"]
    raise CheckFailed(f"carol's history has no line of the report {op}")


def page_news(w, name):
    """`news` as `name`'s page asks it (its API), without looking."""
    return ask(w, name, {"type": "news", "limit": 50})


def wanted_by(w, name, report):
    """Who wants the report's movie, as `name`'s daemon says (its news)."""
    item = next((i for i in page_news(w, name)["items"] if i["operation"] == report["operation"]), None)
    return item["wantedBy"] if item else None


def wanted_words(names):
    """NewsWords.wanted, in Python."""
    if not names:
        return "wanted by nobody now"
    if len(names) == 1:
        return f"wanted by {names[0]}"
    return f"wanted by {', '.join(names[:-1])} and {names[-1]}"


# MARK: what a page shows


def badge(page):
    """[shown, its text, the link's aria-label, the link's data-unread]."""
    return page.js("const b = document.getElementById('news-badge'), a = document.getElementById('to-news');"
                   "return [!b.hidden && b.offsetParent !== null, b.textContent, a.getAttribute('aria-label'),"
                   "a.dataset.unread]")


def asked_news(page):
    """How many `news` requests the page has made."""
    return page.js("return window.__web.requests.filter(r => r.type === 'news').length")


def shown_report(page, op):
    """The report `op` ({origin, seq}) as the News view shows it, or None."""
    return page.js("""
      const li = document.querySelector(`ol#news-items > li.news-item[data-operation='${arguments[0]}']`);
      if (!li) return null;
      const link = li.querySelector('a.news-link'), img = li.querySelector('.news-poster img');
      return {movie: li.dataset.movieId, unread: li.dataset.unread, title: li.querySelector('.news-title a.movie-link')
        .textContent, lines: [...li.querySelectorAll('.news-lines > li')].map(l => l.textContent),
        isNew: !!li.querySelector('.news-new'), wanted: li.querySelector('.news-wanted').textContent,
        read: li.querySelector('time.news-read').textContent, readAt: li.querySelector('time.news-read').dateTime,
        link: link && {href: link.href, target: link.target, rel: link.rel},
        poster: img && img.getAttribute('src'), index: [...li.parentNode.children].indexOf(li)};""",
                   f"{op['origin']}:{op['seq']}")


def credit(page):
    """The attribution's text when it is shown at the foot of the News view (below every report), else None."""
    return page.js("""
      const c = document.getElementById('news-credit'), items = document.getElementById('news-items');
      if (!c || c.offsetParent === null || !c.textContent.trim()) return null;
      const r = c.getBoundingClientRect();
      return r.height > 0 && r.top >= items.getBoundingClientRect().bottom - 0.5 ? c.textContent.trim() : null;""")


def day_words(ms):
    """page.js's shortDay: "6 Dec" this year, else "6 Dec 2025"."""
    d = datetime.datetime.fromtimestamp(ms / 1000)
    words = f"{d.day} {d.strftime('%b')}"
    return words if d.year == datetime.date.today().year else f"{words} {d.year}"


def view_of(page):
    return page.js("return [location.hash, document.body.dataset.view, document.body.dataset.news || '']")


def movie_open(page):
    return page.js("const d = document.querySelector('dialog#movie');"
                   "return d.open ? document.getElementById('movie-title').textContent : null")


def wait_news_view(page, op, what):
    until(page, lambda p: view_of(p)[:2] == ["#news", "news"] and shown_report(p, op), what)
    return shown_report(page, op)


def same_report(w, page, name, report):
    """The report as `page` shows it, checked against what `name`'s daemon says of it; a line of what was seen."""
    item = next((i for i in page_news(w, name)["items"] if i["operation"] == report["operation"]), None)
    if item is None:
        raise CheckFailed(f"{name}'s daemon has no report {report['operation']}")
    shown = shown_report(page, report["operation"])
    problems = []
    if shown["lines"] != item["lines"] or LINE not in shown["lines"]:
        problems.append(f"lines {shown['lines']}, {name}'s daemon's {item['lines']}")
    if shown["wanted"] != wanted_words(item["wantedBy"]) or "carol" not in item["wantedBy"]:
        problems.append(f"{shown['wanted']!r}, the daemon's wantedBy {item['wantedBy']}")
    if shown["title"] != f"{TITLE} ({YEAR})" or shown["movie"] != str(MOVIE):
        problems.append(f"title {shown['title']!r} of {shown['movie']}")
    if shown["read"] != f"read {day_words(item['read'])}" or shown["readAt"][:10] != datetime.datetime.fromtimestamp(
            item["read"] / 1000, datetime.timezone.utc).date().isoformat():
        problems.append(f"{shown['read']!r} ({shown['readAt']}), read at {item['read']}")
    link = shown["link"]
    if not item.get("link") or not link or link["href"] != item["link"] or link["target"] != "_blank" \
            or "noopener" not in link["rel"].split():
        problems.append(f"TMDB's link {link}, the daemon's {item.get('link')!r}")
    if shown["poster"] != (f"https://image.tmdb.org/t/p/w185{item['posterPath']}" if item.get("posterPath") else None):
        problems.append(f"poster {shown['poster']!r}, the daemon's path {item.get('posterPath')!r}")
    said = credit(page)
    if not said or "JustWatch" not in said or "TMDB" not in said:
        problems.append(f"attribution at the foot {said!r}")
    if problems:
        raise CheckFailed(f"{name}'s News view: " + "; ".join(problems))
    return f"{shown['lines'][0]!r}, {shown['wanted']!r}, {shown['read']!r}, TMDB's link in a new tab, {said!r}"


# MARK: checks


def check_live_on_phone(w):
    """bob's page at phone size with touch: the empty News view says how news comes; carol's report comes
    live to the count on the link (no reload); a tap on News shows it, new, and the count clears; a tap on
    its poster opens the movie view."""
    if getattr(w, "news_report", None):
        raise CheckFailed("the report was made before this check, which must see it come: run it first")
    b = w.page("bob")
    w.live("bob")
    described(w)
    b.open(timeout=APPEAR)
    w.live("bob")
    try:
        phone(b, True)
        until(b, lambda p: asked_news(p) >= 1, "the count asked on start")
        before = badge(b)
        if before[0] or before[3] != "0" or before[2]:
            raise CheckFailed(f"before any report, bob's News link shows {before}")
        tap(b, "a#to-news")
        until(b, lambda p: view_of(p) == ["#news", "news", "ready"], "the News view after a tap on News")
        empty = b.js("const e = document.getElementById('news-empty');"
                     "return e.offsetParent !== null && e.textContent.replace(/\\s+/g, ' ').trim()")
        if not empty or not empty.startswith("No news yet: a member with a TMDB token checks") \
                or "peerctl services" not in empty:
            raise CheckFailed(f"bob's empty News view says {empty!r}")
        tap(b, "a#to-list")
        until(b, lambda p: view_of(p)[1] == "list", "the list again after a tap on List")
        session, asked = b.session(), asked_news(b)
        changed = come_to_netflix(w)
        shown_at = when(b, "(() => { const b = document.getElementById('news-badge');"
                           " return !b.hidden && b.textContent === '1'; })()", what="the count 1 on bob's News link",
                        timeout=APPEAR * 2)
        report = reported(w)
        made = made_at(w, report)
        after = badge(b)
        if after != [True, "1", "News, 1 new", "1"]:
            raise CheckFailed(f"bob's News link with the report: {after}")
        if b.session() != session or asked_news(b) <= asked:
            raise CheckFailed("the count came with a reload of the page, not from its events")
        live_ms = shown_at - made
        if live_ms > REPORT_BOUND_MS:
            raise CheckFailed(f"the count on bob's page {live_ms:.0f} ms after carol made the report, over the "
                              f"{REPORT_BOUND_MS} ms bound")
        tapped = tap(b, "a#to-news")
        shown = wait_news_view(b, report["operation"], "carol's report in bob's News view")
        if shown["unread"] != "true" or not shown["isNew"] or shown["index"] != 0:
            raise CheckFailed(f"the report in bob's News view is not new and first: {shown}")
        said = same_report(w, b, "bob", report)
        until(b, lambda p: badge(p)[0] is False and badge(p)[3] == "0", "the count cleared on bob's News link")
        unread = page_news(w, "bob")["unread"]
        if unread != 0:
            raise CheckFailed(f"bob's daemon counts {unread} unread after his page showed the news: it sent no looked")
        wide = b.js("const w = document.documentElement.clientWidth; return [document.documentElement.scrollWidth, w,"
                    "[...document.querySelectorAll('nav.views a, li.news-item, #news-credit')]"
                    ".filter(e => e.getBoundingClientRect().right > w + 0.5).map(e => e.id || e.className)]")
        if wide[0] > wide[1] or wide[2]:
            raise CheckFailed(f"at {PHONE[0]} px the News view is {wide[0]} px wide in {wide[1]}: "
                              f"over the edge {wide[2]}")
        tap(b, f"li.news-item[data-movie-id='{MOVIE}'] .news-poster")
        until(b, lambda p: movie_open(p) == TITLE and view_of(p)[0] == f"#movie/{MOVIE}",
              "the movie view after a tap on the report's poster")
        b.js("document.getElementById('movie-close').click()")
        until(b, lambda p: movie_open(p) is None and view_of(p)[:2] == ["#news", "news"], "back on News after Close")
    finally:
        phone(b, False)
    return (f"{PHONE[0]}×{PHONE[1]}, touch: empty view {empty[:40]!r}…; the offer changed, the count '1' "
            f"({after[2]!r}) {shown_at - changed:.0f} ms later, {live_ms:.0f} ms after carol made the report, "
            f"no reload; a {tapped} tap on News: {said}; new; the count cleared (daemon unread 0); "
            f"a tap on its poster opened #movie/{MOVIE}")


def check_keyboard(w):
    """bob's page by keyboard alone: Tab to News, Enter; Tab to the report, Enter opens its movie view.
    Meanwhile carol no longer wants the movie: the report under the view says "wanted by nobody now",
    live; Escape goes back to News, the focus on the report."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys
    report = reported(w)
    b = w.page("bob")
    b.open(timeout=APPEAR)
    w.live("bob")
    keys = lambda *k: ActionChains(b.driver).send_keys(*k).perform()  # noqa: E731
    b.js("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0)")
    b.driver.find_element("css selector", "h1").click()
    presses = [ws.tab_to(b, "a#to-news", 30)]
    if presses[0] is None:
        raise CheckFailed("30 presses of Tab never reached a#to-news")
    rings = [focus_ring(b)]
    keys(Keys.ENTER)
    wait_news_view(b, report["operation"], "the News view after Enter on News")
    item = f"li.news-item[data-movie-id='{MOVIE}'] a.movie-link"
    presses.append(ws.tab_to(b, item, 15))
    if presses[1] is None:
        raise CheckFailed(f"15 presses of Tab from News never reached the report's link ({item})")
    ring = b.js("const s = getComputedStyle(document.activeElement.closest('li.news-item'));"
                "return [s.outlineStyle, s.outlineWidth]")
    if ring[0] == "none" or ring[1] in ("0px", ""):
        raise CheckFailed(f"the report with the focus shows no ring: {ring}")
    rings.append(f"{ring[0]} {ring[1]}")
    keys(Keys.ENTER)
    until(b, lambda p: movie_open(p) == TITLE and view_of(p)[0] == f"#movie/{MOVIE}", "the movie view after Enter")
    try:
        peerctl(w.carol, "unmark", MOVIE, "--want")
        made = ws.now_ms()
        words = harness.expect_eventually(lambda: wanted_by(w, "bob", report) == [] and "wanted by nobody now",
                                          APPEAR, f"bob's daemon: {MOVIE} wanted by nobody")
        redrawn = when(b, "document.querySelector(`li.news-item[data-operation='${a[0]}'] .news-wanted`)"
                          "?.textContent === a[1]", [f"{report['operation']['origin']}:{report['operation']['seq']}",
                                                      words], f"{words!r} under bob's movie view")
        keys(Keys.ESCAPE)
        until(b, lambda p: movie_open(p) is None and view_of(p)[:2] == ["#news", "news"]
              and p.js("return document.activeElement.matches(arguments[0])", item),
              "back on News after Escape, the focus on the report")
    finally:
        peerctl(w.carol, "want", MOVIE)
        for name in ("bob", "alice"):
            harness.expect_eventually(lambda: "carol" in (wanted_by(w, name, report) or []), APPEAR,
                                      f"{name}'s daemon: {MOVIE} wanted by carol again")
    return (f"Tab ×{presses[0]} to News (ring {rings[0]}), Enter: #news; Tab ×{presses[1]} to the report "
            f"(ring {rings[1]} around it), Enter: #movie/{MOVIE}; carol's unwant made it {words!r} under the view "
            f"{redrawn - made:.0f} ms later; Escape: #news, the focus back on the report")


def check_token_links(w):
    """The link a desktop notification opens, #token=…&movie=603, opens the movie view once the token is
    taken; #token=…&view=news the News view; the token leaves the address either way."""
    reported(w)
    b = w.page("bob")
    token = w.api["bob"].token
    said = []
    for tail, hash_, what in ((f"&movie={MOVIE}", f"#movie/{MOVIE}", "the movie view"),
                              ("&view=news", "#news", "the News view")):
        b.driver.get("about:blank")
        b.driver.get(f"{b.base}#token={token}{tail}")
        b.wait_ready(APPEAR)
        if hash_.startswith("#movie"):
            until(b, lambda p: movie_open(p) == TITLE, f"{what} from #token=…{tail}")
        else:
            until(b, lambda p: view_of(p) == ["#news", "news", "ready"], f"{what} from #token=…{tail}")
        address = b.js("return location.href")
        kept = b.js("return sessionStorage.getItem('peerd.token')")
        if token in address or kept != token or not address.endswith(hash_):
            raise CheckFailed(f"#token=…{tail}: the address became {address.replace(token, 'TOKEN')!r}, "
                              f"the token kept: {kept == token}")
        said.append(f"#token=…{tail} → {hash_}")
    b.js("document.getElementById('movie-close').click(); location.hash = ''")
    return "; ".join(said) + "; the token gone from the address and kept in sessionStorage"


def check_alice(w):
    """alice's page (no token; the report came to her through bob): the count on a fresh load, the same
    report in her News view, and the count cleared."""
    report = reported(w)
    a = w.page("alice")
    harness.expect_eventually(lambda: "carol" in (wanted_by(w, "alice", report) or []), APPEAR,
                              "carol's report on alice's daemon, wanted by carol")
    unread = page_news(w, "alice")["unread"]
    a.open(timeout=APPEAR)
    w.live("alice")
    until(a, lambda p: badge(p)[1] == str(unread) and unread > 0, f"the count {unread} on alice's News link")
    count = badge(a)
    a.driver.find_element("css selector", "a#to-news").click()
    wait_news_view(a, report["operation"], "carol's report in alice's News view")
    said = same_report(w, a, "alice", report)
    until(a, lambda p: badge(p)[0] is False, "the count cleared on alice's News link")
    left = page_news(w, "alice")["unread"]
    if left != 0:
        raise CheckFailed(f"alice's daemon counts {left} unread after her page showed the news: it sent no looked")
    a.js("location.hash = ''")
    return f"alice's link said {count[2]!r} on load; her News view: {said}; then the count cleared (daemon unread 0)"


CHECKS = [
    ("News: carol reports 603 on Netflix; bob's phone-sized page counts it live, a tap shows it, the count clears",
     check_live_on_phone),
    ("News: by keyboard alone, Tab to News, Enter, Tab to the report, Enter opens #movie/603", check_keyboard),
    ("News: #token=…&movie=603 opens the movie view, #token=…&view=news the News view", check_token_links),
    ("News: alice's page, without a token, shows the same report and count", check_alice),
]
