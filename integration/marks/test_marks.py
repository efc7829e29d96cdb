#!/usr/bin/env python3
"""Members' marks, watches and history, end to end: three real peerd on loopback and a member in Python.

alice, bob and carol share a group secret; alice dials bob and carol, carol dials bob. They mark
movies through peerctl (want, seen with a day and a rating, rate, veto, unmark, watched), and the
checks read every daemon's `list`, `show` and `history`. dave, a member written in Python
(signing_peer.py, admitted with the group secret), signs operations with his own key: marks with
fields a later version added, which must reach the other daemons byte for byte, and marks in
alice's name, which every receiver must refuse.

    PEERD_BIN_DIR=/path/to/bins python3 integration/marks/test_marks.py [--keep] [--only WORDS ...]

Prints one PASS/FAIL line per check and ends with `marks: N passed, M failed`. Exit status 0 when
all passed, 1 otherwise; the work dir (daemon logs, states) is kept on failure or with --keep.
"""
import base64
import itertools
import json
import math
import pathlib
import datetime
import re
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))
import harness  # noqa: E402
from harness import CheckFailed, HarnessError, expect_eventually  # noqa: E402
import suite  # noqa: E402
from suite import Suite  # noqa: E402
import daemon_trio as trio  # noqa: E402
from daemon_trio import SYNC_WAIT, said, shorten  # noqa: E402

try:
    import cryptography  # noqa: F401
except ImportError:
    missing = Suite("marks")
    missing.fail("the Python package 'cryptography' is missing (make test-deps installs it, or "
                 "python3 -m pip install cryptography)")
    sys.exit(missing.finish())
from signing_peer import Member, Session, canonical, verify  # noqa: E402

BOUND = 6.0  # s: a daemon closes a session that sent a refused operation (PEER.md: error, then close)

MOVIES = {  # id: (title, year)
    603: ("The Matrix", 1999),
    550: ("Fight Club", 1999),
    13: ("Forrest Gump", 1994),
    680: ("Pulp Fiction", 1994),
    155: ("The Dark Knight", 2008),
    278: ("The Shawshank Redemption", 1994),
}


def titled(movie):
    """A movie as history names it: "The Matrix (1999)"; "movie 424" without a title."""
    if movie not in MOVIES:
        return f"movie {movie}"
    title, year = MOVIES[movie]
    return f"{title} ({year})"


# MARK: daemons


class Daemon(trio.Daemon):
    def ids(self, *args):
        """The movie ids `peerctl list ARGS --json` gives, in its order."""
        return [m["movieId"] for m in self.peerctl_json("list", *args)]

    def history(self, *args):
        """Every entry of `peerctl history ARGS --json` (one page of up to 1,000)."""
        page = self.peerctl_json("history", *args, "--limit", 1000)
        if page.get("next"):
            raise HarnessError(f"{self.name}'s history has more than 1,000 entries")
        return page["entries"]


class Marks:
    """What each member's marks on each movie should be: movie -> member name -> record fields."""

    BLANK = {"want": False, "seen": False, "seenOn": None, "rating": None, "veto": False}

    def __init__(self):
        self.movies = {}

    def set(self, movie, member, **fields):
        """Sets a member's marks as made, in order: `seen` (a mark or a watch) before `rating` when
        both are given. A rating is a viewing (PEER.md, "Marks"): a set rating newer than the
        member's seen mark makes them seen; a cleared one says nothing."""
        record = self.movies.setdefault(movie, {}).setdefault(member, dict(self.BLANK, seenMark=False,
                                                                           ratedLater=False))
        if "seen" in fields:
            record["seenMark"], record["ratedLater"] = fields["seen"], False
        if "rating" in fields:
            record["ratedLater"] = fields["rating"] is not None
        record.update(fields)
        record["seen"] = record["seenMark"] or record["ratedLater"]

    def of(self, movie):
        """The members with a mark set on `movie`, as the list should show them."""
        shown = {name: {k: fields[k] for k in self.BLANK} for name, fields in self.movies.get(movie, {}).items()}
        return {name: fields for name, fields in shown.items() if fields != self.BLANK}

    def average(self, movie):
        """The members' average rating, as rows carry it: to one decimal, halves up."""
        ratings = [f["rating"] for f in self.of(movie).values() if f["rating"] is not None]
        return math.floor(sum(ratings) * 10 / len(ratings) + 0.5) / 10 if ratings else None


