"""The group's members in the page's peers panel (proto/WEB.md, CONTROL.md "members"), in Chromium:
everyone in the group with who let each in and how, and removing one behind a confirmation dialog,
with the mouse, the keyboard alone and a finger on a phone-sized viewport.

A removal holds for the whole group and closes the group secret, so these checks have a group of
their own, not alice and bob's: hana (with a page, a browser of her own and a group secret of her
own) and three machines that join her by invite, ivo, jun and kai, one for each way to remove. What
the panel shows is held to what `peerctl members --json` says on hana; that nothing is sent before
the confirmation, to the requests the page made (the recorder's `__web.requests`)."""
import json
import re

import harness
from harness import CheckFailed
import web_support as ws
from web_marks import APPEAR, PHONE, phone, tap, until
from web_support import tab_to

JOINERS = ("ivo", "jun", "kai")


class Group:
    """hana, her page in a browser of her own, and the three who joined her by invite."""

    def __init__(self, w):
        self.work = w.work
        secret = harness.write_group_secret(w.work / "hana.secret")
        self.hana = w.track(ws.WebPeerd(w.work, "hana", harness.free_port(), harness.free_port(), secret))
        self.hana.start()
        self.joiners = {}
        for name in JOINERS:
            joiner = w.track(harness.Peerd(w.work, name, harness.free_port(), ["--no-web"],
                                           env=ws.clean_env(w.work, name))).start()
            code = self.hana.peerctl_json("invite")["code"]
            joined = joiner.peerctl("join", code, "--address", f"127.0.0.1:{self.hana.port}", timeout=30)
            if joined.returncode != 0:
                raise CheckFailed(f"{name} joining hana: exit {joined.returncode}: {joined.stdout}{joined.stderr}")
            self.joiners[name] = joiner
        browser = ws.Browser(w.work, "hana")
        w.browsers.append(browser)
        browser.start()
        self.page = ws.Page(browser, self.hana.wait_page()).open(timeout=APPEAR)
        w.pages["hana"] = self.page  # its CSP violations and console are watched with the others'

    def members(self):
        """`peerctl members --json` on hana: peer id → its record; and the whole answer."""
        answer = self.hana.peerctl_json("members")
        return {m["peer"]: m for m in answer["members"]}, answer

    def state(self, name):
        return self.members()[0][self.joiners[name].id]["state"]


def group(w):
    if getattr(w, "members_group", None) is None:
        w.members_group = Group(w)
    return w.members_group


# MARK: what the panel shows


def panel(page):
    """The members panel: [{peer, state, name, you, said, button}] in its order."""
    return page.js("""
      return [...document.querySelectorAll('ul#group-members > li.group-member')].map(li => ({
        peer: li.dataset.peer, state: li.dataset.state, name: li.querySelector('.name').textContent,
        you: !!li.querySelector('.you'), said: li.querySelector('.said').textContent,
        button: !!li.querySelector('button.remove-member')}));""")


def row_of(page, peer):
    return next((r for r in panel(page) if r["peer"] == peer), None)


def remove_button(peer):
    return f"ul#group-members > li.group-member[data-peer='{peer}'] button.remove-member"


def dialog(page):
    """The removal dialog: open, its title and words, its buttons, and whether the focus is in it."""
    return page.js("""
      const d = document.getElementById('remove-member');
      return {open: d.open, title: document.getElementById('remove-member-title').textContent,
              what: document.getElementById('remove-member-what').textContent,
              confirm: document.getElementById('remove-member-confirm').textContent,
              focusIn: d.contains(document.activeElement), focused: document.activeElement.id};""")


def removals_sent(page):
    return page.js("return window.__web.requests.filter(r => r.type === 'removeMember').length")


def expect_dialog(page, name):
    shown = until(page, lambda p: (lambda d: d if d["open"] else None)(dialog(p)), f"the dialog to remove {name}")
    problems = []
    if shown["title"] != f"Remove {name} from the group?":
        problems.append(f"title {shown['title']!r}")
    for words in (f"refuse {name}’s key from now on", f"what {name} added before stays",
                  f"{name}’s machine keeps what it already has", "can’t be undone"):
        if words not in shown["what"]:
            problems.append(f"the words lack {words!r}: {shown['what']!r}")
    if shown["confirm"] != f"Remove {name}" or not shown["focusIn"]:
        problems.append(f"confirm button {shown['confirm']!r}, focus in the dialog: {shown['focusIn']}")
    if problems:
        raise CheckFailed(f"the dialog to remove {name}: " + "; ".join(problems))
    return shown


