#!/usr/bin/env python3
"""The LAN lab test (`make test`): peerd discovers, converges and survives Avahi restarts on a real
virtual LAN of hosts in network namespaces, checked against avahi-browse and python-zeroconf.

Prints one line per check and ends with exactly `lab: N passed, M failed` (../suite.py runs the
checks). Exit status: 0 all passed, 1 something failed, 77 the machine can't host the lab.

    sudo python3 integration/lab/test_lab.py [--self-check-only] [--keep-logs] [--cleanup-stale]

Binaries come from $PEERD_BIN_DIR (default .build/debug). Every wait is bounded by $PEERD_LAB_WAIT
seconds (default 20).
"""
import argparse
import json
import os
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lab as labkit  # noqa: E402
from harness import CheckFailed, HarnessError, expect_eventually, stop_process  # noqa: E402
from lab import PROTOCOL, SERVICE_TYPE  # noqa: E402
from suite import Suite  # noqa: E402

WAIT = float(os.environ.get("PEERD_LAB_WAIT", "20"))
NAMES = {"h1": "alice", "h2": "bob", "h3": "carol", "h4": "dave", "h5": "mallory"}
ATTACKER = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "abuse", "attacker.py")
NOT_YET = "mDNS discovery is not available in this build"


class Context:
    """State the checks share: the lab, each host's peer id, the movies added so far."""

    def __init__(self, lab):
        self.lab = lab
        self.h1, self.h2, self.h3, self.h4 = lab.hosts[:4]
        self.h5 = lab.hosts[4]  # the spoofer: avahi, no peerd
        self.observer = None
        self.ids = {}
        self.added = []
        self.details = []

    @property
    def trio(self):
        return [self.h1, self.h2, self.h3]

    def note(self, line):
        self.details.append(line)


def wait_for(probe, what, timeout=WAIT, interval=0.25):
    """`expect_eventually` with the lab's bounds."""
    return expect_eventually(probe, timeout, what, interval)


# MARK: helpers that describe what a host sees


def mdns_connected(host):
    """Peer ids this host shows as found over mDNS and connected."""
    return {p.get("peer") for p in host.peers() if p.get("source") == "mdns" and p.get("state") == "connected"}


def describe_peers(host):
    try:
        rows = host.peers()
    except HarnessError as error:
        return f"{host.name}: {error}"
    shown = ", ".join(
        f"{(p.get('peer') or '?')[:8]}/{p.get('name')} {p.get('source')} {p.get('state')} {p.get('address')}"
        for p in rows
    )
    return f"{host.name} ({NAMES[host.name]}) peers: [{shown}]"


def peerd_says_not_yet(host):
    log = host.dir / "peerd.log"
    return log.exists() and NOT_YET in log.read_text(errors="replace")


def list_key(host):
    """The list as order-sensitive (movieId, adders) pairs."""
    return [(m["movieId"], tuple(m.get("addedBy", []))) for m in host.movies()]


def ensure_peerd(ctx, host):
    if not host.peerd_running():
        host.start_peerd(NAMES[host.name])
    if host.name not in ctx.ids:
        ctx.ids[host.name] = host.status()["peer"]


def explain_discovery(ctx, hosts):
    lines = [describe_peers(h) for h in hosts]
    if any(peerd_says_not_yet(h) for h in hosts):
        lines.append(f"peerd logs: \"{NOT_YET} yet\" (discovery has not landed)")
    return "\n".join(lines)


def wait_converged(ctx, hosts, expected_ids, what):
    def same():
        keys = [list_key(h) for h in hosts]
        ids = {m for m, _ in keys[0]}
        return all(k == keys[0] for k in keys) and expected_ids <= ids

    try:
        wait_for(same, what)
    except CheckFailed as failure:
        seen = []
        for h in hosts:
            try:
                seen.append(f"{h.name}: {[m for m, _ in list_key(h)]}")
            except HarnessError as error:
                seen.append(f"{h.name}: {error}")
        raise CheckFailed(f"{failure}\nexpected all of {sorted(expected_ids)}; lists:\n" + "\n".join(seen)) from None


