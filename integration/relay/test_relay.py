#!/usr/bin/env python3
"""The relay test (issue 42): friends in another house, through Debian's real `strelaysrv`.

Two houses behind NAT and a relay host between them (houses.py): house A with alice and carol,
house B with bob. Every peerd runs without a group secret, so it trusts only whom it pairs with.

  a. NAT is real: alice and bob can't open a TCP connection to each other's peerd (the other
     router's drop counts the SYNs); carol reaches alice on their LAN; both houses reach the relay;
     mDNS stays inside each house. Then carol pairs with alice on their LAN (invite, mDNS).
  b. `peerctl relay add URL` on alice names the relay and alice's relay becomes `joined`; a bad URL
     is refused; carol, a member already, learns the setting and joins the relay too.
  c. bob joins alice's invite code with no address, through the relay: both show each other
     connected, path relay, via 198.51.100.10:22067; bob lists the group's relay, joined; the relay
     holds an active session and sees only the routers' addresses.
  c'. bob's member page, in a real Chromium on bob's machine, shows alice connected "via relay
     198.51.100.10:22067" (skipped, with its own line, without Selenium or Chromium).
  d. carol stays direct with alice, and carol and bob, who never met, reach each other (path relay).
  e. an add, a mark and a pick cross the houses: the same result on all three.
  f. strelaysrv is killed while bob adds 50 movies: every add is acknowledged, bob's relay says
     `retrying` with an error, alice and carol stay connected; the relay returns with the same id
     and all three list every movie.
  f'. alice and bob each get a bridge docker0 at 172.17.0.1, left out of their reach, and a second
     LAN at 192.168.1.10, which their reach names and where the other finds itself; restarted
     together, they still connect, through the relay.
  f''. a second relay of the group's lies about sessions (lying_relay.py): with strelaysrv down, it
     puts bob's session for alice through to mallory, a stranger's peerd on the relay host; TLS and
     admission refuse it on both ends, no member or movie crosses, and alice's add made meanwhile is
     on bob once strelaysrv is back. The lying relay is taken out of the group again.
  g. a port forward on rA and `peerctl connect 198.51.100.1:7601` on bob: the alice–bob session
     becomes direct, and an add made just before the switch is on both sides; bob's page says
     "direct · 198.51.100.1:7601".
  h. `peerctl doctor` on bob: its relay check passes, saying joined and a latency.
  i. an outsider who knows alice's relay id is refused by admission through the relay.

Prints one line per check with what it measured and ends with exactly `relay: N passed, M failed`.
Exit status: 0 all passed, 1 something failed, 77 the machine can't host the two houses (one line,
`relay skipped: <reason>`).

    sudo python3 integration/relay/test_relay.py [--keep-logs] [--only WORDS]

Binaries come from $PEERD_BIN_DIR (default .build/debug). Every wait is bounded by $PEERD_LAB_WAIT
seconds (default 20) or a multiple of it named where it is used.
"""
import argparse
import json
import os
import re
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import houses as houseskit  # noqa: E402
from harness import CheckFailed, HarnessError  # noqa: E402
from houses import RELAY_IP, RELAY_PORT, Houses  # noqa: E402
from lab import PEERD_PORT, SERVICE_TYPE, run_suite  # noqa: E402
from relay_support import (  # noqa: E402
    DIRECT_PATH, RELAY_PATH, describe_peers, forged_code, invite, join, peer_rows, peerctl_json,
    relay_row, session, sessions_on,
)
from relay_context import BACK_WAIT, RELAY_VIA, WAIT, Context, movie_ids, same_lists, wait_for, waited  # noqa: E402
from lying_relay_check import check_lying_relay  # noqa: E402
from relay_page import HousePage  # noqa: E402
from suite import Suite, selected  # noqa: E402

PROBE_TIMEOUT = 3.0  # a TCP connect across the houses: long enough for a SYN and its retry on a LAN
BURST = 50
BURST_FIRST = 1001  # the burst's movies: 1001..1050
KILL_AFTER = 10  # the relay is killed once this many of the burst's adds were acknowledged
SWITCH_MOVIE = (2001, "Before the switch")
AFTER_SWITCH = (2002, "After the switch")


# MARK: a. NAT