class World(trio.Trio):
    label = "marks"
    daemon_class = Daemon

    def __init__(self, work):
        super().__init__(work)
        self.model = Marks()
        self.made = []  # (phase, maker, op kind, history text) of every operation, in the order made
        self.phase = 0  # operations of one phase may be concurrent; `settle` ends a phase
        self.based = False
        self.base_error = None
        self.dave = None  # the member in Python, made when a check needs him
        self.erin = None  # a member in Python who only watches what daemons send

    # Members.

    def names(self):
        """peer id -> the name the group knows it by."""
        names = {d.id: d.name for d in self.all()}
        if self.dave:
            names[self.dave.peer_id] = self.dave.name
        return names

    def members(self):
        if self.dave is None:
            self.dave, self.erin = Member("dave"), Member("erin")
        return self.dave, self.erin

    # Making operations.

    def act(self, daemon, *args, texts):
        """`peerctl ARGS --json` on `daemon`, which must make exactly the operations `texts` say in
        words (as history will show them); returns its JSON."""
        answer = daemon.peerctl_json(*args)
        made = answer.get("made") if isinstance(answer, dict) else None
        if made is not None and made != len(texts):
            raise CheckFailed(f"peerctl {' '.join(map(str, args))} on {daemon.name} made {made} operations, "
                              f"expected {len(texts)} ({texts}): {shorten(answer)}")
        with self.lock:
            self.made += [(self.phase, daemon.name, kind_of(text), text) for text in texts]
            self.total += len(texts)
        return answer

    def add(self, daemon, movie):
        title, year = MOVIES[movie]
        return self.act(daemon, "add", movie, "--title", title, "--year", year,
                        texts=[f"{daemon.name} added {titled(movie)}"])

    def settle(self):
        """Waits until every daemon holds every operation made so far; ends the phase."""
        super().settle()
        self.phase += 1

    def base(self):
        """The marks every check starts from (made once): five movies, then alice, bob and carol
        marking at the same time, each on their own daemon.

            603 The Matrix    alice seen 2026-11-20, 8/10; bob 6/10; carol 9/10 (average 7.7): a
                              rating is a viewing, so all three have seen it
            550 Fight Club    wanted by alice, bob and carol
            13  Forrest Gump  bob wants it and saw it 2026-11-18; carol 4/10, then says she
                              hasn't seen it (`unmark --seen` after her rating)
            680 Pulp Fiction  carol wants it; alice vetoes it
            155 The Dark Knight (added by bob): no marks
        """
        if self.based:
            return
        if self.base_error:
            raise HarnessError(f"the marks every check starts from could not be made: {self.base_error}")
        try:
            self.make_base()
        except (CheckFailed, HarnessError) as error:
            self.base_error = error
            raise
        self.based = True

    def make_base(self):
        self.up()
        a, b, c = self.alice, self.bob, self.carol
        for movie in (603, 550, 13, 680):
            self.add(a, movie)
        self.settle()
        self.add(b, 155)  # after alice's four: the list's order is 603, 550, 13, 680, 155
        self.settle()

        def alice():
            self.act(a, "seen", 603, "--on", "2026-11-20", "--rating", 8,
                     texts=["alice has seen The Matrix (1999) (on 2026-11-20)", "alice rated The Matrix (1999) 8/10"])
            self.act(a, "want", 550, texts=["alice wants to watch Fight Club (1999)"])
            self.act(a, "veto", 680, texts=["alice vetoed Pulp Fiction (1994)"])

        def bob():
            self.act(b, "want", 550, texts=["bob wants to watch Fight Club (1999)"])
            self.act(b, "want", 13, texts=["bob wants to watch Forrest Gump (1994)"])
            self.act(b, "seen", 13, "--on", "2026-11-18", texts=["bob has seen Forrest Gump (1994) (on 2026-11-18)"])
            self.act(b, "rate", 603, 6, texts=["bob rated The Matrix (1999) 6/10"])

        def carol():
            self.act(c, "want", 550, texts=["carol wants to watch Fight Club (1999)"])
            self.act(c, "want", 680, texts=["carol wants to watch Pulp Fiction (1994)"])
            self.act(c, "rate", 603, 9, texts=["carol rated The Matrix (1999) 9/10"])
            self.act(c, "rate", 13, 4, texts=["carol rated Forrest Gump (1994) 4/10"])
            self.act(c, "unmark", 13, "--seen", texts=["carol marked Forrest Gump (1994) as not seen"])
        self.concurrently(alice, bob, carol)
        self.settle()
        m = self.model
        m.set(603, "alice", seen=True, seenOn="2026-11-20", rating=8)
        m.set(603, "bob", rating=6)
        m.set(603, "carol", rating=9)
        for name in ("alice", "bob", "carol"):
            m.set(550, name, want=True)
        m.set(13, "bob", want=True, seen=True, seenOn="2026-11-18")
        m.set(13, "carol", rating=4)
        m.set(13, "carol", seen=False)
        m.set(680, "carol", want=True)
        m.set(680, "alice", veto=True)

    # Reading marks back.

    def row_problems(self, daemon, where, row, movie):
        """What differs between a row's marks (a list or show record) and the model."""
        names = self.names()
        problems = []
        seen = {}
        for mark in row.get("marks", []):
            name = names.get(mark.get("peer"), f"unknown peer {mark.get('peer')}")
            if mark.get("name") != name:
                problems.append(f"{daemon.name} {where} {movie}: peer {mark.get('peer')} is called "
                                f"{mark.get('name')!r}, not {name!r}")
            seen[name] = {k: mark.get(k, None if k in ("seenOn", "rating") else "absent") for k in Marks.BLANK}
        want = self.model.of(movie)
        if seen != want:
            problems.append(f"{daemon.name} {where} {movie}: marks {seen}, expected {want}")
        average = self.model.average(movie)
        got = row.get("averageRating")
        if (average is None) != (got is None) or (average is not None and abs(got - average) > 1e-9):
            problems.append(f"{daemon.name} {where} {movie}: averageRating {got}, expected {average}")
        return problems

    def marks_problems(self, movies=None):
        """What differs from the model on any daemon, in `list --json` and in `show MOVIE --json`."""
        problems = []
        for d in self.all():
            rows = {r["movieId"]: r for r in d.movies()}
            for movie in movies or sorted(set(rows) | {m for m in self.model.movies if self.model.of(m)}):
                if movie not in rows:
                    problems.append(f"{d.name}: {movie} is not listed")
                    continue
                problems += self.row_problems(d, "list", rows[movie], movie)
                shown = d.peerctl_json("show", movie).get("movie")
                if shown is None:
                    problems.append(f"{d.name}: show {movie} has no movie record")
                else:
                    problems += self.row_problems(d, "show", shown, movie)
        return problems

    def expect_marks(self, movies=None, what="marks"):
        """Every daemon's list and show agree with the model (waits for it, up to SYNC_WAIT)."""
        last = []

        def probe():
            last[:] = self.marks_problems(movies)
            return not last
        try:
            expect_eventually(probe, SYNC_WAIT, what)
        except CheckFailed as failure:
            raise CheckFailed(f"{failure}: " + "; ".join(last[:6])) from None

    def expect_lists(self, cases):
        """`cases`: (args, expected ids); each on every daemon (`me` replaced per daemon by a dict)."""
        problems, runs = [], 0
        for args, expected in cases:
            for d in self.all():
                want = expected[d.name] if isinstance(expected, dict) else expected
                got = d.ids(*args)
                runs += 1
                if got != want:
                    problems.append(f"{d.name}: list {' '.join(map(str, args))} gave {got}, expected {want}")
        if problems:
            raise CheckFailed("; ".join(problems))
        return runs


