#!/usr/bin/env python3
"""Liveness benchmark on a five-host LAN lab: how long lists take to agree after a partition heals,
and how long a fresh peer takes to catch up on a lossy link.

  - Partitions: 12 cuts (by default), 2|3, of 5, 10 and 20 s in turn, each with every host
    connected to the other four before it and `peerctl add`/`remove` on both sides during it (an
    nftables drop on the input hook of each host, of what comes from the other side). The clock
    starts just before the cuts are deleted and stops when all five lists, read over the control
    sockets every 20 ms, are identical and hold every acknowledged add. Gives p50 and p99 (nearest
    rank) and how many heals took over 2 s; a heal that never agrees counts as --timeout seconds.
  - Catch-up: h1-h4 hold 10,000 operations; a fresh peer on h5 receives with 20% loss
    (`numgen random mod 100 < 20 drop`, loopback and mDNS exempt); seconds from its start until it
    holds them all, and whether any session was closed for silence meanwhile.

    sudo python3 integration/lab/bench_liveness.py [--rounds 12] [--loss 20] [--results bench/results.json]

With --results, merges its rows into that file's "results" array as bench_discovery.py does (rows
with the same "measure" are replaced, everything else kept). Exits 0 when it measured (a missed
target shows as "met": false), 1 when it could not, 77 when the machine can't host the lab.
Binaries come from $PEERD_BIN_DIR (default .build/debug).
"""
import argparse
import os
import shutil
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lab as labkit  # noqa: E402
from bench_discovery import merge_results, percentile  # noqa: E402
from harness import BIN_DIR, HarnessError  # noqa: E402
from lab import Lab, LabSkip  # noqa: E402
from liveness_support import Mesh, log_offsets, longest_stall, silence_closes  # noqa: E402

TARGET_P50 = 2.0
HOLDS = (5, 10, 20)
TOTAL_OPS = 10_000
MESH_WAIT = 60.0
SEED_WAIT = 180.0
HEAL = "liveness: partition heal → identical lists, 5 hosts"


def run_partitions(mesh, rounds, timeout):
    """`rounds` partition rounds; returns the seconds of each heal (`timeout` for one that never agreed)."""
    times = []
    for i in range(rounds):
        hold = HOLDS[i % len(HOLDS)]
        rotated = mesh.hosts[i % 5:] + mesh.hosts[:i % 5]
        side_a, side_b = rotated[:2], rotated[2:]
        seconds, wrong, writers = mesh.partition_round(side_a, side_b, hold, timeout, MESH_WAIT)
        split = f"{','.join(h.name for h in side_a)}|{','.join(h.name for h in side_b)}"
        shown = f"{seconds:6.2f} s" if seconds is not None else f"not within {timeout:g} s ({wrong})"
        print(f"cut {i + 1:2d}: {hold:2d} s {split}, {writers.describe()}; heal → identical {shown}", flush=True)
        times.append(seconds if seconds is not None else timeout)
    return times


def run_catch_up(mesh, percent, timeout):
    """A fresh peer on h5 catching up to h1-h4's 10,000 operations at `percent` % loss.
    Returns (seconds or None, operations it reached, target, longest stall, silence closes)."""
    holders, fresh = mesh.hosts[:4], mesh.hosts[4]
    mesh.ensure_running()
    mesh.wait_mesh(mesh.hosts, MESH_WAIT)
    fresh.stop_peerd()
    mesh.seed(holders, TOTAL_OPS, SEED_WAIT)
    target = mesh.operations(holders[0])
    mesh.lossy(fresh, percent)
    offsets = log_offsets(mesh.hosts)
    try:
        seconds, samples = mesh.catch_up(fresh, target, timeout)
    finally:
        mesh.lossless(fresh)
    closes = silence_closes(mesh.hosts, offsets)
    reached = samples[-1][1] if samples else 0
    print(f"catch-up at {percent}% loss: {reached}/{target} ops "
          f"{f'in {seconds:.1f} s' if seconds is not None else f'after {timeout:g} s, unfinished'}, "
          f"longest stall {longest_stall(samples):.0f} s, {len(closes)} sessions closed for silence", flush=True)
    return seconds, reached, target, longest_stall(samples), closes


