#!/usr/bin/env python3
"""Hostile-LAN tests against real daemons on loopback (proto/SECURITY.md).

Three peerd: A and B are members (same --group-secret-file), C is an outsider daemon with a secret
of its own that dials A and B. integration/abuse/attacker.py then attacks A's peer port: plain TCP, TLS
without admission, 1,000 idle connections, and an insider that knows the group secret and abuses
the JSON protocol once admitted. After every attack: the daemon (not the attacker) closed the
connection within BOUND seconds, A's RSS grew by less than 10 MB over its baseline from just
before the attack, A's open fds are back near that baseline, an add on B still reaches A, and
nothing an attacker sent is on any list.

    PEERD_BIN_DIR=/path/to/bins python3 integration/abuse/test_abuse.py [--keep] [--only NAME ...]

Prints one line per check and ends with `abuse: N passed, M failed`. Exit status 0 when all
passed, 1 otherwise.
"""
import argparse
import atexit
import json
import os
import pathlib
import subprocess
import sys
import threading
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))
import harness  # noqa: E402
from harness import CheckFailed, HarnessError, expect_eventually  # noqa: E402
from suite import Suite, exit_on_signals, selected  # noqa: E402

try:
    import cryptography  # noqa: F401
except ImportError:
    missing = Suite("abuse")
    missing.fail("the Python package 'cryptography' is missing (make test-deps installs it, or "
                 "python3 -m pip install cryptography)")
    sys.exit(missing.finish())
import attacker  # noqa: E402

BOUND = 6.0  # seconds the daemon has to close an attack connection (SECURITY.md: 5 s deadline)
RSS_LIMIT = 10 << 20
SYNC_WAIT = 15.0
_daemons = []


# MARK: daemons