def kind_of(text):
    """The `op` a history line stands for."""
    for words, kind in ((" added ", "add"), (" removed ", "remove"), (" logged a watch of ", "watch"),
                        (" made an operation this peerd doesn't know ", None)):
        if words in text:
            return kind
    return "mark"


def with_names(*daemons):
    """The members a watch names, as its history line lists them: by peer id."""
    return ", ".join(d.name for d in sorted(daemons, key=lambda d: d.id))


# MARK: checks


def check_converge(w):
    """Marks made at the same time on all three daemons converge, each attributed to its member."""
    w.base()
    w.expect_marks(what="every daemon's list and show matching the marks made")
    shown = w.bob.peerctl("show", 603).stdout
    lines = [r"alice\s+seen on 2026-11-20 / rating 8/10", r"bob\s+seen / rating 6/10", r"carol\s+seen / rating 9/10",
             r"group's rating\s+7\.7/10"]
    missing = [pattern for pattern in lines if not re.search(pattern, shown)]
    if missing:
        raise CheckFailed(f"bob's `peerctl show 603` lacks {missing}:\n{shown}")
    rows = {r["movieId"]: r for r in w.carol.movies()}
    return (f"{w.total} operations on each daemon; 603 average {rows[603]['averageRating']:.4f}, "
            f"550 wanted by {[m['name'] for m in rows[550]['marks']]}, 155 marks {rows[155].get('marks', [])}")


def check_filters(w):
    """--unseen, --by, --wanted-by and --sort give exactly the expected movies, in order."""
    w.base()
    cases = [
        (("--unseen",), [550, 680, 155]),
        (("--unseen", "--by", "carol"), [550, 13, 680, 155]),
        (("--unseen", "--by", "alice,bob"), [550, 680, 155]),
        (("--unseen", "--by", "bob"), [550, 680, 155]),
        (("--wanted-by", "me"), {"alice": [550], "bob": [550, 13], "carol": [550, 680]}),
        (("--wanted-by", "bob"), [550, 13]),
        (("--wanted-by", "alice,carol"), [550, 680]),
        (("--wanted-by", w.carol.id[:8]), [550, 680]),
        (("--wanted-by", "BOB", "--sort", "rating"), [13, 550]),
        (("--sort", "wants"), [550, 13, 680, 603, 155]),
        (("--sort", "rating"), [603, 13, 550, 680, 155]),
        (("--sort", "title"), [550, 13, 680, 155, 603]),
        (("--unseen", "--by", "bob", "--sort", "wants"), [550, 680, 155]),
        (("--sort", "wants", "--limit", 2), [550, 13]),
        (("--sort", "wants", "--limit", 2, "--after", "+2"), [680, 603]),
    ]
    runs = w.expect_lists(cases)
    # The printed page says how to get the next one.
    page = w.alice.peerctl("list", "--sort", "wants", "--limit", 2)
    if page.returncode != 0 or "peerctl list --sort wants --limit 2 --after +2" not in page.stderr:
        raise CheckFailed(f"list --sort wants --limit 2 printed no next page command: {page.stderr!r}")
    # An unknown member: a clear error, exit status 1, in text and in JSON.
    text = w.bob.peerctl("list", "--unseen", "--by", "zed")
    said = text.stderr.strip()
    if text.returncode != 1 or "no member of the group is called 'zed'" not in said or \
            not all(n in said for n in ("alice", "bob", "carol")):
        raise CheckFailed(f"list --unseen --by zed: exit {text.returncode}, {said!r} (stdout {text.stdout!r})")
    answer = w.carol.peerctl("list", "--wanted-by", "alice,zed", "--json")
    try:
        error = json.loads(answer.stdout)
    except ValueError:
        error = {}
    if answer.returncode != 1 or error.get("code") != "bad-request" or "'zed'" not in error.get("message", ""):
        raise CheckFailed(f"list --wanted-by alice,zed --json: exit {answer.returncode}, {answer.stdout!r}")
    return f"{len(cases)} filters × 3 daemons ({runs} lists) as expected; unknown member: exit 1, {said!r}"


def check_watch(w):
    """`watched 550 --with bob` on alice: alice and bob have seen it, on that day, everywhere;
    carol not. A later unmark by bob clears his seen (newest wins), alice's stays."""
    w.base()
    a, b = w.alice, w.bob
    text = f"alice logged a watch of Fight Club (1999) on 2026-11-22 with {with_names(a, b)}"
    answer = w.act(a, "watched", 550, "--with", "bob", "--on", "2026-11-22", texts=[text])
    at_once = {m["name"]: (m["seen"], m.get("seenOn")) for m in answer["movie"]["marks"]}
    if at_once.get("alice") != (True, "2026-11-22") or at_once.get("bob") != (True, "2026-11-22"):
        raise CheckFailed(f"watched's answer doesn't show alice and bob seen on 2026-11-22: {at_once}")
    w.settle()
    w.model.set(550, "alice", seen=True, seenOn="2026-11-22")
    w.model.set(550, "bob", seen=True, seenOn="2026-11-22")
    w.expect_marks([550], "alice and bob seen 550 on 2026-11-22, carol not, on every daemon")
    w.expect_lists([
        (("--unseen",), [680, 155]),
        (("--unseen", "--by", "carol"), [550, 13, 680, 155]),
        (("--unseen", "--by", "bob"), [680, 155]),
    ])
    w.act(b, "unmark", 550, "--seen", texts=["bob marked Fight Club (1999) as not seen"])
    w.settle()
    w.model.set(550, "bob", seen=False, seenOn=None)
    w.expect_marks([550], "bob's unmark after the watch: bob not seen, alice still seen")
    w.expect_lists([
        (("--unseen",), [680, 155]),
        (("--unseen", "--by", "bob"), [550, 680, 155]),
    ])
    return f"the watch counts for {sorted(at_once)}; after bob's unmark, --unseen --by bob lists 550 again"