def check_nat(ctx):
    """Before any pairing: no TCP across the houses in either direction (the other router's drop
    rule counts the SYNs), a LAN connection and both houses' connections to the relay work, and
    mDNS stays inside each house."""
    h = ctx.houses
    ctx.ensure_running()
    problems, seen = [], []
    for src, dst in ((ctx.alice, ctx.bob), (ctx.bob, ctx.alice)):
        router = h.router_of(dst)
        before = h.dropped(router)
        probe = h.connect(src, dst.ip, PEERD_PORT, PROBE_TIMEOUT)
        dropped = h.dropped(router) - before
        seen.append(f"{src.name}→{dst.name} {dst.ip}:{PEERD_PORT} {probe['outcome']} after {probe['seconds']:.1f} s, "
                    f"{router.name} dropped {dropped} packets")
        if probe["outcome"] != "timed out" or dropped < 1:
            problems.append(f"{src.name} → {dst.name}'s {dst.ip}:{PEERD_PORT}: {probe['outcome']}, {router.name}'s "
                            f"drop counted {dropped}; expected a silent drop by the NAT")
    for src, dst_ip, port, what in ((ctx.carol, ctx.alice.ip, PEERD_PORT, "alice's peerd on the LAN"),
                                    (ctx.alice, RELAY_IP, RELAY_PORT, "the relay"),
                                    (ctx.bob, RELAY_IP, RELAY_PORT, "the relay")):
        probe = h.connect(src, dst_ip, port, PROBE_TIMEOUT)
        seen.append(f"{src.name}→{what} {probe['outcome']} in {probe['seconds'] * 1000:.1f} ms")
        if probe["outcome"] != "connected":
            problems.append(f"{src.name} → {what} ({dst_ip}:{port}): {probe['outcome']}")

    def announced_ids(host):
        return {r["txt"].get("id") for r in host.avahi_browse(SERVICE_TYPE)}

    wait_for(lambda: ctx.id(ctx.carol) in announced_ids(ctx.alice), "avahi-browse on alice seeing carol's peerd")
    in_b = announced_ids(ctx.bob)
    in_a = announced_ids(ctx.alice)
    if in_b & {ctx.id(ctx.alice), ctx.id(ctx.carol)} or ctx.id(ctx.bob) in in_a:
        problems.append(f"mDNS crossed a router: bob browses {sorted(in_b)}, alice {sorted(in_a)}")
    seen.append(f"mDNS: alice browses {len(in_a)} peerd (hers, carol's), bob {len(in_b)} (his own)")
    if problems:
        raise CheckFailed("\n".join(problems + seen))
    for line in seen[1:]:
        ctx.note(line)
    return seen[0]


def check_lan_pairing(ctx):
    """carol joins alice's invite code with no address: found over mDNS on house A's LAN."""
    ctx.ensure_running()
    ctx.lan_code = invite(ctx.alice)
    seconds = join(ctx.carol, ctx.lan_code, ctx.id(ctx.alice))
    waited(ctx, lambda: session(ctx.alice, ctx.id(ctx.carol)) and session(ctx.carol, ctx.id(ctx.alice)),
           "alice and carol showing each other connected", hosts=[ctx.alice, ctx.carol])
    row = session(ctx.carol, ctx.id(ctx.alice))
    return (f"joined in {seconds:.2f} s (code of {len(ctx.lan_code)} characters); carol sees alice "
            f"{row.get('source')} at {row.get('address')}, path {row.get('path', '(not shown by this build)')}")


# MARK: b–d. the relay, and a friend in the other house


