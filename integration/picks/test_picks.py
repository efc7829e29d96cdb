#!/usr/bin/env python3
"""Picks of tonight's movie, end to end: three real peerd on loopback choosing a movie together.

alice, bob and carol share a group secret; alice dials bob and carol, carol dials bob. One of them
opens a pick (`peerctl pick`), each votes on their own daemon (`peerctl vote yes|no`, `vote
--rank`), and the checks read every daemon's `pick --status --json`: the same deck in the same
seeded order, the same progress and the same result everywhere, by each mode's rule. Also: what
the deck leaves out (seen or vetoed by a voter), the opener restarted mid-pick, refusals, and
`pick --watched`.

    PEERD_BIN_DIR=/path/to/bins python3 integration/picks/test_picks.py [--keep] [--only WORDS ...]

Prints one PASS/FAIL line per check and ends with `picks: N passed, M failed`. Exit status 0 when
all passed, 1 otherwise; the work dir (daemon logs, states) is kept on failure or with --keep.
"""
import datetime
import json
import pathlib
import sys
import http.client
import queue
import socket
import threading
import urllib.request

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
import harness  # noqa: E402
from harness import CheckFailed, HarnessError, expect_eventually  # noqa: E402
import suite  # noqa: E402
import daemon_trio as trio  # noqa: E402
from daemon_trio import SYNC_WAIT, said, shorten  # noqa: E402


MOVIES = {  # id: (title, year), in the order alice adds them (the list's order)
    603: ("The Matrix", 1999),
    550: ("Fight Club", 1999),
    13: ("Forrest Gump", 1994),
    680: ("Pulp Fiction", 1994),
    155: ("The Dark Knight", 2008),
    278: ("The Shawshank Redemption", 1994),
    238: ("The Godfather", 1972),
    424: ("Schindler's List", 1993),
    122: ("The Return of the King", 2003),
    769: ("GoodFellas", 1990),
}

# Who wants what from the start: 550 by three; 680, 238 and 424 by two; the rest by none. A ranked
# pick's 3 finalists are then 550, 680 and 238 (424 ties with two wants but comes later in the list).
WANTS = {
    "alice": [550, 238, 424],
    "bob": [550, 680, 424],
    "carol": [550, 680, 238],
}

DEFAULT_DECK = 12  # cards each voter sees in a majority or unanimous pick unless --deck-size says

# The marks of the "seen and vetoed" check: (member, verb, movie).
SEEN_BY_BOB, VETOED_BY_CAROL, SEEN_BY_CAROL, VETOED_BY_ALICE = 603, 13, 155, 278


def title_of(movie):
    return MOVIES[movie][0]


# MARK: the deck's order (PickDeck.swift), redone here

MASK = (1 << 64) - 1


def fnv1a(text):
    value = 0xCBF29CE484222325
    for byte in text.encode():
        value = ((value ^ byte) * 0x100000001B3) & MASK
    return value


def splitmix64(seed):
    state = seed
    while True:
        state = (state + 0x9E3779B97F4A7C15) & MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        yield z ^ (z >> 31)


def seeded_shuffle(movies, pick):
    """Fisher–Yates from the last position down, position i swapping with next() % (i + 1), next()
    being SplitMix64 seeded with FNV-1a of "<origin>/<seq>" of the opening."""
    deck = list(movies)
    numbers = splitmix64(fnv1a(f"{pick['origin']}/{pick['seq']}"))
    for i in range(len(deck) - 1, 0, -1):
        j = next(numbers) % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


# MARK: daemons


class Daemon(trio.Daemon):
    def pick_status(self):
        return self.peerctl_json("pick", "--status")


class Opened:
    """A pick as its opener's answer showed it."""

    def __init__(self, record, opener):
        self.record, self.opener = record, opener
        self.id = record["pick"]
        self.deck = [card["movieId"] for card in record["deck"]]

    def __str__(self):
        return f"{self.record['mode']} pick {self.id['origin'][:8]}/{self.id['seq']} by {self.opener}, deck {self.deck}"