def add(ctx, host, movie, title):
    host.add(movie, title)
    ctx.added.append(movie)


# MARK: checks


def check_self(ctx):
    """avahi-publish on h1 is seen with its TXT by avahi-browse on h2 and by python-zeroconf on obs
    (no avahi there), and its withdrawal is seen too."""
    h1, h2 = ctx.h1, ctx.h2
    name, txt = "lab self-check", {"id": "selfcheck-h1", "proto": "0"}
    publisher = h1.spawn(
        ["avahi-publish", "-s", name, SERVICE_TYPE, "7001", *(f"{k}={v}" for k, v in txt.items())],
        "avahi-publish.log",
    )

    def browsed():
        return [
            s for s in h2.avahi_browse()
            if s["name"] == name and s["protocol"] == "IPv4" and s["address"] == h1.ip and s["port"] == 7001
            and s["txt"] == txt
        ]

    row = wait_for(browsed, f"avahi-browse on h2 seeing '{name}' from h1 with TXT {txt}")[0]
    where = f"{row['hostname']} {row['address']}:{row['port']}"
    ctx.note(f"avahi-browse on h2: '{row['name']}' at {where} TXT {row['txt']}")
    full = f"{name}.{SERVICE_TYPE}.local."

    def observed():
        s = ctx.observer.services().get(full)
        return s if s and s["port"] == 7001 and h1.ip in s["addresses"] and s["txt"] == txt else None

    s = wait_for(observed, f"python-zeroconf on obs seeing '{name}' with TXT {txt}")
    ctx.note(f"python-zeroconf on obs: '{full}' at {s['server']} {s['addresses']}:{s['port']} TXT {s['txt']}")
    stop_process(publisher, signal.SIGTERM)
    wait_for(lambda: not any(s["name"] == name for s in h2.avahi_browse()), "avahi-browse on h2 seeing it withdrawn")
    wait_for(lambda: full not in ctx.observer.services(), "python-zeroconf seeing it withdrawn")
    ctx.note("withdrawal (goodbye) seen by both")


def check_discovery(ctx):
    """Three peerd with no --peer and no --no-mdns each show the other two as mdns, connected."""
    for host in ctx.trio:
        ensure_peerd(ctx, host)
    ctx.note("ids: " + ", ".join(f"{h.name}={ctx.ids[h.name][:8]}" for h in ctx.trio))

    def all_found():
        return all(
            {ctx.ids[o.name] for o in ctx.trio if o is not h} <= mdns_connected(h) for h in ctx.trio
        )

    try:
        wait_for(all_found, "every host showing the other two with source mdns, state connected")
    except CheckFailed as failure:
        raise CheckFailed(f"{failure}\n{explain_discovery(ctx, ctx.trio)}") from None
    for h in ctx.trio:
        ctx.note(describe_peers(h))


def check_converge(ctx):
    """Adds on each of three hosts end in the same list, in the same order, on all three."""
    for host in ctx.trio:
        ensure_peerd(ctx, host)
    add(ctx, ctx.h1, 603, "The Matrix")
    add(ctx, ctx.h2, 550, "Fight Club")
    add(ctx, ctx.h3, 13, "Forrest Gump")
    wait_converged(ctx, ctx.trio, {603, 550, 13}, "h1, h2 and h3 showing the same list")
    ctx.note(f"all three show {[m for m, _ in list_key(ctx.h1)]}")


def check_observer(ctx):
    """python-zeroconf (no Avahi involved) sees every peerd with TXT proto=PROTOCOL and id = its peer id."""
    for host in ctx.trio:
        ensure_peerd(ctx, host)
    ports = {h.name: h.status()["port"] for h in ctx.trio}

    def matching(services, host):
        return [
            s for s in services.values()
            if s["txt"].get("id") == ctx.ids[host.name] and s["txt"].get("proto") == PROTOCOL
            and s["port"] == ports[host.name] and host.ip in s["addresses"]
        ]

    def all_seen():
        services = ctx.observer.services()
        return all(matching(services, h) for h in ctx.trio) and services

    try:
        services = wait_for(all_seen, "python-zeroconf seeing a _watchlist._tcp service for each peerd")
    except CheckFailed as failure:
        seen = ctx.observer.services()
        raise CheckFailed(
            f"{failure}\nexpected TXT proto={PROTOCOL} and id in {sorted(ctx.ids[h.name] for h in ctx.trio)}, ports {ports}\n"
            f"python-zeroconf sees: {seen or 'no _watchlist._tcp service at all'}"
        ) from None
    for h in ctx.trio:
        s = matching(services, h)[0]
        ctx.note(f"{h.name}: '{s['name']}' {s['addresses']}:{s['port']} TXT {s['txt']}")