def check_relay_add(ctx):
    """`peerctl relay add URL` on alice names the relay; alice's relay becomes joined; a bad URL is
    refused; carol learns the group's setting and joins the relay too."""
    h = ctx.houses
    ctx.ensure_running()
    wrong = f"https://{RELAY_VIA}/?id={h.relay_id}"
    bad = ctx.alice.peerctl("relay", "add", wrong)
    refusal = (bad.stderr + bad.stdout).strip()
    if bad.returncode == 0 or "relay://" not in refusal:
        raise CheckFailed(f"`peerctl relay add {wrong}` exited {bad.returncode} saying {refusal!r}; expected a "
                          f"refusal that says a relay URL is relay://…")
    ctx.note(f"an https:// URL refused (exit {bad.returncode}): {refusal[:160]}")
    added = ctx.alice.peerctl("relay", "add", h.relay_url)
    said = (added.stdout + added.stderr).strip()
    if added.returncode != 0:
        raise CheckFailed(f"peerctl relay add {h.relay_url} on alice exited {added.returncode}: {said}")
    if RELAY_VIA not in said and h.relay_id not in said:
        raise CheckFailed(f"peerctl relay add printed {said!r}, naming neither {RELAY_VIA} nor the relay's id")
    ctx.note(f"alice: peerctl relay add → {said.splitlines()[0] if said else '(nothing)'}")

    def joined(host):
        row = relay_row(host, h.relay_id)
        return row if row and row.get("state") == "joined" else None

    row, seconds = waited(ctx, lambda: joined(ctx.alice), "alice's relay joined", hosts=[ctx.alice])
    if row.get("address") != RELAY_VIA:
        raise CheckFailed(f"alice's relay row says address {row.get('address')!r}, not {RELAY_VIA}: {row}")
    _, carol_seconds = waited(ctx, lambda: joined(ctx.carol), "carol (a member already) joined to the group's relay",
                              hosts=[ctx.alice, ctx.carol])
    connections = h.relay_status()["numConnections"]
    wan = h.relay_peers()
    if len(wan) < 2 or not all(a.startswith(h.rA.wan_ip + ":") for a in wan):
        raise CheckFailed(f"strelaysrv holds connections from {wan}; expected alice's and carol's, both from "
                          f"rA's {h.rA.wan_ip} (the NAT's address)")
    ctx.note(f"strelaysrv: {connections} permanent connections, from {wan}")
    return (f"alice joined in {seconds:.2f} s, latency {row.get('latencyMs')} ms; carol joined "
            f"{carol_seconds:.2f} s later")


def check_join_through_relay(ctx):
    """bob joins alice's code with no address: through the relay; both show each other connected,
    path relay via the relay; bob lists the group's relay, joined; the relay holds the session."""
    h = ctx.houses
    ctx.ensure_running()
    code = invite(ctx.alice)
    ctx.relay_code = code
    seconds = join(ctx.bob, code, ctx.id(ctx.alice))
    pair = [ctx.alice, ctx.bob]
    _, connected = waited(
        ctx, lambda: sessions_on(ctx.alice, ctx.id(ctx.bob), RELAY_PATH, RELAY_VIA)
        and sessions_on(ctx.bob, ctx.id(ctx.alice), RELAY_PATH, RELAY_VIA),
        f"alice and bob connected to each other with path relay via {RELAY_VIA}", hosts=pair)
    row, bob_joined = waited(ctx, lambda: (r := relay_row(ctx.bob, h.relay_id)) and r.get("state") == "joined" and r,
                             "bob listing the group's relay, joined", hosts=[ctx.bob])
    status, _ = waited(ctx, lambda: (s := h.relay_status())["numActiveSessions"] >= 1 and s,
                       "strelaysrv holding an active session", hosts=pair)
    wan = h.relay_peers()
    if not all(a.split(":")[0] in (h.rA.wan_ip, h.rB.wan_ip) for a in wan):
        raise CheckFailed(f"strelaysrv sees connections from {wan}: a house address got past its NAT")
    ctx.note(f"code of {len(code)} characters (the LAN's before the relay: {len(ctx.lan_code or '')}); "
             f"bob's relay: {row.get('state')} {row.get('latencyMs')} ms")
    ctx.note(f"strelaysrv: {status['numActiveSessions']} active sessions, {status['numConnections']} connections, "
             f"{status['bytesProxied']} bytes proxied; it sees {wan}")
    return (f"bob joined in {seconds:.2f} s; path relay on both {connected:.2f} s after; "
            f"bob's relay joined {bob_joined:.2f} s after that")