class World(trio.Trio):
    label = "picks"
    daemon_class = Daemon

    def __init__(self, work):
        super().__init__(work)
        self.based = False
        self.base_error = None
        self.before_any_pick = {}  # name -> what `vote yes` and `pick --status` said before any pick
        # The model the deck is worked out from: the list's order, and each movie's marks.
        self.listed = []
        self.wants = {}
        self.seen = {}
        self.vetoed = {}

    # Making operations.

    def act(self, daemon, *args, made=1):
        """`peerctl ARGS --json` on `daemon`, which must succeed and make `made` operations."""
        answer = daemon.peerctl_json(*args)
        if isinstance(answer, dict) and "made" in answer and answer["made"] != made:
            raise CheckFailed(f"peerctl {' '.join(map(str, args))} on {daemon.name} made {answer['made']} "
                              f"operations, expected {made}: {shorten(answer)}")
        with self.lock:
            self.total += made
        return answer

    def mark(self, daemon, verb, movie):
        """`peerctl seen|veto MOVIE` on `daemon`, kept in the model."""
        self.act(daemon, verb, movie)
        table = self.seen if verb == "seen" else self.vetoed
        with self.lock:
            table.setdefault(movie, set()).add(daemon.name)

    # The marks every check starts from.

    def base(self):
        """Made once: before any pick, what `vote` and `pick --status` say; then alice adds the ten
        movies, and alice, bob and carol say what they want at the same time."""
        if self.based:
            return
        if self.base_error:
            raise HarnessError(f"the list every check starts from could not be made: {self.base_error}")
        try:
            self.make_base()
        except (CheckFailed, HarnessError) as error:
            self.base_error = error
            raise
        self.based = True

    def make_base(self):
        self.up()
        for d in self.all():
            self.before_any_pick[d.name] = {
                "vote yes --json": d.peerctl("vote", "yes", "--json"),
                "vote yes": d.peerctl("vote", "yes"),
                "pick --status --json": d.peerctl("pick", "--status", "--json"),
                "pick --close --json": d.peerctl("pick", "--close", "--json"),
            }
        for movie, (title, year) in MOVIES.items():
            self.act(self.alice, "add", movie, "--title", title, "--year", year)
            self.listed.append(movie)
        self.settle()

        def wanting(name):
            def script():
                for movie in WANTS[name]:
                    self.act(self.member(name), "want", movie)
                    with self.lock:
                        self.wants.setdefault(movie, set()).add(name)
            return script
        self.concurrently(*(wanting(n) for n in WANTS))
        self.settle()
        order = [m["movieId"] for m in self.alice.movies()]
        if order != self.listed:
            raise CheckFailed(f"alice's list is {order}, expected the order added {self.listed}")

    # Picks.

    def expected_deck(self, voters, pick, finalists=None, deck_size=None):
        """The deck a pick of `voters` (names) opened as `pick` must have: the list less what any
        voter has seen or vetoed, most wanted first (the list's order among equals), cut to the
        finalists for a ranked pick and to `deck_size` (12 unless said) for the others, in the
        shuffle the opening's id seeds."""
        def excluded(movie):
            return (self.seen.get(movie, set()) | self.vetoed.get(movie, set())) & set(voters)
        candidates = [m for m in self.listed if not excluded(m)]
        candidates.sort(key=lambda m: -len(self.wants.get(m, ())))  # stable: the list's order among equals
        candidates = candidates[:finalists or deck_size or DEFAULT_DECK]
        return seeded_shuffle(candidates, pick)

    def candidates(self, voters):
        """How many of the list's movies no voter has seen or vetoed."""
        return sum(1 for m in self.listed
                   if not (self.seen.get(m, set()) | self.vetoed.get(m, set())) & set(voters))

    def open(self, daemon, *args, voters, finalists=None, deck_size=None):
        """`peerctl pick ARGS --json` on `daemon`: a pick of `voters` (names) whose deck is exactly
        the expected one, in the seeded order; returns it once every daemon shows it, voting."""
        record = self.act(daemon, "pick", *args)
        opened = Opened(record, daemon.name)
        names = sorted(v["name"] for v in record.get("voters", []))
        if names != sorted(voters) or any(v["voted"] for v in record["voters"]):
            raise CheckFailed(f"pick {' '.join(args)} on {daemon.name}: voters {record.get('voters')}, "
                              f"expected {sorted(voters)} with no vote yet")
        expected = self.expected_deck(voters, opened.id, finalists, deck_size)
        if opened.deck != expected:
            raise CheckFailed(f"pick {' '.join(args)} on {daemon.name}: deck {opened.deck}, expected {expected} "
                              f"(the candidates in the shuffle seeded by {opened.id})")
        if record["outcome"] != "voting" or not record["open"] or record["openedBy"] != daemon.name:
            raise CheckFailed(f"a new pick on {daemon.name} isn't open and voting by its opener: {shorten(record)}")
        self.settle()
        self.agreed(opened, "the new pick on every daemon", outcome="voting", voted={n: 0 for n in voters})
        return opened

    def vote(self, daemon, *args):
        return self.act(daemon, "vote", *args)

    def vote_through(self, daemon, answers, done=0):
        """`peerctl vote yes|no` (the member's next movie) once for each of `answers`; each answer
        must show the member's progress one further."""
        for answer in answers:
            record = self.vote(daemon, answer)
            done += 1
            mine = next((v for v in record["voters"] if v["name"] == daemon.name), None)
            if mine is None or mine["voted"] != done:
                raise CheckFailed(f"{daemon.name}'s vote {answer} answered with progress {mine}, expected {done}")

    def agreed(self, opened, what, outcome, result=None, is_open=True, voted=None, yeses=None, daemons=None,
               timeout=SYNC_WAIT):
        """Waits until every daemon's `pick --status --json` shows `opened` with the same deck, voters,
        progress and outcome (the same record but for `next`, which is each member's own, and
        `guests`, the opener's link while it is open) and with what is expected; returns the records
        by name."""
        daemons = daemons or self.all()
        problems = []

        def probe():
            records = {d.name: d.pick_status() for d in daemons}
            problems[:] = []
            for name, r in records.items():
                found = self.record_problems(r, opened, outcome, result, is_open, voted, yeses)
                problems.extend(f"{name}: {p}" for p in found)
                # The guest link is the opener's own, while the pick is open (WEB.md, "Guests").
                opener = r.get("openedBy") == name
                if ("url" in r.get("guests", {})) != (opener and r.get("open")):
                    problems.append(f"{name}: guests {str(r.get('guests'))[:80]} on the "
                                    f"{'opener' if opener else 'member'}'s record, open {r.get('open')}")
            shared = {name: {k: v for k, v in r.items() if k not in ("next", "guests")}
                      for name, r in records.items()}
            first = next(iter(shared.values()))
            for name, r in shared.items():
                if r != first:
                    problems.append(f"{name}'s record differs from {daemons[0].name}'s: "
                                    f"{shorten(r)} vs {shorten(first)}")
            return records if not problems else None
        try:
            return expect_eventually(probe, timeout, what)
        except CheckFailed as failure:
            raise CheckFailed(f"{failure}: " + "; ".join(problems[:6])) from None

    @staticmethod
    def record_problems(r, opened, outcome, result, is_open, voted, yeses):
        problems = []
        if r.get("pick") != opened.id:
            return [f"shows pick {r.get('pick')}, not {opened.id}"]
        deck = [c["movieId"] for c in r["deck"]]
        if deck != opened.deck:
            problems.append(f"deck {deck}, not the opening's {opened.deck}")
        if r["outcome"] != outcome:
            problems.append(f"outcome {r['outcome']}, expected {outcome}")
        got = r.get("result", {}).get("movieId") if r.get("result") else None
        if got != result:
            problems.append(f"result {got}, expected {result}")
        if r["open"] != is_open:
            problems.append(f"open {r['open']}, expected {is_open}")
        progress = {v["name"]: v["voted"] for v in r["voters"]}
        if voted is not None and progress != voted:
            problems.append(f"progress {progress}, expected {voted}")
        counted = {c["movieId"]: c["yeses"] for c in r["deck"] if "yeses" in c}
        if outcome == "voting" and is_open:
            if counted:
                problems.append(f"yeses shown while voting: {counted}")
        elif yeses is not None:
            want = {m: yeses.get(m, 0) for m in opened.deck}
            if counted != want:
                problems.append(f"yeses {counted}, expected {want}")
        return problems

    def close(self, daemon, opened, result):
        """`peerctl pick --close` on `daemon` (with --force when another member opened it): closed,
        with `result`; returns the answer."""
        record = self.act(daemon, "pick", "--close", *(["--force"] if daemon.name != opened.opener else []))
        got = record["result"]["movieId"] if record.get("result") else None
        if record["pick"] != opened.id or record["open"] or got != result:
            raise CheckFailed(f"pick --close on {daemon.name}: pick {record['pick']}, open {record['open']}, "
                              f"result {got}, expected {opened.id} closed with {result}")
        return record

    def tidy(self):
        """After a failed check: alice running with her peers, and every pick closed."""
        try:
            a = self.alice
            if a is None:
                return
            if not a.alive() or a.dials != ["bob", "carol"]:
                a.stop()
                a.dial(["bob", "carol"])
                a.start()
                self.connected()
            for _ in range(20):
                status = a.peerctl("pick", "--status", "--json")
                if status.returncode != 0 or not json.loads(status.stdout).get("open"):
                    break
                a.peerctl("pick", "--close", "--force", "--json")
            # Whatever the failed check made, counted or not: every daemon holding the same.
            held = expect_eventually(lambda: len({d.operations() for d in self.all()}) == 1 and a.operations(),
                                     SYNC_WAIT, "alice, bob and carol holding the same operations")
            self.total = held
        except (CheckFailed, HarnessError, OSError, ValueError) as error:
            print(f"        (tidying up after the failure: {error})", flush=True)


