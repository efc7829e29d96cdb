#!/usr/bin/env python3
"""Relay benchmark (issue 42): add → visible across two houses through Debian's strelaysrv.

On the two houses of houses.py (each behind its own NAT, the relay between them), alice (house A)
adds the relay, bob (house B) joins her invite code through it, and once their session's path is
`relay` the clock runs `--samples` times (default 50, after `--warmup` unmeasured ones): from bob's
`add` on his control socket (answered `added`, so fsynced) until alice's `follow` stream (CONTROL.md,
"follow") shows that movie added, as peerd-bench's add → visible does on loopback. The control
sockets lie in the run dir, so the clock runs outside the namespaces with no nsenter in it; the
sync itself goes bob → rB's NAT → strelaysrv → rA's NAT → alice. The session must still be a relay
session after the last sample, else the run counts as failed.

    sudo python3 integration/relay/bench_relay.py [--samples 50] [--results bench/results.json]

Prints p50 and p90 (nearest rank) against the target (p50 ≤ 50 ms); with --results, merges two
rows into that file's "results" array as bench_discovery.py does (rows with the same "measure" are
replaced, everything else kept). Exits 0 when it measured (a missed target shows as "met": false),
1 when it could not, 77 when the machine can't host the two houses. Binaries come from
$PEERD_BIN_DIR (default .build/debug; `make bench-relay` gives the release build).
"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lab"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import houses as houseskit  # noqa: E402
from bench_discovery import merge_results, percentile  # noqa: E402
from harness import BIN_DIR, CheckFailed, HarnessError, eventually  # noqa: E402
from houses import RELAY_IP, RELAY_PORT, Houses  # noqa: E402
from lab import LabSkip  # noqa: E402
from liveness_support import Control  # noqa: E402
from relay_support import RELAY_PATH, invite, join, relay_row, sessions_on  # noqa: E402

TARGET_P50_MS = 50.0
MEASURE = "relay: add → visible in the other house, through strelaysrv"
SETUP_WAIT = 60.0
FIRST_MOVIE = 5001


def pair_through_relay(houses):
    """alice and bob running, the relay added on alice, bob joined by invite: their peer ids once
    both show the other connected with path relay."""
    alice, bob = houses.alice, houses.bob
    for host in (alice, bob):
        host.start_peerd(host.name, group_secret=False)
    ids = {h.name: h.status()["peer"] for h in (alice, bob)}
    added = alice.peerctl("relay", "add", houses.relay_url)
    if added.returncode != 0:
        raise HarnessError(f"peerctl relay add on alice: {(added.stderr or added.stdout).strip()}")
    eventually(lambda: (r := relay_row(alice, houses.relay_id)) and r.get("state") == "joined", SETUP_WAIT,
               "alice's relay joined", 0.1)
    join(bob, invite(alice), ids["alice"])
    via = f"{RELAY_IP}:{RELAY_PORT}"
    eventually(lambda: sessions_on(alice, ids["bob"], RELAY_PATH, via)
               and sessions_on(bob, ids["alice"], RELAY_PATH, via),
               SETUP_WAIT, "alice and bob connected through the relay", 0.1)
    return ids


def time_adds(houses, count, first_movie, timeout):
    """Seconds from each of `count` adds on bob (acknowledged) to alice's follow stream showing it."""
    follower = Control(houses.alice.socket, timeout=timeout)
    writer = Control(houses.bob.socket, timeout=timeout)
    try:
        follower.send({"type": "follow"})
        answer = follower.receive()
        if answer.get("type") != "following":
            raise HarnessError(f"follow on alice answered {answer}")
        times = []
        for movie in range(first_movie, first_movie + count):
            started = time.perf_counter()
            writer.request({"type": "add", "movie": {"id": movie, "title": f"Relay bench {movie}"}})
            while True:
                change = follower.receive()
                if change.get("movieId") == movie and change.get("change") == "added":
                    break
            times.append(time.perf_counter() - started)
        return times
    finally:
        follower.close()
        writer.close()


def rows_for(times, relay_version):
    ms = [t * 1000 for t in times]
    p50, p90 = percentile(ms, 50), percentile(ms, 90)
    detail = (f"{len(ms)} adds on bob (house B, acknowledged, so fsynced) until alice's follow stream (house A) "
              f"shows each; both behind their own NAT, session path relay through {relay_version} on the lab's wan")
    return [
        {"measure": f"{MEASURE}, p50", "value": p50, "unit": "ms", "target": f"≤ {TARGET_P50_MS:g} ms",
         "met": p50 <= TARGET_P50_MS, "detail": detail},
        {"measure": f"{MEASURE}, p90", "value": p90, "unit": "ms", "target": "none", "met": True,
         "detail": f"{detail}; p90 has no target"},
    ]


def main():
    parser = argparse.ArgumentParser(description="peerd add → visible through a strelaysrv relay, two houses")
    parser.add_argument("--samples", type=int, default=50, help="measured adds (default 50)")
    parser.add_argument("--warmup", type=int, default=3, help="adds before measuring, not counted (default 3)")
    parser.add_argument("--timeout", type=float, default=20.0, help="give one add this many seconds (default 20)")
    parser.add_argument("--results", metavar="FILE", help="merge the two numbers into this results.json")
    parser.add_argument("--keep-logs", action="store_true")
    args = parser.parse_args()
    reason = houseskit.preflight()
    if reason:
        print(f"relay bench skipped: {reason}")
        return houseskit.SKIP_EXIT_CODE
    try:
        with Houses(keep_logs=args.keep_logs or None) as houses:
            print(f"relay lab {houses.prefix}: alice (house A) and bob (house B), peerd from {BIN_DIR}, "
                  f"strelaysrv {houses.relay_url}", flush=True)
            ids = pair_through_relay(houses)
            time_adds(houses, args.warmup, FIRST_MOVIE, args.timeout)
            times = time_adds(houses, args.samples, FIRST_MOVIE + args.warmup, args.timeout)
            if not sessions_on(houses.bob, ids["alice"], RELAY_PATH):
                raise HarnessError("bob's session with alice is no longer a relay session after the samples")
            relay_version = houses.relay.run(["strelaysrv", "-version"]).stdout.split(" (")[0].strip() or "strelaysrv"
    except LabSkip as skip:
        print(f"relay bench skipped: {skip}")
        return houseskit.SKIP_EXIT_CODE
    except KeyboardInterrupt:
        print("\ninterrupted; the houses were torn down")
        return 130
    except (HarnessError, CheckFailed) as error:
        print(f"benchmark failed: {error}")
        return 1
    rows = rows_for(times, relay_version)
    for row in rows:
        print(f"{row['measure']:<70} {row['value']:8.2f} ms  {row['target']}{'' if row['met'] else '  MISSED'}")
    if args.results:
        merge_results(args.results, rows)
        print(f"merged into {args.results}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