def check_page_path(ctx):
    """bob's member page, in Chromium on bob's machine: its peers panel shows alice connected via
    the relay, as `peerctl peers` does."""
    ctx.ensure_running()
    waited(ctx, lambda: sessions_on(ctx.bob, ctx.id(ctx.alice), RELAY_PATH, RELAY_VIA),
           "alice–bob through the relay", hosts=[ctx.alice, ctx.bob])
    name, state, path = ctx.page.open().peer_path(ctx.id(ctx.alice), f"via relay {RELAY_VIA}",
                                                  f"ul#peers on bob's page showing alice via relay {RELAY_VIA}")
    return f"bob's page (Chromium {ctx.page.browser.version}): {name} {state} ({path})"


def check_carol(ctx):
    """carol stays direct with alice; carol and bob, who never met, connect through the relay."""
    ctx.ensure_running()
    _, seconds = waited(
        ctx, lambda: sessions_on(ctx.carol, ctx.id(ctx.bob), RELAY_PATH, RELAY_VIA)
        and sessions_on(ctx.bob, ctx.id(ctx.carol), RELAY_PATH, RELAY_VIA),
        "carol and bob connected with path relay", timeout=2 * WAIT)
    problems = [f"{a.name} shows {b.name} as {session(a, ctx.id(b))}" for a, b in ((ctx.alice, ctx.carol),
                                                                                  (ctx.carol, ctx.alice))
                if not sessions_on(a, ctx.id(b), DIRECT_PATH)]
    if problems:
        raise CheckFailed("alice and carol are not direct:\n" + "\n".join(problems) + "\n" + ctx.explain())
    for host in ctx.people:
        ctx.note(describe_peers(host, ctx.names))
    return f"carol–bob path relay within {seconds:.2f} s; alice–carol direct on both sides"


# MARK: e. what crosses


def check_crossing(ctx):
    """bob's add reaches alice and carol; alice's mark reaches bob; a pick alice opens, bob votes in
    and alice closes has the same result on all three."""
    ctx.ensure_running()
    started = time.monotonic()
    ctx.bob.add(603, "The Matrix")
    waited(ctx, lambda: all(603 in movie_ids(h) for h in (ctx.alice, ctx.carol)), "bob's 603 on alice and carol")
    add_seconds = time.monotonic() - started
    marked = ctx.alice.peerctl("want", "603")
    if marked.returncode != 0:
        raise CheckFailed(f"peerctl want 603 on alice: {marked.stderr.strip()}")

    def alice_wants_on_bob():
        row = next((m for m in ctx.bob.movies() if m["movieId"] == 603), {})
        return any(mark.get("peer") == ctx.id(ctx.alice) and mark.get("want") for mark in row.get("marks", []))

    _, mark_seconds = waited(ctx, alice_wants_on_bob, "alice's want of 603 in bob's list")
    ctx.alice.add(550, "Fight Club")
    ctx.carol.add(13, "Forrest Gump")
    waited(ctx, lambda: same_lists(ctx.people, {603, 550, 13}), "603, 550 and 13 on all three")
    opened = peerctl_json(ctx.alice, "pick", "--with", "bob", "--deck-size", "3")
    deck = [card["movieId"] for card in opened.get("deck", [])]
    pick = opened.get("pick")
    if opened.get("outcome") != "voting" or len(deck) != 3:
        raise CheckFailed(f"peerctl pick on alice: {opened}")
    waited(ctx, lambda: peerctl_json(ctx.bob, "pick", "--status").get("pick") == pick, "the pick reaching bob")
    favourite = deck[1]
    for movie in deck:
        for voter, answer in ((ctx.alice, "yes"), (ctx.bob, "yes" if movie == favourite else "no")):
            peerctl_json(voter, "vote", answer, str(movie))

    def bob_voted():
        state = peerctl_json(ctx.alice, "pick", "--status")
        return any(v.get("peer") == ctx.id(ctx.bob) and v.get("voted") == len(deck) for v in state.get("voters", []))

    waited(ctx, bob_voted, "alice seeing bob's three votes")
    closed = peerctl_json(ctx.alice, "pick", "--close")
    result = (closed.get("result") or {}).get("movieId")
    if result != favourite:
        raise CheckFailed(f"the closed pick's result is {result}, not {favourite} (both voted yes only to it): "
                          f"{closed}")

    def everywhere():
        states = [peerctl_json(h, "pick", "--status") for h in ctx.people]
        keys = [(s.get("pick"), s.get("outcome"), (s.get("result") or {}).get("movieId")) for s in states]
        return all(k == keys[0] for k in keys) and keys[0][2] == favourite and keys

    keys, _ = waited(ctx, everywhere, "the same closed pick and result on alice, bob and carol")
    return (f"bob's add on alice and carol in {add_seconds:.2f} s; alice's want on bob in {mark_seconds:.2f} s; "
            f"pick of {deck}: {keys[0][1]} {keys[0][2]} on all three")