def tidied(check):
    """`check`, leaving no pick open when it fails (the next check's `vote` would name that one: a
    vote goes to the newest open pick) and alice running with her peers."""
    def run(w):
        try:
            return check(w)
        except Exception:
            w.tidy()
            raise
    run.__doc__ = check.__doc__
    return run


def vote_scripts(w, plans, done=None):
    """A script per member voting `plans[name]` (yes/no for its next movies in turn) on its own
    daemon, having voted on `done[name]` movies before."""
    def script(name, answers):
        return lambda: w.vote_through(w.member(name), answers, done=(done or {}).get(name, 0))
    return [script(name, answers) for name, answers in plans.items() if answers]


def yes_no(flag):
    return "yes" if flag else "no"


# MARK: checks


def check_unanimous(w):
    """A unanimous pick opened on alice with --with bob,carol: each votes by CLI on their own
    daemon; the result is the first movie of the deck all three said yes to, with the same deck,
    progress and result on every daemon. Pending (and no yeses shown) before the deciding vote."""
    w.base()
    everyone = ["alice", "bob", "carol"]
    p = w.open(w.alice, "--mode", "unanimous", "--with", "bob,carol", voters=everyone)
    d = p.deck
    if len(d) < 4:
        raise CheckFailed(f"the deck has {len(d)} movies; this check needs 4: {p}")
    # Positions 0 and 1 lack one yes each; 2 and 3 have all three: the result is d[2], not d[3].
    plans = {"alice": ["yes", "yes", "yes", "yes"], "bob": ["no", "yes", "yes", "yes"], "carol": ["yes", "no"]}
    w.concurrently(*vote_scripts(w, plans))
    w.settle()
    w.agreed(p, "alice and bob through 4 movies, carol 2: still voting everywhere", outcome="voting",
             voted={"alice": 4, "bob": 4, "carol": 2})
    deciding = w.vote(w.carol, "yes")
    if deciding["outcome"] != "chosen" or deciding["result"]["movieId"] != d[2]:
        raise CheckFailed(f"carol's yes to {d[2]} (third in the deck) answered {deciding['outcome']} "
                          f"{deciding.get('result')}, expected {d[2]} chosen")
    w.vote(w.carol, "yes")  # all three also said yes to d[3]: the first such movie still wins
    w.settle()
    yeses = {d[0]: 2, d[1]: 2, d[2]: 3, d[3]: 3}
    w.agreed(p, f"{d[2]} chosen on every daemon", outcome="chosen", result=d[2],
             voted={"alice": 4, "bob": 4, "carol": 4}, yeses=yeses)
    w.close(w.bob, p, d[2])
    w.settle()
    w.agreed(p, f"the pick closed with {d[2]} on every daemon", outcome="chosen", result=d[2], is_open=False,
             voted={"alice": 4, "bob": 4, "carol": 4}, yeses=yeses)
    line = f"result: {d[2]} {title_of(d[2])} ({MOVIES[d[2]][1]})"
    texts = {dm.name: dm.peerctl("pick", "--status").stdout for dm in w.all()}
    missing = [n for n, t in texts.items() if line not in t]
    if missing:
        raise CheckFailed(f"`peerctl pick --status` on {missing} lacks {line!r}: {texts[missing[0]]!r}")
    return f"{p}; all said yes to {d[2]} and {d[3]}: {d[2]} chosen on all three, same deck and progress"


