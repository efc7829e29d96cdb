#!/usr/bin/env python3
"""Discovery benchmark: the time from starting `peerd` on a new host to an established session
with an existing peer, found with no configuration (mDNS only), on a two-host lab.

Each run restarts h2's peerd with a fresh state directory (a new peer id) on a port no earlier run
used, so nothing remembered from a previous run can help; h1's peerd stays up throughout. The
clock starts just before peerd is spawned and stops when h2's `peerctl peers --json` first shows h1
connected (polled every 20 ms, so the resolution is about that). avahi-daemon on h2 keeps running
between runs, as on a real machine; --cold-avahi restarts it before each run (outside the clock).

    sudo python3 integration/lab/bench_discovery.py [--runs 20] [--results bench/results.json]

Prints p50 and p99 (nearest rank); with --results, merges two rows into that file's "results"
array (rows with the same "measure" are replaced, everything else is kept). Exits 0 when it
measured (a missed target shows as "met": false), 1 when no run established a session, 77 when
the machine can't host the lab.
"""
import argparse
import json
import math
import os
import pathlib
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lab as labkit  # noqa: E402
from harness import HarnessError, eventually, tail  # noqa: E402
from lab import Lab, LabSkip  # noqa: E402

TARGET_P50 = 1.2
MEASURE = "discovery: peerd start → session with an existing peer"
POLL = 0.02


def percentile(values, p):
    """Nearest rank, as bench/Sources/peerd-bench/Statistics.swift."""
    ordered = sorted(values)
    rank = math.ceil(p / 100 * len(ordered)) - 1
    return ordered[min(max(rank, 0), len(ordered) - 1)]


def time_one_run(newcomer, existing_id, port, timeout):
    """Seconds from spawning peerd on `newcomer` to a connected session with `existing_id`, or None."""
    started = time.monotonic()
    newcomer.start_peerd("newcomer", port=port, fresh_state=True, wait=False)
    deadline = started + timeout
    while time.monotonic() < deadline:
        if not newcomer.peerd_running():
            raise HarnessError(f"peerd on {newcomer.name} exited ({newcomer.peerd.returncode})\n"
                               f"{tail(newcomer.dir / 'peerd.log')}")
        result = newcomer.peerctl("peers", "--json", timeout=5)
        if result.returncode == 0:
            try:
                peers = json.loads(result.stdout)
            except ValueError:
                peers = []
            if any(p.get("peer") == existing_id and p.get("state") == "connected" for p in peers):
                return time.monotonic() - started
        time.sleep(POLL)
    return None


def merge_results(path, rows):
    """Replaces rows with the same measure in `path`'s {"results": [...]}, keeping everything else,
    written in the same style as peerd-bench (sorted keys, `" : "`, escaped slashes)."""
    path = pathlib.Path(path)
    report = json.loads(path.read_text()) if path.exists() else {}
    measures = {row["measure"] for row in rows}
    kept = [row for row in report.get("results", []) if row.get("measure") not in measures]
    report["results"] = kept + rows
    text = json.dumps(report, indent=2, separators=(",", " : "), sort_keys=True, ensure_ascii=False)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text.replace("/", "\\/"))
    os.replace(tmp, path)


def main():
    parser = argparse.ArgumentParser(description="peerd discovery latency on the LAN lab")
    parser.add_argument("--runs", type=int, default=20, help="measured runs (at least 20 for p99; default 20)")
    parser.add_argument("--warmup", type=int, default=1, help="runs before measuring, not counted (default 1)")
    parser.add_argument("--timeout", type=float, default=20.0, help="give one run this many seconds (default 20)")
    parser.add_argument("--cold-avahi", action="store_true", help="restart h2's avahi-daemon before each run")
    parser.add_argument("--results", metavar="FILE", help="merge the two numbers into this results.json")
    parser.add_argument("--keep-logs", action="store_true")
    args = parser.parse_args()
    labkit.skip_unless_possible()

    times, misses = [], 0
    try:
        with Lab(hosts=2, keep_logs=args.keep_logs or None) as lab:
            existing, newcomer = lab.hosts
            existing.start_peerd("existing")
            existing_id = existing.status()["peer"]
            print(f"lab {lab.prefix}: existing peer on h1 ({existing_id[:8]}), new peer on h2; "
                  f"{args.warmup} warm-up + {args.runs} runs", flush=True)
            for run in range(args.warmup + args.runs):
                newcomer.stop_peerd()
                if args.cold_avahi:
                    newcomer.kill_avahi()
                    newcomer.start_avahi()
                # h1 has seen the old newcomer go (its session ended) before the clock starts again.
                eventually(lambda: not any(p.get("name") == "newcomer" and p.get("state") == "connected"
                                           for p in existing.peers()), 10, "h1's session with the old newcomer ended")
                elapsed = time_one_run(newcomer, existing_id, labkit.PEERD_PORT + 10 + run, args.timeout)
                label = "warm-up" if run < args.warmup else f"run {run - args.warmup + 1:2d}"
                if elapsed is None:
                    misses += 1
                    print(f"{label}: no session within {args.timeout:g} s", flush=True)
                    if not times and misses >= 2:
                        print("no run ever connected: giving up (is mDNS discovery in this peerd?)", flush=True)
                        lab.failed = True
                        break
                    continue
                print(f"{label}: {elapsed * 1000:7.1f} ms", flush=True)
                if run >= args.warmup:
                    times.append(elapsed)
    except LabSkip as skip:
        print(f"lab skipped: {skip}")
        return labkit.SKIP_EXIT_CODE
    except KeyboardInterrupt:
        print("\ninterrupted; the lab was torn down")
        return 130
    except HarnessError as error:
        print(f"benchmark failed: {error}")
        return 1

    if not times:
        print("discovery p50: n/a, p99: n/a (no run established a session)")
        return 1
    p50, p99 = percentile(times, 50), percentile(times, 99)
    met = p50 <= TARGET_P50 and misses == 0
    print(f"discovery p50: {p50:.3f} s (target ≤ {TARGET_P50} s: {'met' if met else 'MISSED'})")
    print(f"discovery p99: {p99:.3f} s")
    if args.results:
        missed = f", {misses} runs without a session in {args.timeout:g} s" if misses else ""
        detail = (f"{len(times)} runs, 2-host lab, fresh state dir and port each run, "
                  f"{'cold' if args.cold_avahi else 'warm'} avahi-daemon on the new host{missed}")
        rows = [
            {"measure": f"{MEASURE}, p50", "value": p50, "unit": "s", "target": f"≤ {TARGET_P50} s",
             "met": met, "detail": detail},
            {"measure": f"{MEASURE}, p99", "value": p99, "unit": "s", "target": "none", "met": misses == 0,
             "detail": f"{detail}; p99 has no target"},
        ]
        merge_results(args.results, rows)
        print(f"merged into {args.results}")
    return 0  # measured; a missed target shows in the numbers and in "met", as in peerd-bench


if __name__ == "__main__":
    sys.exit(main())