# MARK: f. the relay dies


def check_relay_killed(ctx):
    """strelaysrv is killed (SIGKILL) after 10 of bob's 50 adds; all 50 are acknowledged; bob's
    relay says retrying with an error; alice and carol stay connected directly; the relay comes
    back with the same id and every peer lists every movie."""
    h = ctx.houses
    ctx.ensure_running()
    burst = set(range(BURST_FIRST, BURST_FIRST + BURST))
    acknowledged, failures = [], []
    killed = threading.Event()

    def adder():
        for movie in sorted(burst):
            try:
                ctx.bob.add(movie, f"Relay burst {movie - BURST_FIRST + 1}")
                acknowledged.append(movie)
            except HarnessError as error:
                failures.append(f"{movie}: {error}")
            if len(acknowledged) == KILL_AFTER:
                killed.wait(30)

    writer = threading.Thread(target=adder, daemon=True)
    started = time.monotonic()
    writer.start()
    wait_for(lambda: len(acknowledged) >= KILL_AFTER or not writer.is_alive(), f"{KILL_AFTER} of bob's adds", 60, 0.01)
    h.stop_relay()
    down_at = time.monotonic()
    killed.set()
    writer.join(120)
    if failures or len(acknowledged) != BURST:
        raise CheckFailed(f"{len(acknowledged)} of {BURST} adds acknowledged on bob; failures: {failures[:5]}")
    burst_seconds = time.monotonic() - started
    expected = movie_ids(ctx.bob)
    missing = burst - expected
    if missing:
        raise CheckFailed(f"bob acknowledged them but does not list {sorted(missing)}")

    def retrying(host):
        row = relay_row(host, h.relay_id)
        return row if row and row.get("state") == "retrying" and row.get("lastError") else None

    row, _ = waited(ctx, lambda: retrying(ctx.bob), "bob's relay retrying, with an error", hosts=[ctx.bob])
    direct = sessions_on(ctx.alice, ctx.id(ctx.carol), DIRECT_PATH)
    if not direct:
        raise CheckFailed(f"with the relay down, alice's session with carol is gone:\n{ctx.explain()}")
    ctx.note(f"relay down: bob's relay retrying ({row.get('lastError')}; retry in {row.get('retryIn')} s); "
             f"alice–carol still direct")
    before_return = {x.name: len(movie_ids(x)) for x in ctx.people}
    h.start_relay()
    back_at = time.monotonic()
    _, converged = waited(ctx, lambda: same_lists(ctx.people, expected),
                          f"all {BURST} of bob's movies on alice, carol and bob", timeout=BACK_WAIT)
    counts = {host.name: len(movie_ids(host)) for host in ctx.people}
    waited(ctx, lambda: all((r := relay_row(x, h.relay_id)) and r.get("state") == "joined" for x in ctx.people),
           "every peer's relay joined again")
    return (f"{BURST} adds acknowledged in {burst_seconds:.1f} s, the relay killed after {KILL_AFTER} and down "
            f"{back_at - down_at:.1f} s (lists then {before_return}); back with the same id, all lists equal "
            f"{converged:.1f} s later: {counts}")


# MARK: f'. addresses both houses have


DOCKER = "172.17.0.1"  # Docker's default bridge: the same address on every machine that runs it
SHARED = "192.168.1.10"  # both houses' routers hand out 192.168.1.0/24, and both machines got .10
EXTRA_INTERFACES = [("docker0", f"{DOCKER}/16"), ("lan1", f"{SHARED}/24")]


def restart(*hosts):
    for host in hosts:
        host.stop_peerd()
    for host in hosts:
        host.start_peerd(host.name, group_secret=False)