def check_stay(w):
    """Marks stay with the movie: removed (and rated meanwhile), added again, its marks are back;
    `want` of a movie nobody listed adds it."""
    w.base()
    a, b, c = w.alice, w.bob, w.carol
    w.act(b, "remove", 603, texts=["bob removed The Matrix (1999)"])
    w.settle()
    # Off the list, `show` tells of it by its marks: its last title, no row.
    marked = sorted(w.model.of(603))
    for d in w.all():
        shown = d.peerctl("show", 603, "--json")
        off = json.loads(shown.stdout).get("offList", {}) if shown.returncode == 0 else {}
        if 603 in d.movie_ids() or '"movie"' in shown.stdout or off.get("title") != "The Matrix" \
                or sorted(m["name"] for m in off.get("marks", [])) != marked:
            raise CheckFailed(f"603 on {d.name} after its removal: listed {603 in d.movie_ids()}, show exit "
                              f"{shown.returncode} {shown.stdout.strip()!r} (expected offList with {marked}' marks)")
    unlisted = w.act(c, "rate", 603, 10, texts=["carol rated The Matrix (1999) 10/10"])
    if "movie" in unlisted or unlisted.get("added"):
        raise CheckFailed(f"rating an unlisted movie answered with a row or an add: {shorten(unlisted)}")
    w.settle()
    w.model.set(603, "carol", rating=10)
    w.add(a, 603)
    w.settle()
    w.expect_marks([603], "603's marks back on every daemon once alice added it again")
    wanted = w.act(c, "want", 424, texts=["carol added movie 424", "carol wants to watch movie 424"])
    if not wanted.get("added") or wanted.get("movie", {}).get("addedByPeers") != [c.id]:
        raise CheckFailed(f"want 424 on carol didn't add it as carol's: {shorten(wanted)}")
    w.settle()
    w.model.set(424, "carol", want=True)
    w.expect_marks([424], "424 listed everywhere, wanted by carol")
    again = w.act(c, "want", 424, texts=[])
    if again.get("made") != 0 or again.get("added"):
        raise CheckFailed(f"a second want of 424 made something: {shorten(again)}")
    order = w.alice.ids()
    if order != [550, 13, 680, 155, 603, 424]:
        raise CheckFailed(f"alice's list order {order}: 603 added again should come after 155, before 424")
    return f"603 back with {sorted(w.model.of(603))}' marks (average {w.model.average(603)}); list {order}"


def history_pages(daemon, *args, limit):
    """`history ARGS --limit LIMIT --json`, page after page by `next`: the pages."""
    pages, before = [], []
    while True:
        page = daemon.peerctl_json("history", *args, "--limit", limit, *before)
        pages.append(page)
        if not page.get("next"):
            return pages
        if len(pages) > 200:
            raise CheckFailed(f"history on {daemon.name} still had a next page after 200 pages")
        before = ["--before", page["next"]]


def printed_pages(daemon, *args, limit):
    """`history ARGS --limit LIMIT` as text, following each page's printed `older:` command: the
    lines' texts (the time stamp taken off), and the commands printed."""
    texts, commands, before = [], [], []
    expected = " ".join(["peerctl history", *map(str, args), f"--limit {limit}", "--before "])
    for _ in range(200):
        result = daemon.peerctl("history", *args, "--limit", limit, *before)
        if result.returncode != 0:
            raise CheckFailed(f"history {args} on {daemon.name}: exit {result.returncode}: {result.stderr}")
        for line in result.stdout.splitlines():
            match = re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d  (.+)", line)
            if not match:
                raise CheckFailed(f"history printed {line!r}, not 'YYYY-MM-DD HH:MM  text'")
            texts.append(match.group(1))
        note = result.stderr.strip()
        if not note:
            return texts, commands
        if not note.startswith("older: " + expected):
            raise CheckFailed(f"history page ends with {note!r}, not 'older: {expected}CURSOR'")
        commands.append(note)
        before = ["--before", note.removeprefix("older: " + expected)]
    raise CheckFailed(f"history on {daemon.name} still printed an older page after 200 pages")


def order_problems(w, entries):
    """How `entries` (newest first) differ from the operations made: oldest first, each phase's
    operations together and in the phases' order, each maker's in the order it made them, with
    the text, op and maker each operation should have. The group's records of admissions (PEER.md,
    "Membership"), made as the daemons met, are not among the operations made here."""
    ids = {d.name: d.id for d in w.all()}
    oldest = [e for e in reversed(entries) if e["op"] != "member"]
    if len(oldest) != len(w.made):
        return [f"{len(oldest)} entries, {len(w.made)} operations made"]
    problems, start = [], 0
    for phase, group in itertools.groupby(w.made, key=lambda m: m[0]):
        group = list(group)
        got = oldest[start:start + len(group)]
        start += len(group)
        if sorted(e["text"] for e in got) != sorted(m[3] for m in group):
            problems.append(f"phase {phase}: entries {[e['text'] for e in got]}, made {[m[3] for m in group]}")
            continue
        for maker in {m[1] for m in group}:
            made = [(m[3], m[2]) for m in group if m[1] == maker]
            theirs = [(e["text"], e["op"]) for e in got if e["peer"] == ids[maker] and e["by"] == maker]
            if theirs != made:
                problems.append(f"phase {phase}: {maker}'s entries {theirs}, made in the order {made}")
    return problems


def cursor_key(cursor):
    lamport, origin, seq = cursor.split(".")
    return int(lamport), origin, int(seq)


