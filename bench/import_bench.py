#!/usr/bin/env python3
"""`peerctl import` of a Letterboxd watchlist of 1,000 rows, for `make bench`: one peerd on loopback
holding a TMDB token of the fake TMDB (integration/catalog/fake_tmdb.py, its made-up movies), which
answers every request after 50 ms, as a distant server would.

    PEERD_BIN_DIR=.build/release python3 bench/import_bench.py [--rows 1000] [--latency-ms 50] \
        [--results bench/results.json]

Each row names its movie by title and year only ("Movie N", 2000), as Letterboxd's do, so each is
one search on TMDB; the rows become 1,000 adds and 1,000 wants. Measured: the wall time of
`peerctl import` (target ≤ 60 s), and the peak RSS of peerd (VmHWM, its whole life) and of peerctl.
Prints the rows; with --results, merges them into that file's "results".
"""
import argparse
import pathlib
import resource
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "integration"))
sys.path.insert(0, str(ROOT / "integration" / "catalog"))
sys.path.insert(0, str(ROOT / "integration" / "imports"))
sys.path.insert(0, str(ROOT / "integration" / "lab"))
import files  # noqa: E402
import harness  # noqa: E402
from fake_tmdb import FakeTMDB  # noqa: E402
from test_catalog import v4_token, write_secret_file  # noqa: E402

WALL = "import of 1,000 Letterboxd rows (TMDB at 50 ms), wall time"
PEAK = "import of 1,000 Letterboxd rows, peak RSS of peerd"
TARGET_S = 60


def peak_rss(pid):
    with open(f"/proc/{pid}/status") as f:
        return next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmHWM:"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=1000)
    parser.add_argument("--latency-ms", type=int, default=50)
    parser.add_argument("--results", metavar="FILE")
    args = parser.parse_args()
    work = pathlib.Path(tempfile.mkdtemp(prefix="peerd-import-bench-"))
    token = v4_token()
    fake = FakeTMDB([token], synthetic=True).start()
    fake.set_fault("ok", latency_ms=args.latency_ms)
    token_file = write_secret_file(work / "tmdb.token", token)
    alice = harness.Peerd(work, "alice", harness.free_port(), args=[
        "--no-web", "--no-guests", "--tmdb-url", fake.url, "--tmdb-token-file", token_file])
    path = files.made_up_watchlist(work / "watchlist.csv", args.rows, first=10_000)
    try:
        alice.start()
        started = time.monotonic()
        result = subprocess.run(harness.peerctl_argv(alice.socket, "import", path), capture_output=True, text=True,
                                cwd=work, timeout=900)
        wall = time.monotonic() - started
        daemon_peak = peak_rss(alice.proc.pid)
        listed = len(alice.movie_ids())
    finally:
        alice.stop()
        fake.stop()
    if result.returncode != 0 or listed != args.rows:
        print(f"the import failed ({result.returncode}, {listed} listed): {result.stderr[-800:]}")
        return 1
    peerctl_peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    searches = fake.count("/3/search/movie")
    rows = [
        {"measure": WALL, "value": wall, "unit": "s", "target": f"≤ {TARGET_S} s", "met": wall <= TARGET_S,
         "detail": f"{args.rows} rows by title and year, {searches} searches ({searches / wall:.1f}/s; imports pace "
                   f"at most 40/s), {args.rows / wall:.1f} rows/s; {result.stdout.strip().splitlines()[0]}"},
        {"measure": PEAK, "value": daemon_peak / 1e6, "unit": "MB", "target": "—", "met": True,
         "detail": f"VmHWM over the daemon's life, {listed} movies listed at the end; peerctl's peak "
                   f"{peerctl_peak:.1f} MB"},
    ]
    for row in rows:
        print(f"{row['measure']}: {row['value']:.1f} {row['unit']} (target {row['target']}) — {row['detail']}")
    if args.results:
        from bench_discovery import merge_results
        merge_results(args.results, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