def check_shared_address(ctx):
    """alice and bob each get a bridge docker0 at 172.17.0.1, as Docker makes on every machine, and a
    second LAN interface at 192.168.1.10, as two houses with the same router defaults may: docker0
    stays out of each one's reach; 192.168.1.10 is in it, an address where the other finds itself.
    Restarted together, knowing each other's new reach, they still connect: through the relay."""
    ctx.ensure_running()
    pair = [ctx.alice, ctx.bob]
    for host in pair:
        for name, address in EXTRA_INTERFACES:
            host.run(f"ip link add {name} type bridge && ip addr add {address} dev {name} && ip link set {name} up",
                     check=True)
    try:
        for host in pair:  # one at a time: each restart announces the new reach, and the other learns it
            restart(host)
            waited(ctx, lambda: sessions_on(ctx.bob, ctx.id(ctx.alice), RELAY_PATH),
                   f"alice–bob again after {host.name}'s restart", timeout=2 * WAIT, hosts=pair)
        restart(*pair)
        _, seconds = waited(ctx, lambda: sessions_on(ctx.bob, ctx.id(ctx.alice), RELAY_PATH, RELAY_VIA)
                            and sessions_on(ctx.alice, ctx.id(ctx.bob), RELAY_PATH, RELAY_VIA),
                            f"alice and bob, each announcing {SHARED}, connected through the relay after restarting "
                            "together", timeout=2 * WAIT, hosts=pair)
        known = {a.name: session(a, ctx.id(b)).get("addresses") or []
                 for a, b in ((ctx.alice, ctx.bob), (ctx.bob, ctx.alice))}
    finally:
        for host in pair:
            for name, _ in EXTRA_INTERFACES:
                host.run(["ip", "link", "del", name])
    shared, docker = f"{SHARED}:{PEERD_PORT}", f"{DOCKER}:{PEERD_PORT}"
    if not all(shared in addresses and docker not in addresses for addresses in known.values()):
        raise CheckFailed(f"the addresses each knows of the other: {known}; each should name {shared} and not "
                          f"{docker} (docker0's)")
    return (f"both restarted at once (alice knows bob at {known['alice']}, bob alice at {known['bob']}): "
            f"path relay on both {seconds:.2f} s later")


# MARK: g. direct replaces relay


def check_direct_replaces_relay(ctx):
    """A port forward on rA to alice:7601 and `peerctl connect 198.51.100.1:7601` on bob: the
    alice–bob session becomes direct; an add made just before is on both sides after."""
    h = ctx.houses
    ctx.ensure_running()
    waited(ctx, lambda: sessions_on(ctx.bob, ctx.id(ctx.alice), RELAY_PATH), "alice–bob through the relay first",
           hosts=[ctx.alice, ctx.bob])
    h.forward_port(h.rA, PEERD_PORT, ctx.alice)
    ctx.bob.add(*SWITCH_MOVIE)
    address = f"{h.rA.wan_ip}:{PEERD_PORT}"
    connected = ctx.bob.peerctl("connect", address)
    if connected.returncode != 0:
        raise CheckFailed(f"peerctl connect {address} on bob: {connected.stderr.strip()}")
    _, seconds = waited(ctx, lambda: sessions_on(ctx.bob, ctx.id(ctx.alice), DIRECT_PATH)
                        and sessions_on(ctx.alice, ctx.id(ctx.bob), DIRECT_PATH),
                        "alice–bob direct on both sides", timeout=2 * WAIT, hosts=[ctx.alice, ctx.bob])
    def connected_rows(host, other):
        return [p for p in peer_rows(host) if p.get("peer") == ctx.id(other) and p.get("state") == "connected"]

    duplicates = [f"{a.name} shows {len(rows)}" for a, b in ((ctx.alice, ctx.bob), (ctx.bob, ctx.alice))
                  if len(rows := connected_rows(a, b)) > 1]
    if duplicates:
        raise CheckFailed(f"more than one connected session between alice and bob: {duplicates}\n{ctx.explain()}")
    ctx.alice.add(*AFTER_SWITCH)
    expected = {SWITCH_MOVIE[0], AFTER_SWITCH[0]}
    waited(ctx, lambda: all(expected <= movie_ids(x) for x in (ctx.alice, ctx.bob)),
           f"{sorted(expected)} on alice and bob")
    forwarded = h.forwarded(h.rA, PEERD_PORT, ctx.alice)
    row = session(ctx.bob, ctx.id(ctx.alice))
    if ctx.page.browser is not None:  # check c' opened it
        shown = ctx.page.peer_path(ctx.id(ctx.alice), f"direct · {address}",
                                   f"ul#peers on bob's page showing alice direct · {address}")
        ctx.note(f"bob's page: {' '.join(shown)}")
    return (f"direct {seconds:.2f} s after `connect` (bob dials {row.get('address')}); {SWITCH_MOVIE[0]} added just "
            f"before and {AFTER_SWITCH[0]} after are on both; rA forwarded {forwarded} packets to alice")