def check_avahi_browse(ctx):
    """avahi-browse on every peerd host sees all three services with the right TXT and address."""
    for host in ctx.trio:
        ensure_peerd(ctx, host)
    ports = {h.name: h.status()["port"] for h in ctx.trio}

    def seen_by(browser):
        rows = browser.avahi_browse()
        return all(
            any(
                r["txt"].get("id") == ctx.ids[h.name] and r["txt"].get("proto") == PROTOCOL
                and r["protocol"] == "IPv4" and r["address"] == h.ip and r["port"] == ports[h.name]
                for r in rows
            )
            for h in ctx.trio
        )

    for browser in ctx.trio:
        try:
            wait_for(lambda: seen_by(browser), f"avahi-browse on {browser.name} seeing all three peerd")
        except CheckFailed as failure:
            rows = browser.avahi_browse()
            shown = [f"{r['name']} {r['address']}:{r['port']} {r['txt']}" for r in rows] or "nothing"
            raise CheckFailed(f"{failure}\navahi-browse -rpt {SERVICE_TYPE} on {browser.name}: {shown}") from None
    ctx.note("h1, h2 and h3 each list all three peerd services")


def check_avahi_restart(ctx):
    """avahi-daemon on h2 is killed (SIGKILL) and started again: peerd on h2 keeps running and
    publishes again, a peer that restarts on a new port is found again, and an add still converges."""
    h1, h2, h3 = ctx.trio
    for host in ctx.trio:
        ensure_peerd(ctx, host)
    h2.kill_avahi(signal.SIGKILL)
    # peerd has handled Avahi's going away once it says so (doctor's `avahi` check fails): an exit
    # on that path would have come by then.
    try:
        wait_for(lambda: not h2.peerd_running() or avahi_reported_gone(h2), "peerd on h2 reporting avahi-daemon gone")
    except CheckFailed:
        if h2.peerd_running():
            raise
    if not h2.peerd_running():
        raise CheckFailed(f"peerd on h2 exited ({h2.peerd.returncode}) when avahi-daemon was killed")
    h2.status()
    ctx.note("avahi-daemon on h2 killed; peerd on h2 still answers")
    h2.start_avahi()

    def republished():
        rows = h2.avahi_browse()
        ids = {r["txt"].get("id") for r in rows}
        return {ctx.ids[h.name] for h in ctx.trio} <= ids

    try:
        wait_for(republished, "avahi-browse on h2 (fresh avahi-daemon) listing h2's own peerd and the others")
    except CheckFailed as failure:
        rows = [f"{r['name']} {r['address']} {r['txt']}" for r in h2.avahi_browse()]
        raise CheckFailed(f"{failure}\navahi-browse on h2: {rows or 'nothing'}") from None
    ctx.note("avahi-daemon on h2 restarted; h2's peerd published its service again")

    # Sessions outlive an Avahi restart, so make h2 and h3 find each other anew: h3 comes back on
    # another port, where only mDNS can tell anyone it is.
    h3.stop_peerd()
    restarted_ms = int(time.time() * 1000)
    h3.start_peerd(NAMES["h3"], port=labkit.PEERD_PORT + 1)

    def found_again():
        ok = all({ctx.ids[o.name] for o in ctx.trio if o is not h} <= mdns_connected(h) for h in ctx.trio)
        fresh = any(
            p.get("peer") == ctx.ids["h3"] and p.get("state") == "connected"
            and (p.get("connectedSince") or 0) >= restarted_ms
            for p in h2.peers()
        )
        return ok and fresh

    try:
        wait_for(found_again, "h1, h2, h3 showing each other as mdns, connected, after h3 moved to a new port")
    except CheckFailed as failure:
        raise CheckFailed(f"{failure}\n{explain_discovery(ctx, ctx.trio)}") from None
    ctx.note("h3 on a new port was found again by h1 and h2")
    add(ctx, h2, 680, "Pulp Fiction")
    wait_converged(ctx, ctx.trio, set(ctx.added), "a new add on h2 reaching h1 and h3")
    ctx.note(f"add on h2 converged: {[m for m, _ in list_key(h1)]}")