def inverted_pair(w, deck):
    """Two positions i < j of the deck whose movies the list has the other way round (and, if one
    can be found, whose ids too): a tie between them broken by the list's order or by id would
    choose deck[j], by the deck's order deck[i]."""
    pairs = [(i, j) for i in range(len(deck)) for j in range(i + 1, len(deck))
             if w.listed.index(deck[i]) > w.listed.index(deck[j])]
    both = [(i, j) for i, j in pairs if deck[i] > deck[j]]
    if not (both or pairs):
        raise CheckFailed(f"the deck {deck} is in the list's order: no tie would show the deck's order")
    return (both or pairs)[0]


def check_majority(w):
    """A majority pick opened on bob (voters: those connected and bob): pending until everyone is
    through the deck, then the most yeses, a tie broken by the deck's order; a second pick closed
    early by `pick --close` is decided by the votes so far. The same on every daemon."""
    w.base()
    everyone = ["alice", "bob", "carol"]
    p = w.open(w.bob, voters=everyone)
    d, n = p.deck, len(p.deck)
    i, j = inverted_pair(w, d)
    z = next(k for k in range(n) if k not in (i, j))
    # d[i] and d[j] two yeses each (a tie), d[z] one, the rest none.
    plans = {
        "alice": [yes_no(k in (i, z)) for k in range(n)],
        "bob": [yes_no(k in (i, j)) for k in range(n)],
        "carol": [yes_no(k == j) for k in range(n)],
    }
    last = plans["carol"].pop()
    w.concurrently(*vote_scripts(w, plans))
    through = w.alice.peerctl("vote", "yes", "--json")
    if through.returncode != 1 or "you have voted on every movie of this pick" not in said(through):
        raise CheckFailed(f"`vote yes` on alice, through the deck: exit {through.returncode}, {said(through)}")
    w.settle()
    w.agreed(p, "carol one short of the deck: no result yet", outcome="voting",
             voted={"alice": n, "bob": n, "carol": n - 1})
    w.vote_through(w.carol, [last], done=n - 1)
    w.settle()
    yeses = {d[i]: 2, d[j]: 2, d[z]: 1}
    w.agreed(p, f"{d[i]} chosen everywhere once carol is through", outcome="chosen", result=d[i],
             voted={"alice": n, "bob": n, "carol": n}, yeses=yeses)
    w.close(w.carol, p, d[i])
    w.settle()

    q = w.open(w.carol, voters=everyone)
    e = q.deck
    w.concurrently(*vote_scripts(w, {"alice": ["no", "yes", "no"], "bob": ["yes", "yes"]}))
    w.settle()
    w.agreed(q, "a second pick: alice 3 votes, bob 2, carol none: voting", outcome="voting",
             voted={"alice": 3, "bob": 2, "carol": 0})
    w.close(w.carol, q, e[1])
    w.settle()
    w.agreed(q, f"closed early: {e[1]} (2 yeses) over {e[0]} (1) on every daemon", outcome="chosen", result=e[1],
             is_open=False, voted={"alice": 3, "bob": 2, "carol": 0}, yeses={e[0]: 1, e[1]: 2})
    return (f"{p}: {d[i]} (deck {i}, listed {w.listed.index(d[i])}) ties {d[j]} (deck {j}, listed "
            f"{w.listed.index(d[j])}) at 2 yeses; {d[i]} chosen once all {n} × 3 votes were in; "
            f"closed early: {q.id['origin'][:8]}/{q.id['seq']} chose {e[1]}")


def check_ranked(w):
    """A ranked pick of 3 finalists (the most wanted: 550, 680, 238, in the shuffled order d):
    ballots alice d2>d1>d0, bob d0>d2>d1 (replacing his earlier d2>d0>d1), carol d1>d0>d2.
    Round one is a three-way tie; the deck's last, d2, is dropped and alice's ballot goes to d1,
    which wins with 2 of 3. (Dropping d0 would give d2, dropping d1 d0, plurality with the deck's
    order d0; bob's replaced ballot counted would give d2 a majority at once.)"""
    w.base()
    everyone = ["alice", "bob", "carol"]
    p = w.open(w.alice, "--mode", "ranked", "--finalists", 3, voters=everyone, finalists=3)
    d = p.deck
    if sorted(d) != sorted([550, 680, 238]):
        raise CheckFailed(f"the finalists are {d}, expected the three most wanted: 550, 680 and 238")

    def rank(*movies):
        return ",".join(str(m) for m in movies)
    w.concurrently(lambda: w.vote(w.alice, "--rank", rank(d[2], d[1], d[0])),
                   lambda: w.vote(w.bob, "--rank", rank(d[2], d[0], d[1])))
    w.settle()
    w.agreed(p, "alice and bob ranked (both d2 first), carol not: still voting", outcome="voting",
             voted={"alice": 3, "bob": 3, "carol": 0})
    w.vote(w.bob, "--rank", rank(d[0], d[2], d[1]))
    w.settle()
    w.agreed(p, "bob's second ballot in its place: still voting", outcome="voting",
             voted={"alice": 3, "bob": 3, "carol": 0})
    last = w.vote(w.carol, "--rank", rank(d[1], d[0], d[2]))
    if last["outcome"] != "chosen" or last["result"]["movieId"] != d[1]:
        raise CheckFailed(f"carol's ballot, the last, answered {last['outcome']} {last.get('result')}; "
                          f"the runoff gives {d[1]}")
    w.settle()
    w.agreed(p, f"{d[1]} chosen by the runoff on every daemon", outcome="chosen", result=d[1],
             voted={"alice": 3, "bob": 3, "carol": 3}, yeses={})
    w.close(w.bob, p, d[1])
    w.settle()
    return f"{p}: the runoff drops {d[2]}, {d[1]} wins 2 of 3 on all three"