# MARK: h. doctor


LATENCY = re.compile(r"\d+(\.\d+)?\s*ms")


def doctor_json(host):
    result = host.peerctl("doctor", "--json", timeout=60)
    try:
        return json.loads(result.stdout)
    except ValueError:
        raise HarnessError(f"peerctl doctor --json on {host.name} printed no JSON (exit {result.returncode}): "
                           f"{(result.stdout + result.stderr)[:400]}") from None


def relay_problems(doctor):
    """What is wrong with doctor's relay checks: [] when there is one and each passes saying
    joined or reachable, with a latency."""
    relay_checks = [c for c in doctor.get("checks", []) if c.get("id") == "relay"]
    if not relay_checks:
        return [f"no relay check; its checks: {[c.get('id') for c in doctor.get('checks', [])]}"]
    problems = []
    for check in relay_checks:
        text = " ".join(str(check.get(f) or "") for f in ("summary", "cause", "fix"))
        if check.get("status") != "pass":
            problems.append(f"relay {check.get('status')}: {text}")
        elif not re.search(r"\bjoined\b|\breachable\b", text) or not LATENCY.search(text):
            problems.append(f"relay passes without saying joined/reachable and a latency: {text!r}")
    return problems


def check_doctor(ctx):
    """`peerctl doctor --json` on bob: its relay check passes, saying joined/reachable and a latency
    (the latency once the daemon's first ping came back: a bounded wait)."""
    ctx.ensure_running()
    found = {}

    def passes():
        found["doctor"] = doctor_json(ctx.bob)
        return not relay_problems(found["doctor"])

    try:
        wait_for(passes, "doctor on bob passing its relay check with a latency", interval=1)
    except CheckFailed as failure:
        raise CheckFailed(f"{failure}\n" + "\n".join(relay_problems(found.get("doctor") or {}))) from None
    doctor = found["doctor"]
    relay_checks = [c for c in doctor.get("checks", []) if c.get("id") == "relay"]
    words = ctx.bob.peerctl("doctor", timeout=60).stdout
    for line in words.splitlines():
        if "relay" in line.lower():
            ctx.note(f"doctor: {line.strip()}")
    others = [f"{c.get('id')} {c.get('status')}" for c in doctor.get("checks", []) if c.get("status") == "fail"]
    if others:
        ctx.note(f"other checks failing on bob (not this check's concern): {others}")
    return "; ".join(f"{c.get('id')}: {c.get('summary')}" for c in relay_checks)


def check_outsider(ctx):
    """The relay decides nothing: mallory, a fresh peerd in house B that knows alice's relay id (a
    code like bob's, with a secret alice never made), reaches alice through the relay and is refused
    by admission; alice's group and list stay as they were. Last: it takes bob's host."""
    ctx.ensure_running()
    if not ctx.relay_code:
        raise CheckFailed("no wl2 code from check c to forge one like it")
    alice_members = len(peerctl_json(ctx.alice, "members").get("members", []))
    alice_movies = movie_ids(ctx.alice)
    ctx.bob.stop_peerd()
    ctx.bob.start_peerd("mallory", fresh_state=True, group_secret=False)
    mallory = ctx.bob.status()["peer"]
    started = time.monotonic()
    joined = ctx.bob.peerctl("join", forged_code(ctx.relay_code), timeout=60)
    seconds = time.monotonic() - started
    said = (joined.stdout + joined.stderr).strip()
    if joined.returncode == 0 or "does not know this code" not in said:
        raise CheckFailed(f"mallory's join with a forged code: exit {joined.returncode}: {said}")
    refused = [p for p in peer_rows(ctx.alice) if p.get("peer") == mallory]
    if not refused or refused[0].get("trust") != "untrusted":
        raise CheckFailed(f"alice's peers do not show mallory refused: {refused}")
    if len(peerctl_json(ctx.alice, "members").get("members", [])) != alice_members:
        raise CheckFailed("alice's group changed after mallory's join")
    if movie_ids(ctx.alice) != alice_movies or movie_ids(ctx.bob):
        raise CheckFailed(f"lists changed: alice {len(movie_ids(ctx.alice))}, mallory {len(movie_ids(ctx.bob))}")
    ctx.note(f"mallory ({mallory[:8]}) was told in {seconds:.2f} s: {said}")
    ctx.note(f"alice lists mallory: {refused[0].get('state')}, {refused[0].get('lastError')}")
    return f"refused by alice's admission through the relay in {seconds:.2f} s; alice's {alice_members} members unchanged"