def avahi_reported_gone(host):
    """Whether `peerctl doctor` on `host` fails its `avahi` check (peerd lost avahi-daemon)."""
    result = host.peerctl("doctor", "--json", timeout=60)
    checks = json.loads(result.stdout).get("checks", []) if result.stdout.strip().startswith("{") else []
    return any(c.get("id") == "avahi" and c.get("status") == "fail" for c in checks)


def check_late_joiner(ctx):
    """A peerd started on h4 after all the adds finds the others by itself and catches up."""
    h4 = ctx.h4
    ensure_peerd(ctx, h4)
    expected = set(ctx.added) or {0}

    def caught_up():
        return mdns_connected(h4) and list_key(h4) == list_key(ctx.h1) and expected <= {m for m, _ in list_key(h4)}

    try:
        wait_for(caught_up, "h4 connected to a peer over mDNS and showing the same list as h1")
    except CheckFailed as failure:
        lists = f"h1: {[m for m, _ in list_key(ctx.h1)]}, h4: {[m for m, _ in list_key(h4)]}"
        raise CheckFailed(f"{failure}\n{lists}\n{explain_discovery(ctx, [h4])}") from None
    ctx.note(f"h4 shows {[m for m, _ in list_key(h4)]}; {describe_peers(h4)}")


def check_name_collision(ctx):
    """h4's peerd restarts under h1's name: Avahi gives it another service name, its peer id stays."""
    h1, h4 = ctx.h1, ctx.h4
    ensure_peerd(ctx, h1)
    ensure_peerd(ctx, h4)
    h4.stop_peerd()
    h4.start_peerd(NAMES["h1"])  # same state directory, so the same peer id
    taken = NAMES["h1"]

    def renamed():
        rows = h1.avahi_browse()
        return next(
            (r for r in rows if r["txt"].get("id") == ctx.ids["h4"] and r["name"] != taken
             and r["name"].startswith(taken)),
            None,
        )

    try:
        # Each avahi-browse poll takes a second or two; allow for probing, the conflict and a re-probe.
        wait_for(lambda: renamed() is not None, f"h4 announced under another name than '{taken}'", timeout=2 * WAIT)
        wait_for(lambda: h4.status()["peer"] == ctx.ids["h4"] and mdns_connected(h4),
                 "h4 keeping its peer id and connecting over mDNS again", timeout=2 * WAIT)
    except CheckFailed as failure:
        shown = [f"{r['name']} {r['txt']}" for r in h1.avahi_browse()] or "nothing"
        raise CheckFailed(f"{failure}\navahi-browse on h1: {shown}") from None
    ctx.note(f"h4 announced as '{renamed()['name']}' with the same id {ctx.ids['h4'][:8]}; {describe_peers(h4)}")


def check_ipv6_link_local(ctx):
    """h4 loses its IPv4 address: peers reach it only at its link-local IPv6 address, with its scope."""
    h1, h4 = ctx.h1, ctx.h4
    ensure_peerd(ctx, h4)
    h4.stop_peerd()
    h4.run(["ip", "-4", "addr", "flush", "dev", "eth0"], check=True)
    h4.start_peerd(NAMES["h4"])
    add(ctx, h4, 238, "The Godfather")

    def h1_reaches_h4_over_ipv6():
        row = next((p for p in h1.peers() if p.get("peer") == ctx.ids["h4"]), None)
        return (
            row is not None and row.get("state") == "connected"
            and row.get("addresses") and all(a.startswith("[fe80:") and "%" in a for a in row["addresses"])
            and 238 in {m for m, _ in list_key(h1)}
        )

    try:
        wait_for(h1_reaches_h4_over_ipv6, "h1 connected to h4 over link-local IPv6 and showing h4's add",
                 timeout=2 * WAIT)
    except CheckFailed as failure:
        raise CheckFailed(f"{failure}\n{describe_peers(h1)}\n{describe_peers(h4)}") from None
    row = next(p for p in h1.peers() if p.get("peer") == ctx.ids["h4"])
    ctx.note(f"h1 sees h4 at {row.get('addresses')}; h4's add reached h1")