def check_seen_vetoed(w):
    """bob has seen 603, carol vetoed 13 and has seen 155, alice vetoed 278. Four picks with
    different voters: each deck leaves out exactly what one of its voters has seen or vetoed, and
    keeps what only a member outside the pick has."""
    w.base()
    a, b, c = w.alice, w.bob, w.carol
    w.concurrently(lambda: w.mark(b, "seen", SEEN_BY_BOB),
                   lambda: (w.mark(c, "veto", VETOED_BY_CAROL), w.mark(c, "seen", SEEN_BY_CAROL)),
                   lambda: w.mark(a, "veto", VETOED_BY_ALICE))
    w.settle()
    marked = {SEEN_BY_BOB, VETOED_BY_CAROL, SEEN_BY_CAROL, VETOED_BY_ALICE}
    cases = [  # (opener, --with, voters, the marked movies the deck keeps)
        (a, "bob,carol", ["alice", "bob", "carol"], set()),
        (a, "bob", ["alice", "bob"], {VETOED_BY_CAROL, SEEN_BY_CAROL}),
        (c, "alice", ["alice", "carol"], {SEEN_BY_BOB}),
        (b, "carol", ["bob", "carol"], {VETOED_BY_ALICE}),
    ]
    told = []
    for opener, with_, voters, kept in cases:
        p = w.open(opener, "--with", with_, voters=voters)
        if set(p.deck) & marked != kept or not set(p.deck) >= set(w.listed) - marked:
            raise CheckFailed(f"{p} (voters {voters}) keeps {sorted(set(p.deck) & marked)} of the marked "
                              f"{sorted(marked)}, expected {sorted(kept)}, and every unmarked movie")
        w.close(opener, p, None)
        w.settle()
        told.append(f"{'+'.join(voters)}: {len(p.deck)} movies, keeps {sorted(kept) or 'none marked'}")
    return "; ".join(told)


def check_restart(w):
    """The opener restarted mid-pick: alice, stopped after some votes, while bob and carol vote on;
    started again alone on the same state dir, she shows every vote and her progress as before, and
    votes; started with her peers, everything meets, and voting goes on to the same result
    everywhere. Yes: d1 by alice and bob (before the stop), d0 by carol (while alice was down)."""
    w.base()
    a, b, c = w.alice, w.bob, w.carol
    everyone = ["alice", "bob", "carol"]
    p = w.open(a, voters=everyone)
    d, n = p.deck, len(p.deck)
    if n < 4:
        raise CheckFailed(f"the deck has {n} movies; this check needs 4: {p}")
    w.concurrently(*vote_scripts(w, {"alice": ["no", "yes"], "bob": ["no", "yes"], "carol": ["yes"]}))
    w.settle()
    before = w.agreed(p, "2, 2 and 1 votes everywhere", outcome="voting", voted={"alice": 2, "bob": 2, "carol": 1})
    held = a.operations()  # the operations made, and the group's records of admissions
    a.stop()
    if a.alive():
        raise CheckFailed("alice still runs after SIGTERM and SIGKILL")
    w.vote_through(b, ["no"], done=2)  # d2
    w.vote_through(c, ["no"], done=1)  # d1
    w.settle([b, c])

    a.dial([])  # alone: nobody dials her, so what she shows is what her state dir kept
    a.start()
    alone = a.status()
    mine = a.pick_status()
    if a.status()["peersConnected"] or alone["peersConnected"]:
        raise CheckFailed(f"alice restarted without --peer is connected ({alone['peersConnected']}): "
                          "can't tell her state dir from a peer's catch-up")
    # Her guest link keeps its capability (the key is in her state dir); its port is picked anew
    # (--guest-port 0 in the harness), so the link is compared by its path.
    def kept(record):
        link = record.get("guests", {}).get("url", "")
        return {**{k: v for k, v in record.items() if k != "guests"}, "link": link.split("/", 3)[-1]}
    if alone["operations"] != held or kept(mine) != kept(before["alice"]):
        changed = {k: (kept(before["alice"]).get(k), kept(mine).get(k)) for k in set(kept(mine))
                   if kept(mine).get(k) != kept(before["alice"]).get(k)}
        raise CheckFailed(f"alice after the restart holds {alone['operations']} operations (had {held}); her pick "
                          f"record changed (before, after): {shorten(changed)}")
    w.vote_through(a, ["no"], done=2)  # d2, while alone
    a.stop()
    a.dial(["bob", "carol"])
    a.start()
    w.connected()
    w.settle()
    w.agreed(p, "alice back with her peers: every vote everywhere", outcome="voting",
             voted={"alice": 3, "bob": 3, "carol": 2})
    w.concurrently(*vote_scripts(w, {"alice": ["no"] * (n - 3), "bob": ["no"] * (n - 3), "carol": ["no"] * (n - 2)},
                                 done={"alice": 3, "bob": 3, "carol": 2}))
    w.settle()
    w.agreed(p, f"{d[1]} chosen everywhere", outcome="chosen", result=d[1], voted={x: n for x in everyone},
             yeses={d[0]: 1, d[1]: 2})
    w.close(a, p, d[1])
    w.settle()
    return (f"{p}: after the restart alone alice held all {held} operations and the same record; "
            f"{d[1]} chosen on all three")