def check_history(w):
    """History: the same on every daemon, newest first in the order the operations were made,
    paged by `next` and by the printed command without overlap or gap, by movie, exact lines."""
    w.base()
    a, b, c = w.alice, w.bob, w.carol
    # One movie's story, each step made once the previous one is everywhere: its order is certain.
    story = [
        (a, ("add", 278, "--title", "The Shawshank Redemption", "--year", 1994),
         ["alice added The Shawshank Redemption (1994)"]),
        (b, ("want", 278), ["bob wants to watch The Shawshank Redemption (1994)"]),
        (c, ("seen", 278, "--on", "2026-11-19", "--rating", 9),
         ["carol has seen The Shawshank Redemption (1994) (on 2026-11-19)",
          "carol rated The Shawshank Redemption (1994) 9/10"]),
        (a, ("watched", 278, "--with", "carol", "--on", "2026-11-23"),
         [f"alice logged a watch of The Shawshank Redemption (1994) on 2026-11-23 with {with_names(a, c)}"]),
        (b, ("unmark", 278, "--want"), ["bob no longer wants to watch The Shawshank Redemption (1994)"]),
        (c, ("veto", 278), ["carol vetoed The Shawshank Redemption (1994)"]),
        (b, ("rate", 278, 7), ["bob rated The Shawshank Redemption (1994) 7/10"]),
        (c, ("unmark", 278, "--veto"), ["carol withdrew their veto of The Shawshank Redemption (1994)"]),
        (b, ("unmark", 278), ["bob cleared their rating of The Shawshank Redemption (1994)"]),
    ]
    for daemon, args, texts in story:
        w.act(daemon, *args, texts=texts)
        w.settle()
    told = [t for _, _, texts in story for t in texts][::-1]

    full = {d.name: d.history() for d in w.all()}
    if not (full["alice"] == full["bob"] == full["carol"]):
        differ = [(n, [e["text"] for e in full[n][:5]]) for n in full]
        raise CheckFailed(f"the daemons' histories differ (newest five each): {differ}")
    entries = full["alice"]
    keys = [cursor_key(e["cursor"]) for e in entries]
    if any(x <= y for x, y in zip(keys, keys[1:])):
        raise CheckFailed(f"history is not newest first by (lamport, origin, seq): {[e['cursor'] for e in entries]}")
    problems = order_problems(w, entries)
    if problems:
        raise CheckFailed("history doesn't follow the operations made: " + "; ".join(problems[:4]))
    if any(e["known"] is not True for e in entries):
        raise CheckFailed(f"known operations marked unknown: {[e for e in entries if not e['known']][:2]}")
    if [e["text"] for e in entries[:len(told)]] != told:
        raise CheckFailed(f"the newest {len(told)} lines {[e['text'] for e in entries[:len(told)]]}, expected {told}")

    one = {d.name: [e["text"] for e in d.history(278)] for d in w.all()}
    if any(texts != told for texts in one.values()):
        raise CheckFailed(f"history 278: {one}, expected {told} on each")
    matrix = b.history(603)
    if matrix != [e for e in entries if e.get("movieId") == 603]:
        raise CheckFailed(f"history 603 {[e['text'] for e in matrix]} is not the 603 entries of the whole history")

    # Pages: by `next` in JSON, and by the command each printed page ends with.
    pages = history_pages(b, limit=4)
    paged = [e for p in pages for e in p["entries"]]
    sizes = [len(p["entries"]) for p in pages]
    if paged != entries or any(s != 4 for s in sizes[:-1]) or not 1 <= sizes[-1] <= 4:
        raise CheckFailed(f"pages of 4 (sizes {sizes}) joined are {len(paged)} entries, the whole history "
                          f"{len(entries)}; first difference at "
                          f"{next((i for i, (x, y) in enumerate(zip(paged, entries)) if x != y), None)}")
    texts, commands = printed_pages(c, limit=5)
    if texts != [e["text"] for e in entries]:
        raise CheckFailed(f"printed pages of 5 joined: {len(texts)} lines, not the history's {len(entries)} "
                          f"in order; first lines {texts[:3]}")
    movie_pages = history_pages(a, 278, limit=4)
    if [e["text"] for p in movie_pages for e in p["entries"]] != told or len(movie_pages) != 3:
        raise CheckFailed(f"history 278 in pages of 4: {[[e['text'] for e in p['entries']] for p in movie_pages]}")
    movie_texts, movie_commands = printed_pages(a, 278, limit=4)
    if movie_texts != told:
        raise CheckFailed(f"history 278 printed in pages of 4: {movie_texts}")

    # --since and a bad cursor.
    recent = a.history("--since", "1h")
    future = a.peerctl("history", "--since", "2999-01-01")
    if recent != entries or future.returncode != 0 or future.stdout.strip() != "nothing yet":
        raise CheckFailed(f"--since 1h: {len(recent)} of {len(entries)} entries; --since 2999-01-01: "
                          f"exit {future.returncode} {future.stdout!r}")
    bad = a.peerctl("history", "--before", "nonsense")
    if bad.returncode != 1 or "not a cursor" not in bad.stderr:
        raise CheckFailed(f"history --before nonsense: exit {bad.returncode}, {bad.stderr!r}")
    return (f"{len(entries)} entries, the same on all three, in the order made; pages of 4 by next: {sizes}; "
            f"{len(commands) + 1} printed pages of 5; 278's {len(told)} lines exact, e.g. {told[5]!r}; "
            f"{movie_commands[0]!r}")


