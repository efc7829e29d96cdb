#!/usr/bin/env python3
"""`peerctl import` and `peerctl export` with real daemons and the fake TMDB (make test, stage `imports`).

    python3 integration/imports/test_imports.py [--keep] [--only WORDS...]

alice holds a TMDB token (the fake's, on loopback); bob has none and is in alice's group, so his
imports resolve titles and IMDb ids through her (PEER.md, "Catalog queries"). dave, eve and frank
are daemons of groups of their own. The files are fixtures/ (hand-made in each format's real
layout: quoted commas, non-ASCII titles, a missing year, a duplicate, TV rows, a title TMDB doesn't
have) and files.py's made-up and hostile ones.

Prints one PASS/FAIL line per check (../suite.py) and ends with `imports: N passed, M failed`.
"""
import csv
import json
import os
import pathlib
import pty
import re
import resource
import subprocess
import sys
import threading
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent / "catalog"))
import files  # noqa: E402
import harness  # noqa: E402
from fake_tmdb import FakeTMDB  # noqa: E402
from harness import CheckFailed  # noqa: E402
import suite  # noqa: E402
from test_catalog import v4_token, write_secret_file  # noqa: E402

FIXTURES = files.FIXTURES


class Daemon(harness.Peerd):
    """A peerd of this stage: the fake TMDB's URL, a token for some, a group secret for alice's group."""

    def __init__(self, w, name, token=False, group=True, peers=()):
        self.w, self.token, self.group, self.dial = w, token, group, peers
        super().__init__(w.work, name, harness.free_port(), args=["--no-guests"])

    def argv(self):
        args = ["--tmdb-url", self.w.fake.url] + (["--tmdb-token-file", self.w.token] if self.token else [])
        args += ["--group-secret-file", self.w.secret] if self.group else []
        args += [a for p in self.dial for a in ("--peer", f"127.0.0.1:{p.port}")]
        return super().argv() + args

    def run_import(self, path, *args, check=True, timeout=120):
        """`peerctl import PATH ARGS` in the work dir (where the unresolved file goes)."""
        result = subprocess.run(harness.peerctl_argv(self.socket, "import", path, *args), capture_output=True,
                                text=True, timeout=timeout, cwd=self.w.work)
        if check and result.returncode != 0:
            said = (result.stderr + result.stdout.strip()[-600:])[-1200:]
            raise CheckFailed(f"peerctl import {path} on {self.name} exited {result.returncode}: {said}")
        return result

    def summary(self, path, *args):
        """The `summary` event of `peerctl import --json`."""
        lines = self.run_import(path, "--json", *args).stdout.splitlines()
        return json.loads(lines[-1])

    def operations(self):
        return self.status()["operations"]

    def own_operations(self):
        """This member's operations but describes and admissions, newest first, as `history` words them."""
        entries = self.peerctl_json("history", "--limit", "1000")["entries"]
        return [e["cursor"] for e in entries if e["peer"] == self.id and e["op"] not in ("describe", "member")]

    def journals(self):
        """The imports' journals in the state directory."""
        return sorted(p.name for p in (self.state_dir / "imports").glob("*.journal"))

    def rss(self):
        with open(f"/proc/{self.proc.pid}/status") as f:
            return next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmRSS:"))

    def marks(self, movie, member):
        """`member`'s marks on listed `movie` as this daemon lists them: (want, seen, seenOn, rating, veto)."""
        for row in self.movies():
            if row["movieId"] == movie:
                for m in row.get("marks", []):
                    if m["peer"] == member.id:
                        return (m["want"], m["seen"], m.get("seenOn"), m.get("rating"), m["veto"])
                return None
        raise CheckFailed(f"{movie} is not on {self.name}'s list")