def check_spoofed_announcement(ctx):
    """A spoofer (h5) announces _watchlist._tcp with TXT claiming alice's id and name, and dave's
    (whose peerd is stopped), at a TLS listener with a key of its own: the members dial it and
    refuse it, never show it as a connected peer, merge nothing from it, and keep syncing."""
    h1, h2, h3, h4, h5 = ctx.h1, ctx.h2, ctx.h3, ctx.h4, ctx.h5
    for host in ctx.trio:
        ensure_peerd(ctx, host)
    ensure_peerd(ctx, h4)
    h4.stop_peerd()  # dave is now an offline member: his id on another address is what an impostor claims
    claimed = {"alice": ctx.ids["h1"], "dave": ctx.ids["h4"]}
    log = h5.dir / "spoofer.jsonl"
    h5.spawn([sys.executable, "-u", ATTACKER, "serve", "--listen", f"[::]:{labkit.PEERD_PORT}", "--log", log],
             "spoofer.log")
    for name, peer_id in claimed.items():
        h5.spawn(["avahi-publish", "-s", name, SERVICE_TYPE, str(labkit.PEERD_PORT), f"proto={PROTOCOL}", f"id={peer_id}",
                  f"name={name}"], f"avahi-publish-{name}.log")

    def entries():
        try:
            lines = log.read_text().splitlines()
        except OSError:
            return []
        return [e for e in map(json.loads, lines) if e.get("event") == "connection"]

    def announced():
        rows = h2.avahi_browse()
        return all(any(r["txt"].get("id") == i and r["address"] == h5.ip for r in rows) for i in claimed.values())

    wait_for(announced, "avahi-browse on h2 listing the spoofed services at h5's address")
    # The spoofer logs a connection when it ends. A member that admitted it would have gone on with
    # the peer protocol on that connection (logged as json-received, the spoofer's op sent before);
    # one that didn't, refused or hung up. So once every member's dial has ended, each one's verdict
    # is in the log.
    addresses = {h.name: {h.ip, h.link_local()} for h in ctx.trio}  # a member dials from either
    try:
        wait_for(lambda: all(addresses[h.name] & {e["from"] for e in entries()} for h in ctx.trio),
                 "every member dialing the spoofer's address (the announcement is a hint it follows)",
                 timeout=2 * WAIT)
    except CheckFailed as failure:
        raise CheckFailed(f"{failure}\nspoofer log: {entries() or 'no connection at all'}\n"
                          f"{explain_discovery(ctx, ctx.trio)}") from None

    problems = []
    for e in entries():
        if e.get("stage") == "json-received":
            problems.append(f"{e['from']} admitted the spoofer and went on with the peer protocol: {e}")
        if "WRONG_VERSION_NUMBER" in str(e.get("error")):
            problems.append(f"{e['from']} dialed the spoofer without TLS: {e}")
    for h in ctx.trio:
        for p in h.peers():
            at_spoofer = str(p.get("address", "")).startswith(h5.ip) or h5.ip in str(p.get("address", ""))
            if p.get("state") == "connected" and (at_spoofer or p.get("peer") == claimed["dave"]):
                problems.append(f"{h.name} shows a connected peer at the spoofer or as offline dave: {p}")
    spoofed = attacker_movie()
    for h in ctx.trio:
        if spoofed in {m for m, _ in list_key(h)}:
            problems.append(f"{h.name} lists the spoofer's movie {spoofed}")
    if problems:
        raise CheckFailed("\n".join(problems) + f"\nspoofer log: {entries()}")
    stages = {}
    for e in entries():
        key = f"{e['from']}: {e.get('stage')}" + (f" ({e.get('refused') or e.get('error')})"
                                                  if e.get("refused") or e.get("error") else "")
        stages[key] = stages.get(key, 0) + 1
    ctx.note("spoofer saw: " + "; ".join(f"{k} x{n}" for k, n in sorted(stages.items())))
    for h in ctx.trio:
        ctx.note(describe_peers(h))
    add(ctx, h2, 389, "12 Angry Men")
    wait_converged(ctx, ctx.trio, set(ctx.added), "an add on h2 reaching h1 and h3 with the spoofer around")
    ctx.note(f"members still converge: {[m for m, _ in list_key(h1)]}")