def later_version_ops(dave, lamport):
    """dave's four operations from a later version, on 155: a want whose `mark` carries a field this
    version doesn't know, a rating with an unknown top-level field, a watch whose `watch` carries
    one, and a kind it doesn't know."""
    movie = {"id": 155}
    return [
        dave.make("mark", movie, lamport, mark={"kind": "want", "mood": "cozy", "set": True}),
        dave.make("mark", movie, lamport, mark={"kind": "rating", "rating": 7, "set": True},
                  mood={"level": 3, "tags": ["cozy", "late"]}),
        dave.make("watch", movie, lamport, watch={"on": "2026-11-25", "place": "couch", "with": [dave.peer_id]}),
        dave.make("xyz", movie, lamport, xyz={"level": 3}),
    ]


def check_later_version(w):
    """dave (a member in Python) signs marks of a later version and sends them to alice: bob and
    carol get them byte for byte, their signature intact, and show the marks they know."""
    w.base()
    dave, erin = w.members()
    session = Session.open(dave, w.alice.port, w.secret)
    try:
        session.wait_for(Session.caught_up, SYNC_WAIT, "alice's catch-up")
        sent = later_version_ops(dave, session.max_lamport() + 1)
        session.send_ops(sent)
        texts = ["dave wants to watch The Dark Knight (2008)", "dave rated The Dark Knight (2008) 7/10",
                 "dave logged a watch of The Dark Knight (2008) on 2026-11-25 with dave",
                 "dave made an operation this peerd doesn't know (“xyz”) about The Dark Knight (2008)"]
        w.made += [(w.phase, "dave", kind, text) for kind, text in zip(("mark", "mark", "watch", "xyz"), texts)]
        w.total += len(sent)

        def shown(d):
            lines = {e["text"]: e for e in d.history(155)}
            return all(t in lines for t in texts) and lines
        for d in (w.bob, w.carol):
            expect_eventually(lambda: shown(d), SYNC_WAIT, f"dave's four operations in {d.name}'s history")
        if not session.still_open() or session.errors:
            raise CheckFailed(f"alice closed dave's session ({session.closed}): {session.error_messages()}")
    finally:
        session.close()
    w.settle()
    unknown = shown(w.carol)[texts[3]]
    if unknown["op"] != "xyz" or unknown["known"] is not False or unknown["peer"] != dave.peer_id:
        raise CheckFailed(f"carol's entry of dave's unknown kind: {unknown}")
    w.model.set(155, "dave", want=True, rating=7, seen=True, seenOn="2026-11-25")
    w.expect_marks([155], "dave's want, rating and watch of 155 on every daemon")
    if w.carol.ids("--wanted-by", "dave") != [155]:
        raise CheckFailed(f"carol's list --wanted-by dave: {w.carol.ids('--wanted-by', 'dave')}")
    relayed = {}
    for d in (w.carol, w.bob):  # neither got them from dave: alice relayed them
        watcher = Session.open(erin, d.port, w.secret)
        try:
            watcher.wait_for(lambda s: s.caught_up() and s.held(dave.peer_id) >= len(sent), SYNC_WAIT,
                             f"{d.name}'s catch-up with dave's operations")
            got = [op for op in watcher.ops if op["origin"] == dave.peer_id]
            key = base64.b64decode(got[0]["key"])
            for mine, theirs in zip(sent, got):
                if not watcher.raw_contains(canonical(mine)):
                    raise CheckFailed(f"{d.name} sent dave/{mine['seq']} otherwise than he made it:\n"
                                      f"made  {canonical(mine).decode()}\nsent  {canonical(theirs).decode()}")
                if not verify(canonical(theirs), key):
                    raise CheckFailed(f"dave/{theirs['seq']} from {d.name} doesn't verify against his key")
            relayed[d.name] = len(got)
        finally:
            watcher.close()
    return (f"alice kept the session open; bob and carol relay dave/1-{len(sent)} byte for byte, signatures "
            f"verifying ({relayed}); carol shows {texts[3]!r}")


def check_forged(w):
    """Marks in alice's name, signed with dave's key and chained to her real last operation, are
    refused by bob, by alice herself and by carol (with a valid operation of dave's in the same
    message): error invalid-operation and a close. No daemon holds or shows them; all keep serving."""
    w.base()
    dave, erin = w.members()
    a = w.alice
    verdicts = {}

    def attempt(daemon, extra=()):
        session = Session.open(dave, daemon.port, w.secret)
        try:
            session.wait_for(lambda s: s.caught_up() and s.held(a.id) > 0, SYNC_WAIT, f"{daemon.name}'s catch-up")
            last = session.last_of(a.id)
            lamport = session.max_lamport() + 1
            forged = dave.forge(last, lamport, "alice", "mark", {"id": 155}, mark={"kind": "veto", "set": True})
            ops = [dave.make("mark", {"id": 155}, lamport, keep=False, mark={"kind": "seen", "set": True})] \
                if extra else []
            session.send_ops(ops + [forged])
            seconds = session.await_close(BOUND)
            said = session.error_messages()
            verdicts[daemon.name] = f"{said} after {seconds if seconds is None else round(seconds, 2)} s"
            if seconds is None or "invalid-operation" not in session.errors:
                raise CheckFailed(f"{daemon.name} took alice/{forged['seq']} signed by dave: "
                                  f"{'closed' if seconds is not None else 'kept the session open'}, errors {said}")
            return forged["seq"]
        finally:
            session.close()
    attempt(w.bob)
    attempt(a)
    attempt(w.carol, extra=True)

    # Still serving: an ordinary mark reaches everyone, and then nobody holds more than was made.
    w.act(w.bob, "want", 155, texts=["bob wants to watch The Dark Knight (2008)"])
    w.settle()
    w.model.set(155, "bob", want=True)
    w.connected()
    held = {}
    for d in w.all():
        watcher = Session.open(erin, d.port, w.secret)
        try:
            held[d.name] = (watcher.vector.get(a.id, 0), watcher.vector.get(dave.peer_id, 0))
        finally:
            watcher.close()
    alices = held["alice"][0]
    if any(v != (alices, len(dave.log)) for v in held.values()):
        raise CheckFailed(f"(alice's, dave's) operations held: {held}; alice made {alices}, dave {len(dave.log)}")
    w.expect_marks([155], "155's marks on every daemon: no veto of alice's, no seen of dave's")
    for d in w.all():
        lines = [e["text"] for e in d.history(155)]
        bad = [t for t in lines if t in ("alice vetoed The Dark Knight (2008)", "dave has seen The Dark Knight (2008)")]
        if bad:
            raise CheckFailed(f"{d.name}'s history shows {bad}")
    return f"refused: {verdicts}; (alice's, dave's) operations held everywhere: {held['bob']}"