def check_bad_input(w):
    """Refusals and replacements: before any pick, `vote` and `pick --status` say there is none;
    a second vote replaces the first; a vote for a movie outside the deck, and every step after the
    close, is refused (exit 1, bad-request, the result named) on every daemon, making nothing;
    `pick --watched` logs the result as seen by the voters, and a new pick leaves it out."""
    w.base()
    a, b, c = w.alice, w.bob, w.carol
    problems = []
    for name, answers in w.before_any_pick.items():
        for args, result in answers.items():
            want = "there is no pick yet" if args.startswith("pick --status") else \
                "there is no pick" if args.startswith("pick --close") else "there is no pick to vote on"
            if result.returncode != 1 or want not in said(result) or \
                    (args.endswith("--json") and not said(result).startswith("bad-request: ")):
                problems.append(f"{name}: `{args}` before any pick: exit {result.returncode}, {said(result)!r}")
    if problems:
        raise CheckFailed("; ".join(problems))

    p = w.open(b, "--with", "alice", voters=["alice", "bob"])
    # y: a movie carol has neither seen nor vetoed, so that her own deck shows it after the watch;
    # x: the deck's first, before y.
    carols = {m for m, names in [*w.seen.items(), *w.vetoed.items()] if "carol" in names}
    x, y = p.deck[0], next(m for m in p.deck[1:] if m not in carols)
    outside = next((m for m in w.listed if m not in p.deck), 27205)  # seen or vetoed by alice or bob
    refused = a.peerctl("vote", "yes", outside, "--json")
    if refused.returncode != 1 or f"movie {outside} is not in this pick's deck" not in said(refused):
        raise CheckFailed(f"`vote yes {outside}` (not in the deck) on alice: exit {refused.returncode}, "
                          f"{said(refused)}")
    # alice: yes then no to x; bob: no then yes to y. Counted once each: x 1 yes (bob's), y 2.
    # Were a first vote to count, x would tie y at 2 and win by the deck's order.
    w.concurrently(lambda: [w.vote(a, *v) for v in (("yes", x), ("no", x), ("yes", y))],
                   lambda: [w.vote(b, *v) for v in (("yes", x), ("no", y), ("yes", y))])
    w.settle()
    w.agreed(p, "alice and bob voted twice on one movie each: 2 movies each", outcome="voting",
             voted={"alice": 2, "bob": 2})
    w.close(a, p, y)
    w.settle()
    w.agreed(p, f"closed: {y} 2 yeses, {x} 1", outcome="chosen", result=y, is_open=False,
             voted={"alice": 2, "bob": 2}, yeses={x: 1, y: 2})

    held = {d.name: d.operations() for d in w.all()}
    stands = f"the pick is closed; its result stands: {title_of(y)} ({y})"
    refusals = []
    for d in w.all():
        for args in (("vote", "yes", "--json"), ("vote", "no", x), ("vote", "--rank", f"{x},{y}"),
                     ("pick", "--close", "--json")):
            result = d.peerctl(*args)
            text = said(result)
            ok = result.returncode == 1 and stands in text
            if args[-1] == "--json":
                ok = ok and text.startswith("bad-request: ")
            if not ok:
                problems.append(f"{d.name}: `{' '.join(map(str, args))}` after the close: "
                                f"exit {result.returncode}, {text!r}")
            refusals.append(text)
    now = {d.name: d.operations() for d in w.all()}
    if problems or now != held:
        raise CheckFailed("; ".join(problems) + f" (operations before {held}, after {now})")

    watched = w.act(a, "pick", "--watched")
    if watched.get("type") != "marked" or watched.get("movieId") != y:
        raise CheckFailed(f"pick --watched on alice answered {shorten(watched)}, expected a watch of {y}")
    today = datetime.date.today().isoformat()
    w.settle()

    def seen_by(d):
        row = next(r for r in d.movies() if r["movieId"] == y)
        return {m["name"]: m.get("seenOn") for m in row.get("marks", []) if m["seen"]}
    expect_eventually(lambda: all(seen_by(d) == {"alice": today, "bob": today} for d in w.all()), SYNC_WAIT,
                      f"alice and bob (not carol) seen {y} today on every daemon")
    for name in ("alice", "bob"):
        w.seen.setdefault(y, set()).add(name)
    after = w.open(c, "--with", "alice", voters=["alice", "carol"])
    if y in after.deck:
        raise CheckFailed(f"{after} keeps {y}, which alice watched")
    w.close(c, after, None)
    alone = w.open(c, "--with", "carol", voters=["carol"])
    if y not in alone.deck:
        raise CheckFailed(f"{alone}, carol's alone, leaves out {y}, which only alice and bob watched")
    w.close(c, alone, None)
    w.settle()
    return (f"replaced votes: {x} 1 yes, {y} 2 → {y}; after the close, on each daemon: {refusals[0]!r}; "
            f"--watched: {y} seen by alice and bob on {today}, out of alice+carol's next deck, in carol's own")


def check_not_asked(w):
    """A member the opening did not name who votes is one of the voters (PEER.md, "The tally": "and
    everyone else who has a vote or a ranking that counts: … a member the opening did not name"):
    alice opens a majority pick --with bob, carol votes yes once on her daemon; every daemon lists
    her, the pick waits for her once alice and bob are through, and her yes counts at the end."""
    w.base()
    a, b, c = w.alice, w.bob, w.carol
    p = w.open(a, "--with", "bob", voters=["alice", "bob"])
    n = len(p.deck)
    w.vote_through(c, ["yes"])
    w.concurrently(*vote_scripts(w, {"alice": ["yes"] + ["no"] * (n - 1), "bob": ["yes"] + ["no"] * (n - 1)}))
    w.settle()
    w.agreed(p, "alice and bob through the deck, carol (not named) one vote in: still voting everywhere",
             outcome="voting", voted={"alice": n, "bob": n, "carol": 1})
    w.vote_through(c, ["no"] * (n - 1), done=1)
    w.settle()
    w.agreed(p, f"carol through: {p.deck[0]} chosen with her yes", outcome="chosen", result=p.deck[0],
             voted={"alice": n, "bob": n, "carol": n}, yeses={p.deck[0]: 3})
    w.close(a, p, p.deck[0])
    w.settle()
    return f"{p}: carol a voter on every daemon after one vote; {p.deck[0]} chosen with 3 yeses once she was through"


