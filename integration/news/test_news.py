#!/usr/bin/env python3
"""News of wanted movies (issue 41), end to end: three real peerd on loopback, paired by one group
secret, against the fake TMDB (integration/catalog/fake_tmdb.py), each on a real session bus of its
own (dbus-daemon) with a notification server of the test's own (notification_server.py, python's
dbus-next). alice and bob hold TMDB tokens, carol none; every peerd checks with --news-interval 2s.

The fake changes a movie's offers mid-test; the checks wait (on the daemons' answers and the fake's
request log) until the news reached every peer, and then through more checks by the holder whose
turn the movie is, to see it was reported once, by one holder, and shown once on each machine whose
member wants the movie. A holder killed in the middle of a check (its request held at the fake), and
one killed after reporting but before it recorded the check, neither lose nor repeat the news.

    PEERD_BIN_DIR=$(pwd)/.build/debug python3 integration/news/test_news.py [--keep] [--only WORDS ...]

Prints one PASS/FAIL line per check and ends with `news: N passed, M failed`; exits 77 with one
`news skipped:` line when dbus-daemon or the Python package dbus-next is missing.
"""
import importlib.util
import json
import os
import pathlib
import queue
import shutil
import signal
import subprocess
import sys
import threading
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent / "catalog"))
import daemon_trio as trio  # noqa: E402
import harness  # noqa: E402
from fake_tmdb import FakeTMDB  # noqa: E402
from harness import CheckFailed, expect_eventually  # noqa: E402
import suite  # noqa: E402
from suite import Suite  # noqa: E402
from test_catalog import v4_token, write_secret_file  # noqa: E402

NETFLIX, AMAZON, MUBI, APPLE = 8, 9, 11, 2
MATRIX, FIGHT_CLUB, REVOLUTIONS = 603, 550, 605
NEWS_WAIT = 40.0  # s: a 2 s interval, a turn, replication; generous for a loaded 2-core machine