def check_removed_title(w):
    """While a movie is off the list, history still names it by the title its add gave: a mark
    made meanwhile reads "carol vetoed Forrest Gump (1994)", like the removal before it."""
    w.base()
    a, b, c = w.alice, w.bob, w.carol
    w.act(b, "remove", 13, texts=["bob removed Forrest Gump (1994)"])
    w.settle()
    w.act(c, "veto", 13, texts=["carol vetoed Forrest Gump (1994)"])
    w.settle()
    told = ["carol vetoed Forrest Gump (1994)", "bob removed Forrest Gump (1994)"]
    while_removed = {d.name: [e["text"] for e in d.history(13)[:2]] for d in w.all()}
    w.add(a, 13)  # listed again (last now), with carol's veto
    w.settle()
    w.model.set(13, "carol", veto=True)
    w.expect_marks([13], "13's marks, carol's veto included, once alice added it again")
    again = {d.name: [e["text"] for e in d.history(13)[1:3]] for d in w.all()}
    wrong = {n: v for n, v in while_removed.items() if v != told}
    if wrong:
        raise CheckFailed(f"while 13 was off the list, its newest history lines were {wrong}, expected {told} "
                          f"(once added again: {again['alice']})")
    return f"while removed, on each daemon: {told}"


def check_new_member_watch(w):
    """A watch can name a member who has made no operation yet: dan, a fourth peerd that just
    joined (`peerctl peers` on alice lists him), is named by his id, and has seen the movie on
    every daemon."""
    w.base()
    a = w.alice
    w.ports["dan"] = harness.free_port()
    dan = w.track(Daemon(w, "dan", ["alice"])).start()
    expect_eventually(lambda: any(p.get("peer") == dan.id and p.get("state") == "connected" and p.get("name") == "dan"
                                  for p in a.peers()), 30, "alice's peers listing dan, connected")
    expect_eventually(lambda: dan.operations() >= w.total and dan.operations() == a.operations(), SYNC_WAIT,
                      f"dan holding the {w.total} operations (and the group's records of admissions)")
    by_id = a.peerctl("watched", 155, "--with", dan.id, "--on", "2026-11-24", "--json")
    by_name = a.peerctl("watched", 155, "--with", "dan", "--on", "2026-11-24", "--json")
    if by_id.returncode != 0:
        raise CheckFailed(f"alice's `peerctl watched 155 --with {dan.id}` (dan's id, as `peerctl peers` lists it): "
                          f"exit {by_id.returncode}, {said(by_id)}; by name (--with dan): exit {by_name.returncode}, "
                          f"{said(by_name)}")
    made = [by_id] + ([by_name] if by_name.returncode == 0 else [])
    text = f"alice logged a watch of The Dark Knight (2008) on 2026-11-24 with {with_names(a, dan)}"
    w.made += [(w.phase, "alice", "watch", text)] * len(made)
    w.total += len(made)
    w.settle()

    def dan_seen(d):
        row = next(r for r in d.movies() if r["movieId"] == 155)
        return any(m["peer"] == dan.id and m["seen"] and m.get("seenOn") == "2026-11-24" for m in row.get("marks", []))
    expect_eventually(lambda: all(dan_seen(d) for d in [*w.all(), dan]), SYNC_WAIT,
                      "dan seen 155 on 2026-11-24 on alice, bob, carol and dan")
    return f"--with {dan.id[:8]}…: dan has seen 155 on all four; by name: exit {by_name.returncode}"


def control_request(daemon, request):
    """One control request straight on `daemon`'s socket, past peerctl's own checks: its answer."""
    return harness.control_request(daemon.socket, {"version": 1, **request}, timeout=SYNC_WAIT)