class Daemon(harness.Peerd):
    """A daemon of the hostile LAN: debug log, a group secret, loopback peers to dial; its memory
    and open fds can be read."""

    def __init__(self, work, name, port, peers, secret_file):
        peer_args = [a for p in peers for a in ("--peer", f"127.0.0.1:{p}")]
        super().__init__(work, name, port, ["--log-level", "debug", "--group-secret-file", secret_file, *peer_args])
        _daemons.append(self)

    @property
    def pid(self):
        return self.proc.pid

    def rss(self):
        with open(f"/proc/{self.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
        return 0

    def fds(self):
        return len(os.listdir(f"/proc/{self.pid}/fd"))


def stop_all():
    for daemon in reversed(_daemons):
        try:
            daemon.stop()
        except Exception:  # cleanup must go on
            pass


atexit.register(stop_all)


# MARK: what the checks share


class World:
    def __init__(self, work):
        self.work = work
        self.secret = harness.write_group_secret(work / "group.secret")
        self.outsider_secret = harness.write_group_secret(work / "outsider.secret")
        pa, pb, pc = harness.free_port(), harness.free_port(), harness.free_port()
        self.a = Daemon(work, "alice", pa, [pb], self.secret)
        self.b = Daemon(work, "bob", pb, [pa], self.secret)
        self.c = Daemon(work, "carol", pc, [pa, pb], self.outsider_secret)
        self.legit_movies = set()  # added on A or B
        self.legit_ops = 0
        self.outsider_movies = set()
        self.next_movie = 700_000
        self.insiders = set()
        self.reports = []

    def add(self, daemon, title):
        self.next_movie += 1
        daemon.add(self.next_movie, title)
        if daemon is self.c:
            self.outsider_movies.add(self.next_movie)
        else:
            self.legit_movies.add(self.next_movie)
            self.legit_ops += 1
        return self.next_movie

    def member_died(self):
        """Why the run can't go on: alice or bob died (both logs' tails)."""
        if self.a.alive() and self.b.alive():
            return None
        return f"a member died\nalice log:\n{self.a.tail()}\nbob log:\n{self.b.tail()}"

    def sync_b_to_a(self):
        """An add on B shows up on A; returns the seconds it took."""
        started = time.monotonic()
        movie = self.add(self.b, "still syncing")
        expect_eventually(lambda: movie in self.a.movie_ids(), SYNC_WAIT, f"movie {movie} added on bob reaching alice")
        return time.monotonic() - started

    def nothing_foreign(self):
        """No attacker's or outsider's movie on A or B, and their operation counts are the legit ones."""
        problems = []
        for d in (self.a, self.b):
            rows = d.movies()
            ids = {m["movieId"] for m in rows}
            bad = ids - self.legit_movies
            if bad:
                problems.append(f"{d.name} lists {len(bad)} movies nobody legit added: {shorten(sorted(bad))}")
            foreign = [m for m in rows if set(m.get("addedByPeers", [])) - {self.a.id, self.b.id}]
            if foreign:
                problems.append(f"{d.name} has {len(foreign)} rows added by non-members: {shorten(foreign[:2])}")
            # The members' adds, and their records of admitting the insiders (the group secret
            # admits them: PEER.md, "Membership"); nothing made by anyone else.
            held = d.history_entries()
            foreign_ops = [e for e in held if e["peer"] not in (self.a.id, self.b.id)]
            if foreign_ops:
                problems.append(f"{d.name} holds {len(foreign_ops)} operations of non-members: {shorten(foreign_ops[:2])}")
            made = [e for e in held if e["op"] != "member"]
            if len(made) != self.legit_ops or d.status()["operations"] != len(held):
                problems.append(f"{d.name} holds {len(made)} operations besides admissions, the members made "
                                f"{self.legit_ops}")
        if problems:
            raise CheckFailed("; ".join(problems))


def shorten(value, limit=300):
    text = str(value)
    return text if len(text) <= limit else text[:limit] + "…"


def trust_field(row):
    """(key, value) of the field in a `peers --json` row that tells the trust state."""
    for key in ("trust", "trusted", "trustState", "membership", "member", "admission"):
        if key in row:
            return key, row[key]
    return None, None


def is_trusted(row):
    key, value = trust_field(row)
    if key is None:
        return None
    if isinstance(value, bool):
        return value
    return str(value).lower() in ("trusted", "member", "admitted", "yes", "true") or value in (
        "group-secret", "invite", "introduced", "pinned")


# MARK: checks


def check_members_sync(w):
    """A and B (same group secret) connect and replicate both ways."""
    def connected(x, y):
        return any(p.get("peer") == y.id and p.get("state") == "connected" for p in x.peers())

    expect_eventually(lambda: connected(w.a, w.b) and connected(w.b, w.a), 20, "alice and bob connected to each other")
    m1 = w.add(w.a, "The Matrix")
    m2 = w.add(w.b, "Fight Club")
    expect_eventually(lambda: m1 in w.b.movie_ids() and m2 in w.a.movie_ids(), SYNC_WAIT,
                      "adds on each reaching the other")
    row = next(p for p in w.a.peers() if p.get("peer") == w.b.id)
    return f"alice sees bob: {json.dumps(row, sort_keys=True)}"


def check_fingerprint(w):
    """The certificate A presents in TLS has the fingerprint `peerctl status` calls A's peer id."""
    identity = attacker.Identity()
    sock, _ = attacker.tls_connect("127.0.0.1", w.a.port, identity)
    try:
        cert = sock.getpeercert(binary_form=True)
        version = sock.version()
    finally:
        sock.close()
    fp = attacker.fingerprint(cert).hex()
    if fp != w.a.id:
        raise CheckFailed(f"TLS certificate fingerprint {fp} != status peer {w.a.id}")
    if version != "TLSv1.3":
        raise CheckFailed(f"negotiated {version}, not TLSv1.3")
    return f"{version}, fingerprint = peer id = {fp}"


def check_readable_secret_refused(w):
    """peerd refuses to start with a group secret file that others can read."""
    loose = harness.write_group_secret(w.work / "loose.secret")
    os.chmod(loose, 0o644)
    d = Daemon(w.work, "loose", harness.free_port(), [], loose)
    d.start(wait=False)
    try:
        d.proc.wait(15)
    except subprocess.TimeoutExpired:
        d.stop()
        raise CheckFailed("peerd kept running with a group secret file of mode 0644") from None
    if d.proc.returncode == 0:
        raise CheckFailed("peerd exited 0 with a group secret file of mode 0644")
    said = d.tail(3).strip().splitlines()
    return f"exit {d.proc.returncode}: {said[-1] if said else '(nothing logged)'}"


def refused_since(member, outsider, since_ms):
    """Whether `member` refused a dial of `outsider` at `since_ms` (ms since 1970) or later: its
    peers row for a refused peer has the last refusal's time in `lastSeen`."""
    return any(p.get("peer") == outsider.id and "refused" in str(p.get("lastError"))
               and (p.get("lastSeen") or 0) >= since_ms for p in member.peers())


def wait_refused_since(w, since_ms, what):
    expect_eventually(lambda: all(refused_since(m, w.c, since_ms) for m in (w.a, w.b)), 20,
                      f"alice and bob refusing a dial carol made {what}")


def check_outsider(w):
    """Outsider daemon C (another secret) dials A and B: after it was refused, retried and added
    movies of its own, nothing crossed either way, and A's peers show C as not trusted."""
    c = w.c
    c.start()
    since = int(time.time() * 1000)
    for title in ("Outsider One", "Outsider Two"):
        w.add(c, title)
    wait_refused_since(w, since, "after her first adds")
    since = int(time.time() * 1000)
    w.add(c, "Outsider Three")
    # Her operations could cross only on an admitted session, and each member has now refused a dial
    # she made with all of them, the last included: no later moment would show more.
    wait_refused_since(w, since, "after her last add (a retry)")

    def c_refused():
        return all(any(p.get("peer") == m.id and p.get("lastError") for p in c.peers()) for m in (w.a, w.b))

    expect_eventually(c_refused, 20, "carol's peers showing that alice and bob refused her")
    w.nothing_foreign()
    c_ids = c.movie_ids()
    if c_ids & w.legit_movies:
        raise CheckFailed(f"carol got members' movies: {sorted(c_ids & w.legit_movies)}")
    c_ops = c.status()["operations"]
    if c_ops != len(w.outsider_movies):
        raise CheckFailed(f"carol holds {c_ops} operations, made {len(w.outsider_movies)}")
    rows = {}
    for d, other in ((w.a, c), (w.b, c), (c, w.a), (c, w.b)):
        row = next((p for p in d.peers() if p.get("peer") == other.id), None)
        rows[f"{d.name}->{other.name}"] = row
        if row is None:
            continue
        if row.get("state") == "connected" and is_trusted(row) is not False:
            raise CheckFailed(f"{d.name} shows {other.name} connected and not untrusted: {row}")
        if is_trusted(row):
            raise CheckFailed(f"{d.name} shows {other.name} as trusted: {row}")
    for key in ("carol->alice", "carol->bob"):  # the dialer's view: refused by the member it dialed
        row = rows[key]
        if row is None or is_trusted(row) is not False or "not a member" not in str(row.get("lastError")):
            raise CheckFailed(f"{key}: expected a row with trust untrusted and lastError 'not a member': {row}")
    return "; ".join(f"{k}: {json.dumps(v, sort_keys=True)}" for k, v in rows.items())


def check_p384_refused(w):
    """A P-384 key, which TLS takes but a peer identity is not (SECURITY.md), holding the group
    secret: refused at admission with `unsupported-key`, before any hello or catch-up."""
    identity = attacker.Identity("p384", curve=attacker.ec.SECP384R1())
    try:
        session = attacker.admit("127.0.0.1", w.a.port, identity, str(w.secret))
    except attacker.Refused as refused:
        if refused.reason != "unsupported-key":
            raise CheckFailed(f"refused, but as {refused.reason!r} rather than unsupported-key") from None
        return "refused at admission: unsupported-key"
    session.sock.close()
    raise CheckFailed(f"a P-384 key was admitted and got alice's hello: {shorten(session.peer_hello, 300)}")


def check_outsider_shown(w):
    """`peerctl peers` on alice and bob (the refusing side, dialed by carol) show carol, with
    the field that tells trust saying she is not trusted."""
    shown = {}
    for d in (w.a, w.b):
        try:
            shown[d.name] = expect_eventually(
                lambda: next((p for p in d.peers() if p.get("peer") == w.c.id), None), 10,
                f"{d.name}'s peers listing carol ({w.c.id[:8]}), who dials it and is refused")
        except CheckFailed as failure:
            raise CheckFailed(f"{failure}; {d.name}'s peers: {shorten(d.peers(), 600)}") from None
        if is_trusted(shown[d.name]) is not False:
            raise CheckFailed(f"{d.name} shows carol without an untrusted trust state: {shown[d.name]}")
    return "; ".join(f"{k}: {json.dumps(v, sort_keys=True)}" for k, v in shown.items())


ATTACK_NAMES = [
    "plain-4gib-header", "plain-garbage-16mib", "plain-json-flood", "idle-1000",
    "tls-idle", "tls-4gib-header", "tls-garbage-16mib", "tls-nested-100k", "tls-invalid-utf8", "tls-json-flood",
    "tls-json-36-bytes", "tls-offer-then-hello", "tls-proof-none", "tls-no-client-cert", "tls-1.2-only",
    "ins-control", "ins-4gib-header", "ins-garbage-16mib", "ins-garbage-1mib", "ins-nested-100k",
    "ins-invalid-utf8", "ins-ping-flood", "ins-forged-own-op",
    # Last: a forgery that is merged corrupts alice for good (bob refuses it when relayed back).
    "ins-forged-op",
]


class Sampler:
    """Peak VmRSS of a process, sampled every 20 ms while in use."""

    def __init__(self, daemon):
        self.daemon, self.peak, self._stop = daemon, 0, threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        while not self._stop.is_set():
            try:
                self.peak = max(self.peak, self.daemon.rss())
            except OSError:
                return
            self._stop.wait(0.02)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()


def attack_check(name):
    def check(w):
        a = w.a
        args = argparse.Namespace(host="127.0.0.1", port=a.port, secret=str(w.secret),
                                  forge_origin=a.id if name == "ins-forged-own-op" else w.b.id, bound=BOUND, count=1000)
        fds_before, rss_before = a.fds(), a.rss()
        with Sampler(a) as sampler:
            try:
                outcome = attacker.ATTACKS[name](args)
            except attacker.Refused as refused:
                raise CheckFailed(f"the insider was not admitted: {refused}") from None
        if outcome.get("insider"):
            w.insiders.add(outcome["insider"])
        if not a.alive():
            raise CheckFailed(f"alice died (exit {a.proc.returncode}):\n{a.tail()}")
        problems = []
        if name == "ins-control":
            if outcome["closed_by_daemon"] or not outcome.get("pong"):
                problems.append(f"an admitted insider's ping got no pong or was closed: {outcome}")
        elif not outcome["closed_by_daemon"]:
            problems.append(f"the daemon did not close the connection ({outcome['how']})")
        elif outcome["close_seconds"] > BOUND:
            problems.append(f"closed after {outcome['close_seconds']:.2f} s > {BOUND} s")
        try:
            sync = w.sync_b_to_a()
        except CheckFailed as failure:
            problems.append(str(failure))
            sync = float("nan")
        try:
            fds_after = expect_eventually(lambda: (lambda n: n if n <= fds_before + 4 else None)(a.fds()), 10,
                                          f"alice's open fds back to {fds_before} (+4)")
        except CheckFailed as failure:
            problems.append(f"{failure}: {a.fds()} open")
            fds_after = a.fds()
        rss_after = a.rss()
        growth, peak = rss_after - rss_before, sampler.peak - rss_before
        if growth >= RSS_LIMIT:
            problems.append(f"alice's RSS grew {growth / 2**20:.1f} MB (limit 10 MB)")
        try:
            w.nothing_foreign()
        except CheckFailed as failure:
            problems.append(str(failure))
        if attacker.FORGED_MOVIE in w.a.movie_ids() | w.b.movie_ids() | w.c.movie_ids():
            problems.append("the forged operation's movie is on a list")
        detail = {k: v for k, v in outcome.items() if k not in ("attack", "insider")}
        w.reports.append({"attack": name, "close_s": outcome.get("close_seconds"), "rss_growth_mb":
                          round(growth / 2**20, 2), "rss_peak_growth_mb": round(peak / 2**20, 2),
                          "fds": f"{fds_before}->{fds_after}", "sync_s": round(sync, 2), "how": outcome.get("how")})
        summary = (f"closed in {outcome.get('close_seconds')} s ({outcome.get('how')}); RSS +{growth / 2**20:.1f} MB "
                   f"(peak +{peak / 2**20:.1f}); fds {fds_before}->{fds_after}; bob->alice sync {sync:.2f} s; "
                   f"{json.dumps(detail, sort_keys=True)}")
        if problems:
            raise CheckFailed("; ".join(problems) + f"\n{summary}")
        return summary

    check.__doc__ = f"attack {name}: closed by the daemon within {BOUND:g} s, RSS +<10 MB, fds recover, sync goes on"
    return check


def check_final(w):
    """After all attacks: nothing of the outsider or of any attacker on A, B; C has nothing of
    theirs; A and B show the same list; no insider or C shows as a connected peer now."""
    w.nothing_foreign()
    ka = [m["movieId"] for m in w.a.movies()]
    kb = [m["movieId"] for m in w.b.movies()]
    if ka != kb:
        raise CheckFailed(f"alice and bob differ: {ka} vs {kb}")
    if w.c.movie_ids() & w.legit_movies:
        raise CheckFailed("carol holds members' movies")
    for d in (w.a, w.b):
        for p in d.peers():
            if p.get("peer") in w.insiders | {w.c.id} and p.get("state") == "connected" and is_trusted(p) is not False:
                raise CheckFailed(f"{d.name} still shows {p.get('peer')} connected: {p}")
    return f"alice = bob = {len(ka)} movies, {w.legit_ops} operations; {len(w.insiders)} insiders admitted over the run"


CHECKS = [
    ("members alice and bob connect over TLS and sync both ways", check_members_sync),
    ("alice's TLS certificate fingerprint is its peer id", check_fingerprint),
    ("a group secret file readable by others is refused at start", check_readable_secret_refused),
    ("outsider daemon carol (another group secret) exchanges nothing with alice and bob", check_outsider),
    ("alice and bob's peers show the refused outsider carol as untrusted", check_outsider_shown),
    ("a member holding a P-384 key is refused at admission (unsupported-key)", check_p384_refused),
    *[(f"attack {n}", attack_check(n)) for n in ATTACK_NAMES],
    ("after all attacks: only the members' operations anywhere, alice = bob", check_final),
]


def start_members(w):
    """alice and bob up and answering (carol starts in check_outsider, or here when it is left out)."""
    w.a.start(wait=False)
    w.b.start()
    w.a.wait_answering()
    print(f"abuse: alice {w.a.id[:8]} :{w.a.port}, bob {w.b.id[:8]} :{w.b.port}; work dir {w.work}", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--keep", action="store_true", help="keep the work directory (logs) even when all pass")
    parser.add_argument("--only", nargs="*", help="run only checks whose title contains one of these")
    parser.add_argument("--report", help="write per-attack measurements as JSON here")
    args = parser.parse_args()
    exit_on_signals()
    suite = Suite("abuse")
    if not suite.need_peerd():
        return suite.finish()
    checks = selected(CHECKS, args.only)
    with suite.work_dir(args.keep) as work:
        w = World(work)
        try:
            start_members(w)
            if not any(check is check_outsider for _, check in checks):
                w.c.start()
            suite.run(checks, w, stop=w.member_died)
        except (HarnessError, CheckFailed) as error:
            suite.fail("starting the daemons", error)
        finally:
            stop_all()
            if args.report:
                pathlib.Path(args.report).write_text(json.dumps(w.reports, indent=1))
    return suite.finish()


if __name__ == "__main__":
    sys.exit(main())