def attacker_movie():
    """The movie the spoofer's listener sends if a dialer ever admits it (attacker.py serve)."""
    sys.path.insert(0, os.path.dirname(ATTACKER))
    import attacker

    return attacker.FORGED_MOVIE + 7


CHECKS = [
    ("harness self-check: avahi-publish on h1 seen by avahi-browse on h2 and python-zeroconf on obs", check_self,
     ["h1", "h2", "obs"]),
    ("discovery with zero configuration: h1, h2, h3 find each other over mDNS", check_discovery, ["h1", "h2", "h3"]),
    ("three hosts converge on the same list after adds on each", check_converge, ["h1", "h2", "h3"]),
    ("python-zeroconf observer sees every peerd with TXT proto=3 and its peer id", check_observer,
     ["h1", "h2", "h3", "obs"]),
    ("avahi-browse sees every peerd", check_avahi_browse, ["h1", "h2", "h3"]),
    ("after avahi-daemon is killed and restarted on h2, the peers find each other again", check_avahi_restart,
     ["h1", "h2", "h3"]),
    ("a host that joins late (h4) catches up", check_late_joiner, ["h1", "h4"]),
    ("a name taken on the LAN gets an alternative service name and keeps its peer id", check_name_collision,
     ["h1", "h4"]),
    ("a host with only link-local IPv6 is reached at its scoped address", check_ipv6_link_local, ["h1", "h4"]),
    ("a spoofed mDNS announcement of members' ids (h5, its own TLS key) leads to no trust", check_spoofed_announcement,
     ["h1", "h2", "h3", "h5"]),
]


# The logs worth reading when a check fails, and how many lines of each.
LOG_TAILS = {"peerd.log": 10, "avahi.log": 4, "zeroconf.log": 4, "spoofer.log": 6, "spoofer.jsonl": 6}





def run_checks(lab, checks, suite):
    ctx = Context(lab)
    try:
        ctx.observer = lab.start_observer()
    except HarnessError as error:
        suite.fail("starting the python-zeroconf observer", error)
        return
    harness_ok = True
    for title, check, involved in checks:
        if not harness_ok:
            suite.skip_check(title, "the harness self-check failed")
            continue
        ctx.details = []
        if not suite.check(title, check, ctx, notes=ctx.details):
            lab.print_logs(involved, LOG_TAILS)
            harness_ok = check is not check_self


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--self-check-only", action="store_true", help="only prove the harness itself")
    parser.add_argument("--keep-logs", action="store_true", help="keep the run's logs even when all pass")
    parser.add_argument("--cleanup-stale", action="store_true", help="remove leftovers of dead lab runs, then exit")
    args = parser.parse_args()
    if args.cleanup_stale:
        labkit.skip_unless_possible()
        labkit.cleanup_stale()
        return 0
    suite = Suite("lab")
    reason = labkit.preflight()
    if reason:
        return suite.skip(reason)
    checks = CHECKS[:1] if args.self_check_only else CHECKS

    def banner(lab):
        return (f"lab {lab.prefix}: h1-h5 with their own D-Bus and avahi-daemon (h5 the spoofer, no peerd),"
                f" obs with python-zeroconf only; logs in {lab.run_dir}")
    options = {"hosts": 5, "observer": True, "keep_logs": args.keep_logs or None}
    return labkit.run_suite(suite, options, banner, lambda lab: run_checks(lab, checks, suite))


if __name__ == "__main__":
    sys.exit(main())