def check_watched_by_voters(w):
    """`pick --watched` is for a voter to run (a watch names whoever logs it): alice and bob pick
    (--with bob) and carol, not asked, runs `pick --watched` on her daemon: refused, exit 1, with the
    reason, and nothing made; bob's own `pick --watched` then marks alice and bob, not carol."""
    w.base()
    a, b, c = w.alice, w.bob, w.carol
    p = w.open(a, "--with", "bob", voters=["alice", "bob"])
    w.concurrently(lambda: w.vote(a, "yes", p.deck[0]), lambda: w.vote(b, "yes", p.deck[0]))
    w.settle()
    w.close(a, p, p.deck[0])
    w.settle()
    y = p.deck[0]
    held = c.operations()
    refused = c.peerctl("pick", "--watched")
    if refused.returncode != 1 or "didn't vote" not in refused.stderr or c.operations() != held:
        raise CheckFailed(f"carol's `pick --watched` of a pick she didn't vote in: exit {refused.returncode}, "
                          f"stderr {refused.stderr.strip()!r}, operations {held} → {c.operations()}")
    carol_before = "carol" in w.seen.get(y, set())  # an earlier check's watch may have named her
    w.act(b, "pick", "--watched")
    w.settle()
    for name in ("alice", "bob"):
        w.seen.setdefault(y, set()).add(name)
    expected = sorted(w.seen[y])

    def seen_by(d):
        row = next(r for r in d.movies() if r["movieId"] == y)
        return sorted(m["name"] for m in row.get("marks", []) if m["seen"])
    got = expect_eventually(lambda: {d.name: seen_by(d) for d in w.all()}
                            if all("alice" in seen_by(d) and "bob" in seen_by(d) for d in w.all()) else None,
                            SYNC_WAIT, f"alice and bob seen {y} everywhere")
    if any(v != expected for v in got.values()):
        w.seen.setdefault(y, set()).add("carol")
        raise CheckFailed(f"after bob's `pick --watched` of a pick of alice and bob, {y} is seen by {got}; "
                          f"expected {expected} (carol did not vote; seen before: {carol_before})")
    return (f"carol refused ({refused.stderr.strip().splitlines()[0]!r}); after bob's: {y} seen by {expected} "
            f"(carol before: {carol_before})")


def check_watched_without_result(w):
    """`pick --watched` when the last pick ended with no movie: exit 1 with nothing on stdout
    (PEERCTL-JSON.md, "peerctl pick"), the reason on stderr, and nothing made."""
    w.base()
    a = w.alice
    p = w.open(a, "--with", "bob", voters=["alice", "bob"])
    w.close(a, p, None)
    w.settle()
    held = a.operations()
    result = a.peerctl("pick", "--watched", "--json")
    named = "alice's majority pick of "
    if result.returncode != 1 or result.stdout.strip() or named not in result.stderr \
            or "ended with no movie chosen; nothing to log" not in result.stderr \
            or a.operations() != held:
        raise CheckFailed(f"`pick --watched --json` after a pick closed with no movie: exit {result.returncode}, "
                          f"stdout {result.stdout.strip()!r}, stderr {result.stderr.strip()!r}; operations "
                          f"{held} → {a.operations()}")
    return f"exit 1: {result.stderr.strip().splitlines()[0]!r}"


def check_pick_events(w):
    """bob's page hears of every change to a pick made anywhere: `event: pick` with the pick's
    opening id on his /api/events (WEB.md), for alice's opening and for carol's vote."""
    w.base()
    url = w.bob.peerctl("open", "--no-browser").stdout.strip()
    base, token = url.split("/#token=")
    request = urllib.request.Request(base + "/api/events", headers={"Authorization": f"Bearer {token}"})
    stream = urllib.request.urlopen(request, timeout=SYNC_WAIT)
    picks = queue.Queue()

    def read():
        event = None
        try:
            for raw in stream:
                line = raw.decode().rstrip("\n")
                if line.startswith("event: "):
                    event = line[len("event: "):]
                elif line.startswith("data: ") and event == "pick":
                    picks.put(json.loads(line[len("data: "):])["pick"])
        except (OSError, ValueError, AttributeError, http.client.HTTPException):
            pass  # the check shut the stream
    threading.Thread(target=read, daemon=True).start()

    def next_pick(what):
        try:
            return picks.get(timeout=SYNC_WAIT)
        except queue.Empty:
            raise CheckFailed(f"no `event: pick` on bob's page after {what} within {SYNC_WAIT} s") from None
    try:
        p = w.open(w.alice, "--with", "bob,carol", voters=["alice", "bob", "carol"])
        opened = next_pick("alice's opening")
        w.vote(w.carol, "yes")
        voted = next_pick("carol's vote")
        w.act(w.alice, "pick", "--close")
        w.settle()
    finally:
        # Unblocks the reader at once (a plain close waits for its read to time out).
        try:
            stream.fp.raw._sock.shutdown(socket.SHUT_RDWR)
        except (AttributeError, OSError):
            pass
        stream.close()
    if opened != p.id or voted != p.id:
        raise CheckFailed(f"bob's page got picks {opened} and {voted}, expected {p.id} twice")
    return f"{p}: event: pick for the opening and for carol's vote on bob's page"


def text_of(daemon, *args, code=0):
    """`peerctl ARGS` on `daemon` in words, which must exit `code`: its stdout and stderr."""
    result = daemon.peerctl(*args)
    if result.returncode != code:
        raise CheckFailed(f"`peerctl {' '.join(map(str, args))}` on {daemon.name}: exit {result.returncode}, "
                          f"expected {code}; {result.stderr.strip() or result.stdout.strip()!r}")
    return result.stdout + result.stderr