def check_movie_words(w):
    """Issue 35, 5 and 6: marks name a movie by its title as `add` does, from the list first (this
    trio has no TMDB token), any case, accents optional; a title two listed movies share names
    neither (exit 1, both ids shown, nothing made) until its year does; a title nobody lists asks
    TMDB and says why it can't. A rating is a viewing: bob's rating of Amélie makes him one who
    has seen it on every daemon. A movie someone marked off the list is shown with its marks."""
    w.base()
    a, b, c = w.alice, w.bob, w.carol
    MOVIES[194] = ("Amélie", 2001)
    w.add(a, 194)
    w.settle()
    w.act(b, "rate", "amelie", 9, texts=["bob rated Amélie (2001) 9/10"])
    w.act(c, "want", "forrest gump", texts=["carol wants to watch Forrest Gump (1994)"])
    w.act(a, "seen", "PULP FICTION", "--on", "2026-11-01", texts=["alice has seen Pulp Fiction (1994) (on 2026-11-01)"])
    w.settle()
    w.model.set(194, "bob", rating=9)
    w.model.set(13, "carol", want=True)
    w.model.set(680, "alice", seen=True, seenOn="2026-11-01")
    w.expect_marks([194, 13, 680], "bob's rating of Amélie, carol's want and alice's seen, named by title")
    unseen = {d.name: d.ids("--unseen", "--by", "bob") for d in w.all()}
    if any(194 in ids for ids in unseen.values()):
        raise CheckFailed(f"bob rated Amélie, yet `list --unseen --by bob` lists it: {unseen}")
    shown = c.peerctl("show", "Amélie")
    if shown.returncode != 0 or not shown.stdout.startswith("194 Amélie (2001)"):
        raise CheckFailed(f"carol's `show Amélie`: exit {shown.returncode}, {shown.stdout or shown.stderr!r}")
    held = {d.name: d.operations() for d in w.all()}
    MOVIES[1000001] = ("Pulp Fiction", 1970)
    w.add(a, 1000001)
    w.settle()
    held = {d.name: d.operations() for d in w.all()}
    both = a.peerctl("veto", "pulp fiction")
    nobody = a.peerctl("seen", "a film nobody lists")
    problems = []
    if both.returncode != 1 or "2 movies on the list are called 'pulp fiction'; nothing was marked" not in both.stderr \
            or "peerctl veto 680" not in both.stderr or "peerctl veto 1000001" not in both.stderr:
        problems.append(f"`veto pulp fiction` with two listed: exit {both.returncode}, {both.stderr!r}")
    if nobody.returncode != 1 or "TMDB token" not in nobody.stderr:
        problems.append(f"`seen a film nobody lists` without a token: exit {nobody.returncode}, {nobody.stderr!r}")
    if {d.name: d.operations() for d in w.all()} != held:
        problems.append(f"operations {held} → {({d.name: d.operations() for d in w.all()})}")
    if problems:
        raise CheckFailed("; ".join(problems))
    w.act(a, "veto", "pulp fiction 1970", texts=["alice vetoed Pulp Fiction (1970)"])
    w.act(c, "rate", 500, 7, texts=["carol rated movie 500 7/10"])
    w.settle()
    w.model.set(1000001, "alice", veto=True)
    w.expect_marks([1000001, 680], "alice's veto of the 1970 Pulp Fiction alone")
    # A movie someone marked is shown with its marks, listed or not.
    shown = a.peerctl("show", 500)
    shown_json = a.peerctl_json("show", 500)
    carol = (shown_json.get("offList") or {}).get("marks", [{}])[0]
    if shown.returncode != 0 or "not on the list" not in shown.stdout \
            or not re.search(r"carol\s+seen / rating 7/10", shown.stdout) \
            or (carol.get("name"), carol.get("seen"), carol.get("rating")) != ("carol", True, 7):
        raise CheckFailed(f"alice's `show 500` (carol rated it, nobody listed it): exit {shown.returncode}, "
                          f"{shown.stdout or shown.stderr!r}; --json offList {shown_json.get('offList')}")
    return (f"by title on three daemons; bob's rating of 194 keeps it out of --unseen --by bob; two of one title: "
            f"{both.stderr.splitlines()[0]!r}; not listed: {nobody.stderr.strip().splitlines()[0]!r}")


def check_future_days(w):
    """Issue 35, 7: a day after tomorrow is refused by peerctl (exit 64) and, asked straight on the
    control socket, by the daemon, for a seen mark and for a watch; nothing is made. Tomorrow is
    taken: somewhere it is already tomorrow."""
    w.base()
    a = w.alice
    held = {d.name: d.operations() for d in w.all()}
    today = datetime.date.today()
    later = (today + datetime.timedelta(days=2)).isoformat()
    cli = a.peerctl("seen", 603, "--on", "2030-01-01")
    mark = control_request(a, {"type": "mark", "movie": {"id": 603},
                               "marks": [{"kind": "seen", "set": True, "on": later}]})
    watch = control_request(a, {"type": "watch", "movie": {"id": 603}, "on": later})
    problems = []
    if cli.returncode != 64 or "2030-01-01 hasn't come yet" not in cli.stderr:
        problems.append(f"`seen 603 --on 2030-01-01`: exit {cli.returncode}, {cli.stderr!r}")
    for name, answer in (("mark", mark), ("watch", watch)):
        if answer.get("code") != "bad-request" or f"{later} hasn't come yet" not in answer.get("message", ""):
            problems.append(f"a {name} on {later} straight to the daemon answered {answer}")
    if {d.name: d.operations() for d in w.all()} != held:
        problems.append(f"operations {held} → {({d.name: d.operations() for d in w.all()})}")
    if problems:
        raise CheckFailed("; ".join(problems))
    tomorrow = (today + datetime.timedelta(days=1)).isoformat()
    w.act(a, "watched", 603, "--on", tomorrow, texts=[f"alice logged a watch of The Matrix (1999) on {tomorrow} with alice"])
    w.settle()
    w.model.set(603, "alice", seen=True, seenOn=tomorrow)
    w.expect_marks([603], f"alice's watch of 603 on {tomorrow}")
    return f"refused: {cli.stderr.strip()!r}; the daemon: {mark['message']!r}; tomorrow ({tomorrow}) taken"


CHECKS = [
    ("marks made at once on alice, bob and carol converge, each with its member's name, day and rating",
     check_converge),
    ("list --unseen, --by, --wanted-by and --sort give exactly the expected movies in order; "
     "an unknown member is exit 1", check_filters),
    ("a watch counts as seen, with its day, for each member it names, on every daemon", check_watch),
    ("marks stay with the movie when it is removed and added again; want adds an unlisted movie", check_stay),
    ("history: newest first in the order made, the same on every daemon, pages, movie filter, exact lines",
     check_history),
    ("history names a movie off the list by its add's title", check_removed_title),
    ("a later version's marks with unknown fields reach every daemon byte for byte, signature intact",
     check_later_version),
    ("a mark in alice's name signed by another member is refused by every receiver and shown nowhere",
     check_forged),
    ("a watch can name a member who joined and has made no operation yet", check_new_member_watch),
    ("a movie named by its title, from the list first, accents optional; a rating is a viewing", check_movie_words),
    ("a day after tomorrow is refused by peerctl and by the daemon; tomorrow is taken", check_future_days),
]


if __name__ == "__main__":
    sys.exit(suite.main("marks", __doc__.split("\n")[0], CHECKS, World))