def expect_closed_unsent(g, page, name, sent_before, how):
    """The dialog closed with nothing sent, the focus back on the button, and `name` still a member."""
    until(page, lambda p: not dialog(p)["open"], f"the dialog closed by {how}")
    joiner = g.joiners[name]
    back = page.js("return document.activeElement.matches(arguments[0])", remove_button(joiner.id))
    if not back:
        raise CheckFailed(f"after {how} the focus is on {page.js('return document.activeElement.outerHTML')[:120]}, "
                          f"not on {name}'s remove button")
    if removals_sent(page) != sent_before or g.state(name) != "member":
        raise CheckFailed(f"after {how}: {removals_sent(page) - sent_before} removeMember sent, {name} is "
                          f"{g.state(name)} on hana")


def expect_removed(g, page, name):
    """`name` removed by hana, as peerctl says and as the panel shows; the panel's words."""
    joiner = g.joiners[name]
    record = harness.expect_eventually(lambda: (lambda m: m if m["state"] == "removed" else None)(
        g.members()[0][joiner.id]), APPEAR, f"{name} removed on hana (peerctl members --json)")
    if record.get("removedBy") != g.hana.id:
        raise CheckFailed(f"{name} removed by {record.get('removedBy')}, not hana {g.hana.id}")
    row = until(page, lambda p: (lambda r: r if r and r["state"] == "removed" else None)(row_of(p, joiner.id)),
                f"{name}'s row removed in the panel")
    if not re.fullmatch(r"removed by hana (at \d\d:\d\d|on \d{1,2} \w{3}( \d{4})? at \d\d:\d\d)", row["said"]) \
            or row["button"]:
        raise CheckFailed(f"{name}'s row after the removal: {row}")
    return row["said"]


# MARK: checks


def check_members_listed(w):
    """The panel lists hana (marked "you") and the three who joined her, each as peerctl members says,
    with who admitted them and how; a remove button on each but hana."""
    g = group(w)
    page = g.page
    members, answer = g.members()
    want = [m["peer"] for m in answer["members"]]
    rows = until(page, lambda p: (lambda r: r if [x["peer"] for x in r] == want else None)(panel(p)),
                 f"the panel listing {len(want)} members in peerctl's order ({want})")
    problems = []
    for row in rows:
        record = members[row["peer"]]
        here = row["peer"] == g.hana.id
        if row["name"] != record.get("name") or row["you"] != here or row["button"] == here:
            problems.append(f"{row} for {record}")
        if not here and not re.fullmatch(r"admitted by hana · invite · \d{1,2} \w{3}( \d{4})?", row["said"]):
            problems.append(f"{row['name']}: {row['said']!r}")
    ids = {g.hana.id, *(j.id for j in g.joiners.values())}
    if set(want) != ids or any(m["state"] != "member" for m in members.values()):
        problems.append(f"peerctl members: {answer}")
    if problems:
        raise CheckFailed("; ".join(problems))
    said = ", ".join(f"{r['name']}{' (you)' if r['you'] else ''}: {r['said']}" for r in rows)
    return f"{len(rows)} members as peerctl lists them: {said}"


def check_remove_by_mouse(w):
    """A click on ivo's Remove opens the dialog; Cancel sends nothing; confirming removes ivo for the
    group (peerctl members: removed by hana), the panel says so, and the group secret's note shows."""
    g = group(w)
    page = g.page
    ivo = g.joiners["ivo"]
    sent = removals_sent(page)
    until(page, lambda p: row_of(p, ivo.id), "ivo's row")
    page.driver.find_element("css selector", remove_button(ivo.id)).click()
    shown = expect_dialog(page, "ivo")
    page.driver.find_element("css selector", "button#remove-member-cancel").click()
    expect_closed_unsent(g, page, "ivo", sent, "Cancel")
    page.driver.find_element("css selector", remove_button(ivo.id)).click()
    expect_dialog(page, "ivo")
    page.driver.find_element("css selector", "button#remove-member-confirm").click()
    said = expect_removed(g, page, "ivo")
    notice = until(page, lambda p: p.js("return document.getElementById('notice').textContent"), "a notice")
    if not notice.startswith("Removed ivo from the group") or page.error_shown():
        raise CheckFailed(f"notice {notice!r}, error {page.error_shown()!r}")
    closed = g.members()[1].get("secretClosed")
    note = until(page, lambda p: p.js("const n = document.getElementById('secret-closed');"
                                      "return !n.hidden && n.textContent"), "the group secret's note")
    if not closed or note != closed:
        raise CheckFailed(f"the panel's note {note!r}; peerctl members' secretClosed {closed!r}")
    if removals_sent(page) != sent + 1:
        raise CheckFailed(f"{removals_sent(page) - sent} removeMember requests sent for one confirmation")
    peer = until(page, lambda p: p.js(
        "const li = document.querySelector(`ul#peers > li.peer[data-peer='${arguments[0]}']`);"
        "return !li ? 'gone' : li.dataset.peer && li.querySelector('.state').textContent !== 'connected' &&"
        " li.querySelector('.state').textContent", ivo.id), "ivo no longer connected in the peers panel")
    return (f"dialog {shown['title']!r}; Cancel sent nothing; confirmed: {said!r}; notice {notice!r}; note {note!r}; "
            f"ivo in the peers panel: {peer}")