class Desktop:
    """One machine's session bus (a real dbus-daemon) and its notification server."""

    def __init__(self, work, name):
        self.record = work / f"notified-{name}.jsonl"
        self.record.touch()
        socket_path = work / f"bus-{name}"
        self.address = f"unix:path={socket_path}"
        with open(work / f"bus-{name}.log", "w") as log:
            self.bus = subprocess.Popen(["dbus-daemon", "--session", "--nofork", f"--address={self.address}",
                                         "--print-address=1"], stdout=subprocess.PIPE, stderr=log, text=True)
        if not self.bus.stdout.readline().startswith("unix:"):
            raise harness.HarnessError(f"dbus-daemon for {name} did not start")
        self.server = subprocess.Popen([sys.executable, HERE / "notification_server.py", self.address,
                                        self.record], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        if self.server.stdout.readline().strip() != "ready":
            raise harness.HarnessError(f"the notification server for {name} did not start")
        # xdg-open as the desktop has it: here it writes down what it was asked to open.
        self.bin = work / f"bin-{name}"
        self.bin.mkdir()
        self.opened = work / f"opened-{name}"
        opener = self.bin / "xdg-open"
        opener.write_text(f'#!/bin/sh\nprintf "%s\\n" "$1" >> {self.opened}\n')
        opener.chmod(0o755)

    def notified(self):
        return [json.loads(line) for line in self.record.read_text().splitlines() if line.strip()]

    def click(self, notification_id):
        self.server.stdin.write(f"invoke {notification_id}\n")
        self.server.stdin.flush()

    def stop(self):
        for proc in (self.server, self.bus):
            harness.stop_process(proc, signal.SIGTERM, 5)


class Daemon(trio.Daemon):
    def __init__(self, w, name, dials=()):
        self.desktop = w.desktops[name]
        super().__init__(w, name, dials)
        self.env.update(DBUS_SESSION_BUS_ADDRESS=self.desktop.address,
                        PATH=f"{self.desktop.bin}:{os.environ.get('PATH', '')}")

    def argv(self):
        args = ["--tmdb-url", self.trio.fake.url, "--news-interval", "2s"]
        if self.name in self.trio.token_files:
            args += ["--tmdb-token-file", self.trio.token_files[self.name]]
        return super().argv() + args

    def news(self):
        return self.peerctl_json("news", "--limit", "500")


class World(trio.Trio):
    label = "news"
    daemon_class = Daemon

    def __init__(self, work):
        self.tokens = {"alice": v4_token(), "bob": v4_token()}
        self.fake = FakeTMDB(list(self.tokens.values())).start()
        self.desktops = {}
        super().__init__(work)
        self.token_files = {n: write_secret_file(work / f"{n}.token", t) for n, t in self.tokens.items()}
        for name in ("alice", "bob", "carol"):
            self.desktops[name] = Desktop(work, name)

    def holder_of(self, request):
        """The daemon whose token a request to the fake carried."""
        token = self.fake.tokens[request["token"]]
        return next(getattr(self, n) for n, t in self.tokens.items() if t == token)

    def checks_of(self, movie):
        return self.fake.requests(f"/3/movie/{movie}/watch/providers")

    def stop(self):
        super().stop()
        for desktop in self.desktops.values():
            desktop.stop()
        self.fake.stop()


def reports(daemon, movie):
    return [item for item in daemon.news()["items"] if item["movieId"] == movie]


def news_operations(daemon, movie):
    """The news operations of `movie` in the signed log (the news view counts two alike once)."""
    entries = daemon.peerctl_json("history", movie, "--limit", "1000")["entries"]
    return [e for e in entries if " reported: " in e["text"]]


def expect_operations(w, movie, count):
    made = {d.name: len(news_operations(d, movie)) for d in w.all()}
    if set(made.values()) != {count}:
        raise CheckFailed(f"news operations of {movie} in each log: {made}; {count} expected")


def wait_for_report(w, movie, words, count=1):
    """Until every daemon holds `count` reports of `movie`, the newest saying `words`."""
    def there():
        return all(len(r := reports(d, movie)) == count and any(words in line for line in r[0]["lines"])
                   for d in w.all())
    expect_eventually(there, NEWS_WAIT, f"a report of {movie} saying '{words}' on every peer")


def more_checks(w, movie, how_many=2):
    """Waits until the fake saw `how_many` more checks of `movie`: later rounds, which must not report again."""
    start = len(w.checks_of(movie))
    expect_eventually(lambda: len(w.checks_of(movie)) >= start + how_many, NEWS_WAIT,
                      f"{how_many} more checks of {movie}")


def check_setup(w):
    w.up()
    w.fake.set_offers(MATRIX, "DE", stream=[AMAZON])
    w.fake.set_offers(FIGHT_CLUB, "DE", stream=[MUBI])
    w.fake.set_offers(REVOLUTIONS, "DE", stream=[AMAZON])
    w.carol.peerctl_json("services", "--region", "DE", "netflix", "mubi")
    for daemon in w.all():
        daemon.peerctl_json("want", MATRIX)
    w.bob.peerctl_json("want", FIGHT_CLUB)
    w.alice.peerctl_json("want", REVOLUTIONS)

    def described():
        shown = [w.carol.peerctl_json("show", m) for m in (MATRIX, FIGHT_CLUB, REVOLUTIONS)]
        return all(((s.get("details") or {}).get("providers") or {}).get("region") == "DE" for s in shown)
    expect_eventually(described, NEWS_WAIT, "the three movies described with where to watch them in DE")
    checked = len(w.checks_of(MATRIX))
    expect_eventually(lambda: len(w.checks_of(MATRIX)) >= checked + 2, NEWS_WAIT, "two checks of 603")
    news = [d.news() for d in w.all()]
    if any(n["total"] for n in news):
        raise CheckFailed(f"news before anything changed: {news}")
    return f"services DE netflix+mubi; 3 movies wanted and described; {len(w.checks_of(MATRIX))} quiet checks of 603"


def check_arrival(w):
    started = time.monotonic()
    w.fake.set_offers(MATRIX, "DE", stream=[NETFLIX, AMAZON])
    wait_for_report(w, MATRIX, "The Matrix (1999) is now on Netflix (DE)")
    took = time.monotonic() - started
    item = reports(w.carol, MATRIX)[0]
    if sorted(item["wantedBy"]) != ["alice", "bob", "carol"]:
        raise CheckFailed(f"wanted by {item['wantedBy']}, expected alice, bob and carol")
    more_checks(w, MATRIX)
    expect_operations(w, MATRIX, 1)
    holders = {w.holder_of(r).name for r in w.checks_of(MATRIX)}
    if len(holders) != 1:
        raise CheckFailed(f"603 was checked by {sorted(holders)}; one holder's turn expected")
    text = w.carol.peerctl("news").stdout
    if "wanted by alice, bob and carol" not in text or "JustWatch" not in text:
        raise CheckFailed(f"peerctl news said:\n{text}")
    return (f"on every peer {took:.1f} s after the change, once (after 2 more checks), checked only by "
            f"{holders.pop()}; carol's peerctl news: {text.splitlines()[0].strip()}")


def check_desktop(w):
    def each_once():
        return all(sum("The Matrix" in n["summary"] for n in d.notified()) == 1 for d in w.desktops.values())
    expect_eventually(each_once, NEWS_WAIT, "one notification of The Matrix on each machine")
    more_checks(w, MATRIX)
    seen = {n: [x["summary"] for x in d.notified()] for n, d in w.desktops.items()}
    if any(len(s) != 1 for s in seen.values()):
        raise CheckFailed(f"notifications per machine: {seen}")
    note = w.desktops["carol"].notified()[0]
    problems = []
    if note["app_name"] != "peerd" or note["hints"].get("urgency") != 1 or note["actions"][:1] != ["default"]:
        problems.append(f"app, urgency or action: {note}")
    if "JustWatch" not in note["body"] or "wanted by alice, bob and carol" not in note["body"]:
        problems.append(f"body: {note['body']!r}")
    if problems:
        raise CheckFailed("; ".join(problems))
    w.desktops["carol"].click(note["id"])
    opened = w.desktops["carol"].opened
    expect_eventually(lambda: opened.exists() and opened.read_text().strip(), 10, "the click opening the page")
    url = opened.read_text().strip()
    if not url.startswith("http://") or "#token=" not in url or not url.endswith(f"&movie={MATRIX}"):
        raise CheckFailed(f"the click opened {url!r}")
    return f"one Notify on each of 3 machines: {note['summary']!r}; a click opened {url.split('#')[0]}#token=…&movie=603"


def check_only_its_wanters(w):
    w.fake.set_offers(FIGHT_CLUB, "DE", stream=[MUBI], rent=[APPLE])
    wait_for_report(w, FIGHT_CLUB, "Fight Club (1999) is out to rent on Apple TV (DE)")
    bob = w.desktops["bob"]
    expect_eventually(lambda: any("Fight Club" in n["summary"] for n in bob.notified()), NEWS_WAIT,
                      "bob's desktop told of Fight Club")
    more_checks(w, FIGHT_CLUB)
    expect_operations(w, FIGHT_CLUB, 1)
    others = {n: [x["summary"] for x in d.notified() if "Fight Club" in x["summary"]]
              for n, d in w.desktops.items() if n != "bob"}
    if any(others.values()):
        raise CheckFailed(f"machines whose members don't want Fight Club were told: {others}")
    note = next(n for n in bob.notified() if "Fight Club" in n["summary"])
    if note["hints"].get("urgency") != 0:
        raise CheckFailed(f"an offer to rent is news of a lower kind: urgency {note['hints'].get('urgency')}")
    return "rent news on every peer; only bob's desktop told, at low urgency"


class Follower:
    """`peerctl news --follow --json` running on a daemon: each record it prints, as it prints it."""

    def __init__(self, daemon, *args):
        self.proc = subprocess.Popen(harness.peerctl_argv(daemon.socket, "news", "--follow", "--json", *args),
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.lines = queue.Queue()
        threading.Thread(target=lambda: [self.lines.put(line) for line in self.proc.stdout], daemon=True).start()

    def next(self, timeout=NEWS_WAIT):
        try:
            return json.loads(self.lines.get(timeout=timeout))
        except queue.Empty:
            raise CheckFailed(f"peerctl news --follow printed nothing in {timeout:g} s") from None

    def stop(self):
        harness.stop_process(self.proc, signal.SIGTERM, 5)


def check_left_and_unwanted(w):
    follower = Follower(w.carol, "--limit", "1")
    try:
        first = follower.next()
        w.fake.set_offers(MATRIX, "DE", stream=[AMAZON])
        wait_for_report(w, MATRIX, "The Matrix (1999) left Netflix (DE)", count=2)
        followed = follower.next()
    finally:
        follower.stop()
    lines = [line for item in followed["items"] for line in item["lines"]]
    if len(first["items"]) != 1 or lines != ["The Matrix (1999) left Netflix (DE)"]:
        raise CheckFailed(f"news --follow --limit 1 printed {first['items']} then {followed['items']}")
    w.bob.peerctl_json("seen", FIGHT_CLUB)
    expect_eventually(lambda: all(reports(d, FIGHT_CLUB)[0]["wantedBy"] == [] for d in w.all()), NEWS_WAIT,
                      "Fight Club's report kept, wanted by nobody")
    text = w.alice.peerctl("news").stdout
    if "wanted by nobody now" not in text:
        raise CheckFailed(f"peerctl news said:\n{text}")
    return ("the leave reported on every peer and followed as it came (that report alone); a report of a movie "
            "nobody wants any more is kept")


def check_killed_mid_check(w):
    path = f"/3/movie/{REVOLUTIONS}/watch/providers"
    w.fake.hold(path)
    asked = len(w.checks_of(REVOLUTIONS))
    w.fake.set_offers(REVOLUTIONS, "DE", stream=[NETFLIX, AMAZON])
    expect_eventually(lambda: len(w.checks_of(REVOLUTIONS)) > asked, NEWS_WAIT, "a check of 605 under way")
    holder = w.holder_of(w.checks_of(REVOLUTIONS)[-1])
    harness.stop_process(holder.proc, signal.SIGKILL, 5)
    w.fake.release(path)
    holder.start()
    wait_for_report(w, REVOLUTIONS, "The Matrix Revolutions (2003) is now on Netflix (DE)")
    more_checks(w, REVOLUTIONS)
    expect_operations(w, REVOLUTIONS, 1)
    return f"{holder.name} killed while its check of 605 waited at TMDB; after its restart, 605 reported once"


def check_killed_before_recording(w):
    w.fake.set_offers(REVOLUTIONS, "DE", stream=[AMAZON])
    wait_for_report(w, REVOLUTIONS, "left Netflix", count=2)
    holder = w.holder_of(w.checks_of(REVOLUTIONS)[-1])
    harness.stop_process(holder.proc, signal.SIGKILL, 5)
    # As if it died between appending the news and recording the check: no record of any check.
    (holder.state_dir / "tmdb" / "news-checks.json").unlink(missing_ok=True)
    holder.start()
    more_checks(w, REVOLUTIONS)
    expect_operations(w, REVOLUTIONS, 2)
    notes = {n: sum("Revolutions" in x["summary"] for x in d.notified()) for n, d in w.desktops.items()}
    if notes != {"alice": 2, "bob": 0, "carol": 0}:
        raise CheckFailed(f"notifications of 605 per machine: {notes}; alice's two reports, once each")
    return f"{holder.name} restarted without its record of checks; it checked 605 again and reported nothing twice"


CHECKS = [
    ("setup: services, wanted movies, details, quiet checks", check_setup),
    ("arrival: one report on every peer, one holder checking", check_arrival),
    ("desktop: one Notify per machine, a click opens the movie", check_desktop),
    ("offers: rent news, only to its wanter's desktop, low urgency", check_only_its_wanters),
    ("leaving and unwanted: reported, kept", check_left_and_unwanted),
    ("restart: a holder killed mid-check loses nothing", check_killed_mid_check),
    ("restart: a holder that lost its record repeats nothing", check_killed_before_recording),
]


def main():
    missing = ("no dbus-daemon (apt install dbus)" if not shutil.which("dbus-daemon") else
               None if importlib.util.find_spec("dbus_next") else "no Python package dbus-next (make test-deps)")
    if missing:
        return Suite("news").skip(missing)
    return suite.main("news", __doc__.split("\n")[0], CHECKS, World)


if __name__ == "__main__":
    sys.exit(main())