class World:
    def __init__(self, work):
        self.work = work
        token = v4_token()
        self.fake = FakeTMDB([token], synthetic=True).start()
        self.token = write_secret_file(work / "tmdb.token", token)
        self.secret = harness.write_group_secret(work / "group.secret")
        self.daemons = []
        self.alice = self.start(Daemon(self, "alice", token=True))
        self.bob = self.start(Daemon(self, "bob", peers=[self.alice]))
        harness.expect_eventually(lambda: any(p.get("peer") == self.alice.id and p.get("state") == "connected"
                                              for p in self.bob.peers()), 30, "bob connected to alice")

    def start(self, daemon):
        self.daemons.append(daemon)
        return daemon.start()

    def fresh(self, name, token=False):
        """A daemon of a group of its own."""
        return self.start(Daemon(self, name, token=token, group=False))

    def searches(self):
        return self.fake.count("/3/search/movie")

    def stop(self):
        for daemon in reversed(self.daemons):
            try:
                daemon.stop()
            except Exception:  # cleanup goes on
                pass
        self.fake.stop()


def expect(got, wanted, what):
    if got != wanted:
        raise CheckFailed(f"{what}: got {got!r}, wanted {wanted!r}")


def counts(summary):
    return {k: summary[k] for k in ("added", "marked", "already", "unresolved", "skipped", "failed")}


# MARK: the formats


def check_letterboxd_zip(w):
    """bob has no token: the titles are looked up through alice. Order in the ZIP: watched, diary,
    ratings, watchlist (docs/IMPORT.md)."""
    export = files.letterboxd_zip(w.work / "letterboxd-export.zip")
    asked = w.searches()
    summary = w.bob.summary(export)
    expect(counts(summary), {"added": 2, "marked": 6, "already": 3, "unresolved": 2, "skipped": 0, "failed": 0},
           "the summary")
    expect(summary["unresolvedFile"], "letterboxd-export.unresolved.csv", "the unresolved rows' file")
    reasons = [row["Reason"] for row in csv.DictReader(open(w.work / summary["unresolvedFile"], encoding="utf-8"))]
    if not (any("'Crouching Tiger, Hidden Dragon' (2000)" in r for r in reasons)
            and any("2 movies are titled 'Dune' (1984, 2021)" in r for r in reasons)):
        raise CheckFailed(f"the unresolved rows' reasons: {reasons}")
    # A diary film nobody lists is shown with bob's marks, and alice, who holds a token, describes it.
    def spirited_away():
        shown = w.bob.peerctl_json("show", 129)
        marks = [(m["name"], m["seen"], m.get("seenOn"), m.get("rating"))
                 for m in (shown.get("offList") or {}).get("marks", [])]
        return shown if marks == [("bob", True, "2023-06-10", 1)] and "movie" not in shown \
            and (shown.get("details") or {}).get("title") == "Spirited Away" else None
    harness.expect_eventually(spirited_away, 20, "bob's `show 129` (off the list): his marks and alice's details")
    # Seen marks wait with their movies: alice lists them, and bob's marks are there.
    for movie in (550, 129, 680):
        w.alice.add(movie, f"movie {movie}")
    wanted = {603: (True, False, None, None, False), 27205: (True, False, None, None, False),
              550: (False, True, "2023-05-01", 9, False), 129: (False, True, "2023-06-10", 1, False),
              680: (False, True, "2023-07-01", 10, False)}
    harness.expect_eventually(lambda: all(w.alice.marks(m, w.bob) == marks for m, marks in wanted.items()), 20,
                              "bob's marks on alice's list")
    return (f"13 rows: 2 added, 6 marked, 3 already there, 2 unresolved ({'; '.join(reasons)}); 129 shown off the "
            f"list with bob's marks and alice's details; alice's token "
            f"answered {w.searches() - asked} searches; bob's marks reached alice: stars × 2 (4.5 → 9, 0.5 → 1, "
            "5 → 10), diary dates, 千と千尋の神隠し by its original title")