CHECKS = [
    ("a. NAT is real: no TCP between alice and bob either way; both reach the relay; mDNS stays home", check_nat,
     ["alice", "bob", "carol", "rA", "rB"]),
    ("a'. carol pairs with alice on house A's LAN (invite, found over mDNS)", check_lan_pairing, ["alice", "carol"]),
    ("b. `peerctl relay add` on alice: the relay named, joined; carol joins the group's relay too", check_relay_add,
     ["alice", "carol", "relay"]),
    ("c. bob joins from house B through the relay: path relay via 198.51.100.10:22067 on both",
     check_join_through_relay, ["alice", "bob", "relay"]),
    (f"c'. bob's page in Chromium says alice is via relay {RELAY_VIA}", check_page_path, ["alice", "bob"],
     HousePage.missing),
    ("d. carol stays direct with alice; carol and bob, who never met, connect through the relay", check_carol,
     ["alice", "bob", "carol"]),
    ("e. an add, a mark and a pick cross the houses", check_crossing, ["alice", "bob", "carol"]),
    ("f. the relay killed mid-burst: 50 adds acknowledged, retrying, then every list complete", check_relay_killed,
     ["alice", "bob", "carol", "relay"]),
    ("f'. docker0 at 172.17.0.1 and a LAN at 192.168.1.10 in both houses: alice and bob still connect, "
     "through the relay",
     check_shared_address, ["alice", "bob"]),
    ("f''. a relay that lies about sessions puts bob through to a stranger: refused by admission, nothing lost",
     check_lying_relay, ["alice", "bob", "relay"]),
    ("g. a forwarded port: the alice–bob session becomes direct, nothing lost", check_direct_replaces_relay,
     ["alice", "bob", "rA"]),
    ("h. `peerctl doctor` on bob: the relay joined, with a latency", check_doctor, ["bob"]),
    ("i. an outsider who knows alice's relay id is refused by admission through the relay", check_outsider,
     ["alice", "bob", "relay"]),
]

LOG_TAILS = {"peerd.log": 12, "avahi.log": 4, "strelaysrv.log": 8}




def run_checks(houses, checks, suite):
    ctx = Context(houses)
    try:
        for title, check, involved, *unless in checks:
            why = unless[0]() if unless else None
            if why:
                suite.skip_check(title, why)
                continue
            ctx.details = []
            if not suite.check(title, check, ctx, notes=ctx.details):
                houses.print_logs(involved, LOG_TAILS)
    finally:
        ctx.page.stop()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--keep-logs", action="store_true", help="keep the run's logs even when all pass")
    parser.add_argument("--only", nargs="*", help="run only checks whose title contains one of these")
    args = parser.parse_args()
    suite = Suite("relay")
    reason = houseskit.preflight()
    if reason:
        return suite.skip(reason)
    if not suite.need_peerd():
        return suite.finish()
    checks = selected(CHECKS, args.only)

    def banner(houses):
        return (f"relay lab {houses.prefix}: house A (alice, carol) behind rA, house B (bob) behind rB, "
                f"strelaysrv at {houses.relay_url}; logs in {houses.run_dir}")

    return run_suite(suite, {"keep_logs": args.keep_logs or None}, banner, lambda h: run_checks(h, checks, suite),
                     lab_class=Houses)


if __name__ == "__main__":
    sys.exit(main())