def check_remove_by_keyboard(w):
    """By the keyboard alone: Tab to jun's Remove, Enter opens the dialog (focus in it), Escape closes it
    with nothing sent and the focus back; Enter again, Tab to "Remove jun", Enter removes jun."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys
    g = group(w)
    page = g.page
    jun = g.joiners["jun"]
    keys = lambda *k: ActionChains(page.driver).send_keys(*k).perform()  # noqa: E731
    sent = removals_sent(page)
    page.js("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0)")
    page.driver.find_element("css selector", "h1").click()
    presses = tab_to(page, remove_button(jun.id), 60)
    if presses is None:
        raise CheckFailed("60 presses of Tab never reached jun's Remove")
    keys(Keys.ENTER)
    expect_dialog(page, "jun")
    keys(Keys.ESCAPE)
    expect_closed_unsent(g, page, "jun", sent, "Escape")
    keys(Keys.ENTER)
    first = expect_dialog(page, "jun")["focused"]
    keys(Keys.TAB)
    if dialog(page)["focused"] != "remove-member-confirm":
        raise CheckFailed(f"Tab from {first} in the dialog went to {dialog(page)['focused']!r}")
    keys(Keys.ENTER)
    said = expect_removed(g, page, "jun")
    focused = until(page, lambda p: not dialog(p)["open"] and p.js(
        "return document.activeElement.closest('li.group-member')?.dataset.peer"), "the focus back in the panel")
    if focused != jun.id:
        raise CheckFailed(f"after the removal the focus is on {focused}'s row, not jun's")
    return (f"Tab ×{presses} to jun's Remove; Enter opened the dialog (focus on #{first}), Escape closed it, nothing "
            f"sent; Enter, Tab, Enter: {said!r}; the focus on jun's row")


def check_remove_by_touch(w):
    """On a 360 px phone with touch: the panel and the dialog fit; a tap on kai's Remove opens the
    dialog, a tap on Cancel sends nothing, a tap on "Remove kai" removes kai."""
    g = group(w)
    page = g.page
    kai = g.joiners["kai"]
    sent = removals_sent(page)
    try:
        phone(page, True)
        tap(page, remove_button(kai.id))
        expect_dialog(page, "kai")
        fit = page.js("""
          const w = document.documentElement.clientWidth, h = window.innerHeight;
          const boxes = ['remove-member', 'remove-member-cancel', 'remove-member-confirm', 'group-members']
            .map(id => [id, document.getElementById(id).getBoundingClientRect()]);
          return {wide: document.documentElement.scrollWidth > w,
                  out: boxes.filter(([id, r]) => r.left < 0 || r.right > w + 0.5).map(([id]) => id),
                  small: boxes.filter(([id, r]) => id.startsWith('remove-member-') && r.height < 44)
                    .map(([id]) => id)};""")
        if fit["wide"] or fit["out"] or fit["small"]:
            raise CheckFailed(f"at {PHONE[0]} px: {fit}")
        tap(page, "button#remove-member-cancel")
        expect_closed_unsent(g, page, "kai", sent, "a tap on Cancel")
        tap(page, remove_button(kai.id))
        expect_dialog(page, "kai")
        tap(page, "button#remove-member-confirm")
        said = expect_removed(g, page, "kai")
    finally:
        phone(page, False)
    rows = panel(page)
    order = [r["state"] for r in rows]
    if order != sorted(order, key=lambda s: s == "removed") or [r["name"] for r in rows if r["button"]]:
        raise CheckFailed(f"the panel after three removals: {json.dumps(rows)}")
    return f"{PHONE[0]}×{PHONE[1]} with touch: Cancel tapped, nothing sent; confirmed: {said!r}; members first"


CHECKS = [
    ("members: the peers panel lists the group's members as peerctl members does", check_members_listed),
    ("members: remove by mouse behind a dialog; Cancel sends nothing; the removal holds and shows",
     check_remove_by_mouse),
    ("members: remove by keyboard alone (Tab, Enter, Escape, Enter, Tab, Enter)", check_remove_by_keyboard),
    ("members: remove by touch on a 360 px phone; Cancel sends nothing", check_remove_by_touch),
]