def check_again_adds_nothing(w):
    # bob's own operations: alice's describes of the films bob marked off the list may still land.
    before, asked = w.bob.own_operations(), w.searches()
    summary = w.bob.summary(w.work / "letterboxd-export.zip")
    expect(counts(summary), {"added": 0, "marked": 0, "already": 11, "unresolved": 2, "skipped": 0, "failed": 0},
           "the second run")
    expect((w.bob.own_operations(), w.searches()), (before, asked),
           "(bob's operations, TMDB searches) after the second run")
    return (f"0 added, 0 marked, 11 already there; still {len(before)} operations of bob's, and TMDB was asked "
            "nothing more")


def check_fixing_the_unresolved(w):
    path = w.work / "letterboxd-export.unresolved.csv"
    rows = list(csv.DictReader(open(path, encoding="utf-8")))
    for row in rows:
        if row["Title"] == "Dune":
            row["Year"] = "2021"
        else:
            row["tmdbID"] = "146"
    with open(path, "w", encoding="utf-8", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        writer.writeheader()
        writer.writerows(rows)
    summary = w.bob.summary(path)
    expect((summary["added"], summary["unresolved"]), (2, 0), "(added, unresolved) of the fixed file")
    harness.expect_eventually(lambda: {146, 438631} <= w.alice.movie_ids(), 20, "the fixed rows on alice's list")
    return "bob gave Dune its year and Crouching Tiger its tmdbID in the unresolved file; importing it added both"


def check_other_formats(w):
    """IMDb through alice's `find` for bob; IMDb ratings, TMDB's CSV and Trakt's JSON on alice."""
    found_before = w.fake.count("/3/find/tt0816692")
    imdb = w.bob.summary(FIXTURES / "imdb-watchlist.csv")
    expect(counts(imdb), {"added": 1, "marked": 0, "already": 0, "unresolved": 1, "skipped": 1, "failed": 0},
           "bob's IMDb watchlist")
    expect(w.fake.count("/3/find/tt0816692") - found_before, 1, "TMDB's /3/find asked through alice")
    # Her own operations, not the describes she fetches meanwhile for movies others just added.
    before, journals = w.alice.own_operations(), w.alice.journals()
    dry = w.alice.summary(FIXTURES / "tmdb-export.csv", "--dry-run")
    expect((dry["added"], dry["marked"], dry["dryRun"], w.alice.own_operations(), w.alice.journals()),
           (1, 1, True, before, journals), "the dry run (added, marked, dryRun, her operations, journals)")
    results = {name: counts(w.alice.summary(FIXTURES / name)) for name in
               ("imdb-ratings.csv", "tmdb-export.csv", "trakt-history.json")}
    expect(results["tmdb-export.csv"], dict(counts(dry), failed=0), "the TMDB export after its dry run")
    for movie in (603, 155, 62, 105, 862):
        w.alice.peerctl("add", movie)
    wanted = {603: (False, True, None, 9), 155: (False, True, None, 8), 62: (False, True, None, 8),
              105: (False, True, "2023-08-01", None), 862: (False, True, "2023-08-03", None),
              78: (True, False, None, None)}
    got = {m: (w.alice.marks(m, w.alice) or (None,) * 5)[:4] for m in wanted}
    expect({m: v for m, v in got.items() if v != wanted[m]}, {}, "alice's marks that differ")
    return (f"bob's IMDb watchlist: Interstellar added through alice's /3/find, tt9999999 unresolved, the series "
            f"skipped; alice: {results}; the dry run wrote nothing and said what the import then did; "
            "ratings 9 and 8, TMDB's 7.5 → 8, Trakt's watch days, Toy Story by its IMDb id")


# MARK: progress, resuming


def check_progress(w):
    dave = w.dave = w.fresh("dave", token=True)
    # Three files of other movies, each resolved afresh (a dry run writes no journal either).
    path, piped_path, terminal_path = (files.made_up_watchlist(w.work / f"watchlist-{n}.csv", 120, first=n * 200)
                                       for n in (1, 2, 3))
    w.fake.set_fault("ok", latency_ms=50)
    try:
        events = [json.loads(line) for line in dave.run_import(path, "--json").stdout.splitlines()]
        piped = dave.run_import(piped_path, "--dry-run").stderr
        terminal = on_terminal(harness.peerctl_argv(dave.socket, "import", terminal_path, "--dry-run"), w.work)
        told = dave.run_import(files.made_up_watchlist(w.work / "watchlist-4.csv", 2, first=800)).stdout
    finally:
        w.fake.set_fault("ok")
    if "what it marked: `peerctl history --since 1m`" not in told:
        raise CheckFailed(f"an import that added 2 rows doesn't say where to see them: {told!r}")
    progress = [e for e in events if e["event"] == "progress"]
    if not (events[0]["event"] == "start" and events[0]["rows"] == 120 and events[-1]["event"] == "summary"
            and [e["done"] for e in progress] == sorted({e["done"] for e in progress}) and progress[-1]["done"] == 120
            and all("rowsPerSecond" in e for e in progress)):
        raise CheckFailed(f"--json events: {events[:3]} … {events[-2:]}")
    lines = re.findall(r"^\d+/120 rows, [\d.]+ rows/s.*$", piped, re.M)
    bar = re.search(r"\r\x1b\[K\[[█░]{24}\] \d+/120  [\d.]+ rows/s ETA \d+:\d\d", terminal)
    if len(lines) < 2 or not bar:
        raise CheckFailed(f"not on a terminal: {piped!r}; on one: {terminal[-300:]!r}")
    # The first line comes with the first answer, which carries the rows peerd looks up at once: a
    # piped import through a holder (2 rows a second) says something within 2 s, not after 20 rows.
    if int(lines[0].split("/")[0]) > 4 or int(events[1]["done"]) > 4:
        raise CheckFailed(f"the first progress came after {lines[0]!r} (piped), {events[1]} (--json)")
    return (f"--json: start, {len(progress)} progress events (done, total, rowsPerSecond, secondsLeft), summary; "
            f"piped: {len(lines)} lines like {lines[0]!r}; on a terminal: a bar redrawn in place, {bar.group(0)[4:]!r}")


def on_terminal(argv, cwd):
    """What `argv` writes on a pseudo-terminal (stdout and stderr both)."""
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(cwd)
        os.execv(argv[0], [str(a) for a in argv])
    out = b""
    while True:
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    os.waitpid(pid, 0)
    return out.decode("utf-8", "replace")


def check_resume_after_kill(w):
    """kill -9 of peerctl, then of peerd, mid-import; each run again continues; every movie once."""
    dave, path = w.dave, files.made_up_watchlist(w.work / "long-watchlist.csv", 300, first=1000)
    w.fake.set_fault("ok", latency_ms=100)
    try:
        first = import_until(dave, path, 60, lambda proc: proc.kill())
        second = import_until(dave, path, first + 60, lambda proc: dave.proc.kill())
        dave.proc.wait()
        dave.start()
        asked = w.searches()
        last = dave.summary(path)
    finally:
        w.fake.set_fault("ok")
    listed = {m["movieId"] for m in dave.movies()} & set(range(1000, 1300))
    wanting = sum(1 for m in dave.movies() if 1000 <= m["movieId"] < 1300 and dave.marks(m["movieId"], dave)[0])
    if listed != set(range(1000, 1300)) or wanting != 300 or last["already"] < second:
        raise CheckFailed(f"after the runs: {len(listed)} listed, {wanting} wanted, the last run {counts(last)}")
    if w.searches() - asked > 300 - second + 2 * 4:
        raise CheckFailed(f"the last run searched {w.searches() - asked} times for {300 - second} rows left")
    return (f"peerctl killed at {first}/300 rows, peerd killed at {second}/300; the third run: {counts(last)}, "
            f"asking TMDB {w.searches() - asked} times; 300 movies listed once each, each wanted once "
            f"({dave.operations()} operations in all)")


def check_peerd_killed_inside_a_request(w):
    """peerd killed with kill -9 inside a request of 20 rows: peerctl says peerd stopped (not that it sent
    something unexpected), and the run again asks TMDB again only for the rows that were in flight."""
    dave, path = w.dave, files.made_up_watchlist(w.work / "killed-watchlist.csv", 100, first=5000)
    w.fake.set_fault("ok", latency_ms=100)
    try:
        base = w.searches()
        proc = subprocess.Popen(harness.peerctl_argv(dave.socket, "import", path, "--json"), stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, cwd=w.work)
        done = 0
        for line in proc.stdout:
            done = json.loads(line).get("done", done)
            if done >= 40:
                break
        # Ten rows into the next request (20 rows by now), its lookups on their way to TMDB.
        harness.expect_eventually(lambda: w.searches() - base >= done + 10, 60, f"TMDB asked for row {done + 10}")
        dave.proc.kill()
        said = proc.communicate(timeout=30)[1].strip()
        dave.proc.wait()
        asked = w.searches() - base
        dave.start()
        last = dave.summary(path)
    finally:
        w.fake.set_fault("ok")
    if proc.returncode != 69 or "unexpected" in said or "peerd closed the connection after" not in said:
        raise CheckFailed(f"peerctl exited {proc.returncode} and said {said!r}")
    again = w.searches() - base - 100
    # A row's add and its want are two commits (issue 36 makes them one): killed between them, the
    # run again finds the movie listed and makes only the want, "marked". At most the rows in flight.
    if again > 4 or last["failed"] or last["added"] + last["already"] + last["marked"] != 100 \
            or last["marked"] > 4:
        raise CheckFailed(f"killed after {asked} lookups with {done} rows answered: the run again asked TMDB again "
                          f"for {again} rows (at most the 4 in flight); it said {counts(last)}")
    return (f"killed after {asked} lookups, {done} rows answered; peerctl said {said.splitlines()[-1]!r}; "
            f"the run again: {counts(last)}, {again} rows asked of TMDB again")


def import_until(daemon, path, rows, kill):
    """Starts `peerctl import --json`, and kills (with `kill(process)`) once `rows` are done; returns how many were."""
    proc = subprocess.Popen(harness.peerctl_argv(daemon.socket, "import", path, "--json"), stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, cwd=daemon.w.work)
    done = 0
    for line in proc.stdout:
        event = json.loads(line)
        done = event.get("done", done)
        if done >= rows:
            kill(proc)
            break
    proc.wait()
    if done < rows:
        raise CheckFailed(f"the import ended at {done} rows before it could be killed at {rows}")
    return done


def check_rate_limit(w):
    """TMDB answers 429 with Retry-After: 2 for a second: no lookup goes out before it ends, none fails."""
    dave, path = w.dave, files.made_up_watchlist(w.work / "limited-watchlist.csv", 40, first=3000)
    first_limited = []

    def limit_for_a_second():
        harness.expect_eventually(lambda: w.fake.count("/3/search/movie", status=429), 30, "a 429")
        first_limited.append(min(r["at"] for r in w.fake.requests("/3/search/movie") if r["status"] == 429))
        time.sleep(1)  # how long TMDB keeps refusing; the daemon's wait is Retry-After's 2 s
        w.fake.set_fault("ok")

    asked = len(w.fake.requests("/3/search/movie"))
    w.fake.set_fault("ratelimit")
    switcher = threading.Thread(target=limit_for_a_second)
    switcher.start()
    try:
        summary = dave.summary(path)
    finally:
        switcher.join()
        w.fake.set_fault("ok")
    requests = w.fake.requests("/3/search/movie")[asked:]
    t0 = first_limited[0]
    during = [r for r in requests if t0 + 0.3 < r["at"] < t0 + 1.9]
    limited = sum(1 for r in requests if r["status"] == 429)
    if summary["failed"] or summary["added"] != 40 or during:
        raise CheckFailed(f"{counts(summary)}; {len(during)} requests inside Retry-After")
    return (f"{limited} answers were 429 (Retry-After: 2); no lookup went out in the 2 s after the first; "
            f"then all 40 rows were added, none failed ({len(requests)} searches in all)")


# MARK: export


def check_export_round_trip(w):
    alice = w.alice
    exports = {f: alice.peerctl("export", "--format", f, "--output", w.work / f"alice.{f}") for f in
               ("json", "csv", "letterboxd")}
    failed = {f: r.stderr for f, r in exports.items() if r.returncode != 0}
    if failed:
        raise CheckFailed(f"export failed: {failed}")
    mine = {m["movieId"]: alice.marks(m["movieId"], alice) for m in alice.movies()}
    results = []
    for fmt, name in (("json", "eve"), ("csv", "frank")):
        fresh = w.fresh(name)
        summary = fresh.summary(w.work / f"alice.{fmt}")
        theirs = {m["movieId"]: fresh.marks(m["movieId"], fresh) for m in fresh.movies()}
        expect(theirs, mine, f"{name}'s list and marks from alice's {fmt}")
        expect(summary["unresolved"] + summary["failed"], 0, f"{name}'s unresolved and failed rows")
        results.append(f"{fmt} → {name}: {len(theirs)} movies, the same marks")
    with open(w.work / "alice.letterboxd", encoding="utf-8") as f:
        header = next(csv.reader(f))
    expect(header, ["Title", "Year", "tmdbID", "imdbID", "WatchedDate", "Rating10"], "the letterboxd columns")
    return "; ".join(results) + f"; letterboxd: {','.join(header)}"


# MARK: bad input


def check_hostile_files(w):
    daemon = w.alice
    before = daemon.rss()
    cases = [
        (files.huge(w.work / "huge.csv"), "is 200.0 MiB"),
        (files.zip_bomb(w.work / "bomb.zip"), "watchlist.csv"),
        (files.zip_bomb(w.work / "lying-bomb.zip", lying=True), "watchlist.csv"),
        (files.broken_quoting(w.work / "watchlist-broken.csv"), "line 3"),
        (files.latin1(w.work / "watchlist-latin1.csv"), "line 3"),
        (files.made_up_watchlist(w.work / "watchlist-100k.csv", 100_000), "100,000"),
        (files.unknown(w.work / "scores.csv"), "Letterboxd"),
    ]
    said = []
    for path, words in cases:
        result = daemon.run_import(path, check=False, timeout=120)
        message = result.stderr.strip().splitlines()[-1] if result.stderr.strip() else ""
        if result.returncode != 65 or words not in message:
            raise CheckFailed(f"{path.name}: exit {result.returncode}, said {message!r} (wanted {words!r})")
        said.append(f"{path.name}: {message.removeprefix('peerctl: ')[:110]}")
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    grown = (daemon.rss() - before) / 1e6
    if grown > 20 or daemon.peerctl("status").returncode != 0:
        raise CheckFailed(f"alice's RSS grew {grown:.1f} MB, or she stopped answering")
    return "\n".join(said + [f"each exit 65, nothing written; alice's RSS {before / 1e6:.1f} → {daemon.rss() / 1e6:.1f} MB, "
                             f"and she answers; peerctl's largest RSS {peak_mb:.0f} MB"])


CHECKS = [
    ("a Letterboxd export ZIP, by a member without a token, resolved through a holder", check_letterboxd_zip),
    ("importing the same file again adds nothing and asks TMDB nothing", check_again_adds_nothing),
    ("the unresolved rows' file, fixed, imports", check_fixing_the_unresolved),
    ("IMDb, TMDB and Trakt files, and a dry run", check_other_formats),
    ("progress: a bar on a terminal, lines when piped, events with --json", check_progress),
    ("an import killed halfway (peerctl, then peerd) continues and makes each movie once", check_resume_after_kill),
    ("peerd killed inside a request: peerctl says it stopped; again, only the rows in flight are asked again",
     check_peerd_killed_inside_a_request),
    ("TMDB's 429: its Retry-After holds every lookup, and no row fails", check_rate_limit),
    ("export, then import into a fresh group: the same list and marks", check_export_round_trip),
    ("hostile files: a clear error each, nothing written, the daemon's memory as it was", check_hostile_files),
]



if __name__ == "__main__":
    sys.exit(suite.main("imports", __doc__.split("\n")[0], CHECKS, World))