def heal_rows(times, timeout):
    p50, p99 = percentile(times, 50), percentile(times, 99)
    misses = sum(t > TARGET_P50 for t in times)
    unfinished = sum(t >= timeout for t in times)
    detail = (f"{len(times)} cuts 2|3 of {'/'.join(map(str, HOLDS))} s, nftables drops on input, adds and removals "
              f"on both sides; {misses} over {TARGET_P50:g} s"
              + (f", {unfinished} not agreeing within {timeout:g} s (counted as {timeout:g} s)" if unfinished else ""))
    return [
        {"measure": f"{HEAL}, p50", "value": p50, "unit": "s", "target": f"≤ {TARGET_P50:g} s",
         "met": p50 <= TARGET_P50 and not unfinished, "detail": detail},
        {"measure": f"{HEAL}, p99", "value": p99, "unit": "s", "target": "none", "met": not unfinished,
         "detail": f"{detail}; p99 has no target"},
        {"measure": f"{HEAL}, heals over {TARGET_P50:g} s", "value": misses, "unit": f"of {len(times)}",
         "target": "none", "met": not unfinished, "detail": detail},
    ]


def catch_up_row(result, percent, timeout):
    seconds, reached, target, stall, closes = result
    finished = seconds is not None
    detail = (f"{target} ops from h1-h4 to a fresh peer receiving with {percent}% loss (nftables numgen, "
              f"loopback and mDNS exempt); longest stall {stall:.0f} s; {len(closes)} sessions closed for silence"
              + ("" if finished else f"; unfinished after {timeout:g} s at {reached} ops"))
    return {"measure": f"liveness: catch-up of {target:,} ops by a fresh peer at {percent}% loss",
            "value": seconds if finished else timeout, "unit": "s", "target": "none",
            "met": finished and not closes, "detail": detail}


def print_table(rows):
    print(f"\n{'measure':<78} {'value':>9}  target")
    for row in rows:
        value = f"{row['value']:.2f} {row['unit']}" if row["unit"] == "s" else f"{row['value']} {row['unit']}"
        print(f"{row['measure']:<78} {value:>9}  {row['target']}{'' if row['met'] else '  MISSED'}")


def main():
    parser = argparse.ArgumentParser(description="peerd liveness under partitions and loss, on the LAN lab")
    parser.add_argument("--rounds", type=int, default=12, help="partition rounds (default 12)")
    parser.add_argument("--timeout", type=float, default=30.0, help="give one heal this many seconds (default 30)")
    parser.add_argument("--loss", type=int, default=20, help="loss %% on the catching-up peer (default 20)")
    parser.add_argument("--catch-up-timeout", type=float, default=240.0, help="seconds (default 240)")
    parser.add_argument("--results", metavar="FILE", help="merge the rows into this results.json")
    parser.add_argument("--keep-logs", action="store_true")
    args = parser.parse_args()
    reason = labkit.preflight() or (None if shutil.which("nft") else "needs nft (apt-get install nftables)")
    if reason:
        print(f"liveness skipped: {reason}")
        return labkit.SKIP_EXIT_CODE
    try:
        with Lab(hosts=5, keep_logs=args.keep_logs or None) as lab:
            mesh = Mesh(lab)
            mesh.ensure_running()
            print(f"lab {lab.prefix}: h1-h5 with their own avahi-daemon and peerd from {BIN_DIR}; "
                  f"{args.rounds} partitions, then a catch-up at {args.loss}% loss", flush=True)
            started = time.monotonic()
            times = run_partitions(mesh, args.rounds, args.timeout)
            catch_up = run_catch_up(mesh, args.loss, args.catch_up_timeout)
            print(f"({time.monotonic() - started:.0f} s in all)")
    except LabSkip as skip:
        print(f"liveness skipped: {skip}")
        return labkit.SKIP_EXIT_CODE
    except KeyboardInterrupt:
        print("\ninterrupted; the lab was torn down")
        return 130
    except HarnessError as error:
        print(f"benchmark failed: {error}")
        return 1
    rows = heal_rows(times, args.timeout) + [catch_up_row(catch_up, args.loss, args.catch_up_timeout)]
    print_table(rows)
    if args.results:
        merge_results(args.results, rows)
        print(f"merged into {args.results}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