def check_one_pick_at_a_time(w):
    """A group votes on one pick at a time (issue 35, 1): with alice's pick of 4 cards voting,
    bob's `peerctl pick` joins it and opens nothing, his options or not; his vote and status name
    alice's pick; his `--close` is refused (it is alice's) and makes nothing; `--close --force`
    closes it, and his `--watched` logs its result with the others, not himself, named."""
    w.base()
    a, b = w.alice, w.bob
    everyone = ["alice", "bob", "carol"]
    p = w.open(a, "--deck-size", 4, voters=everyone, deck_size=4)
    if p.record.get("candidates") != w.candidates(everyone):
        raise CheckFailed(f"alice's opening says {p.record.get('candidates')} candidates, expected "
                          f"{w.candidates(everyone)}")
    named = "alice's majority pick of 4 movies from list, opened at "
    held = {d.name: d.operations() for d in w.all()}
    joined = text_of(b, "pick")
    own = text_of(b, "pick", "--mode", "unanimous")
    joined_json = b.peerctl_json("pick")
    problems = []
    if not joined.startswith("joined " + named):
        problems.append(f"bob's `pick` said {joined.splitlines()[0]!r}")
    if "your options weren't used: they open a new pick once this one is closed" not in own:
        problems.append(f"bob's `pick --mode unanimous` said {own!r}")
    if joined_json.get("pick") != p.id or joined_json.get("joined") is not True:
        problems.append(f"bob's `pick --json` answered {shorten(joined_json)}")
    if {d.name: d.operations() for d in w.all()} != held:
        problems.append(f"operations {held} → {({d.name: d.operations() for d in w.all()})}")
    if problems:
        raise CheckFailed("; ".join(problems))
    voted = text_of(b, "vote", "yes")
    with w.lock:
        w.total += 1
    if not voted.startswith(named):
        raise CheckFailed(f"bob's `vote yes` said {voted.splitlines()[0]!r}, expected it to name alice's pick")
    w.settle()
    held = a.operations()
    refused = text_of(b, "pick", "--close", code=1)
    if "this is alice's pick: alice closes it, or close it anyway with `peerctl pick --close --force`" \
            not in refused or w.bob.operations() != held:
        raise CheckFailed(f"bob's `pick --close` of alice's pick: {refused!r}; operations {held} → "
                          f"{w.bob.operations()}")
    w.close(b, p, p.deck[0])
    w.settle()
    logged = text_of(b, "pick", "--watched")
    with w.lock:
        w.total += 1
        for name in everyone:
            w.seen.setdefault(p.deck[0], set()).add(name)
    expected = f"logged a watch of {p.deck[0]} {title_of(p.deck[0])} ({MOVIES[p.deck[0]][1]}) with alice, carol"
    if logged.strip() != expected:
        raise CheckFailed(f"bob's `pick --watched` said {logged.strip()!r}, expected {expected!r}")
    w.settle()
    return (f"{p}: bob's `pick` {joined.splitlines()[0]!r}, nothing made; his close refused: "
            f"{refused.strip()!r}; closed with --force; {logged.strip()!r}")


EXTRA_MOVIES = {1891: ("The Empire Strikes Back", 1980), 105: ("Back to the Future", 1985),
                11: ("Star Wars", 1977), 85: ("Raiders of the Lost Ark", 1981), 578: ("Jaws", 1975),
                329: ("Jurassic Park", 1993), 562: ("Die Hard", 1988), 218: ("The Terminator", 1984),
                620: ("Ghostbusters", 1984), 601: ("E.T. the Extra-Terrestrial", 1982), 694: ("The Shining", 1980),
                348: ("Alien", 1979)}


def check_default_deck(w):
    """A short deck by default (issue 35, 2): with more than 12 movies nobody has seen, a majority
    pick deals each voter the 12 most wanted, and its opener is told so, with how many there were."""
    w.base()
    a = w.alice
    for movie, (title, year) in EXTRA_MOVIES.items():
        if movie not in w.listed:
            w.act(a, "add", movie, "--title", title, "--year", year)
            w.listed.append(movie)
            MOVIES[movie] = (title, year)
    w.settle()
    everyone = ["alice", "bob", "carol"]
    count = w.candidates(everyone)
    if count <= DEFAULT_DECK:
        raise CheckFailed(f"only {count} movies are left for a pick; this check needs more than {DEFAULT_DECK}")
    said_text = text_of(a, "pick")
    with w.lock:
        w.total += 1
    record = a.pick_status()
    opened = Opened(record, "alice")
    expected = w.expected_deck(everyone, opened.id)
    first = said_text.splitlines()[0]
    line = (f"opened a majority pick from list for alice, bob, carol: each voter sees {DEFAULT_DECK} movies, "
            f"the most wanted of {count} that none of you has seen (--deck-size to change)")
    if opened.deck != expected or first != line:
        raise CheckFailed(f"alice's `pick`: deck {opened.deck}, expected {expected}; said {first!r}, expected {line!r}")
    w.close(a, opened, None)
    w.settle()
    return f"{opened}: {first!r}"


CHECKS = [
    ("unanimous: the first movie of the deck all three said yes to, the same deck and result on every daemon",
     tidied(check_unanimous)),
    ("majority: pending until everyone is through, the deck's order breaks a tie; --close decides early",
     tidied(check_majority)),
    ("ranked: the instant runoff over three ballots, a replaced ballot, the same winner on every daemon",
     tidied(check_ranked)),
    ("the deck leaves out what a voter has seen or vetoed, keeps what only a non-voter has", tidied(check_seen_vetoed)),
    ("the opener restarted mid-pick keeps every vote; voting goes on to the same result", tidied(check_restart)),
    ("bad input: no pick yet, a vote replaced, refusals after the close on every daemon, pick --watched",
     tidied(check_bad_input)),
    ("a member the opening did not name who votes is a voter: the pick waits for her, her yes counts",
     tidied(check_not_asked)),
    ("the page hears of each change to a pick: event: pick on /api/events", tidied(check_pick_events)),
    ("pick --watched is a voter's: refused on a non-voter's daemon; a voter's marks only the voters seen",
     tidied(check_watched_by_voters)),
    ("pick --watched with no result to log: exit 1, nothing on stdout, nothing made",
     tidied(check_watched_without_result)),
    ("one pick at a time: another's `pick` joins the voting one, its close is the opener's or --force",
     tidied(check_one_pick_at_a_time)),
    ("a short deck: the 12 most wanted by default, and the opener told how many of how many",
     tidied(check_default_deck)),
]



if __name__ == "__main__":
    sys.exit(suite.main("picks", __doc__.split("\n")[0], CHECKS, World))
