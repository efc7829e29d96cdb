#!/usr/bin/env python3
"""A pick's guest door (proto/WEB.md, "Guests") under load, for `make bench`: one peerd (alice) on
loopback with a pick of 20 listed movies open, its guest door on 127.0.0.1.

    PEERD_BIN_DIR=.build/release python3 bench/guest_bench.py [--guests 20] [--flood 1000] \
        [--results bench/results.json]

1. --guests guests vote at once: each from an address of its own (127.0.0.N: the door limits
   each address to 20 requests a second, as each phone has its own), joins, then all start
   together at a barrier and vote on every card of the deck as fast as the answers come back.
   Each vote's time from sending to its answer (the pick as the guest sees it): p50 and p99
   (target p99 ≤ 250 ms).
2. A flood of --flood connections to the door from 127.0.0.N addresses, half asking for bad
   capabilities, half opened and left idle: alice's RSS before and at its peak (target: ≤ 10 MB
   more), and a member's request on the page (`pickStatus` through `/api/request`) before and
   during the flood: p50 of each (target: during ≤ 2× before, at least 5 ms of room).

Prints a table like peerd-bench's; with --results, merges its rows into that file's "results".
Exits 0 when it measured (a missed target shows in "met"), 1 when it could not.
"""
import argparse
import http.client
import json
import pathlib
import socket
import statistics
import sys
import tempfile
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "integration"))
sys.path.insert(0, str(ROOT / "integration" / "web"))
sys.path.insert(0, str(ROOT / "integration" / "lab"))
import harness  # noqa: E402
import web_support as ws  # noqa: E402

GUESTS = "20 guests voting at once, a vote → its answer"
FLOOD_RSS = "RSS growth under a guest flood"
FLOOD_MEMBER = "a member's request during a guest flood, p50"
VOTE_P99_TARGET_MS = 250
RSS_TARGET_MB = 10
DECK = 20


def rss(pid):
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmRSS:"))


class Door:
    """The guest door's base URL, and requests to it from one source address on one connection."""

    def __init__(self, url):
        self.host, rest = url.removeprefix("http://").split("/", 1)
        self.port = int(self.host.rsplit(":", 1)[1])
        self.path = "/" + rest

    def connection(self, source):
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=10, source_address=(source, 0))

    def post(self, conn, route, body, token=None):
        headers = {"Host": self.host, "Origin": f"http://{self.host}", "Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Guest {token}"
        conn.request("POST", self.path + route, body=json.dumps(body), headers=headers)
        answer = conn.getresponse()
        return answer.status, json.loads(answer.read() or b"null")


def guest_votes(door, index, deck, barrier, latencies, errors):
    source = f"127.0.0.{10 + index}"
    conn = door.connection(source)
    try:
        status, joined = door.post(conn, "join", {"name": f"Guest {index}"})
        if status != 200:
            raise RuntimeError(f"join: {status} {joined}")
        barrier.wait()
        for n, movie in enumerate(deck):
            started = time.perf_counter()
            status, answer = door.post(conn, "vote", {"movie": movie, "yes": (n + index) % 3 == 0}, joined["token"])
            latencies.append((time.perf_counter() - started) * 1000)
            if status != 200:
                raise RuntimeError(f"vote: {status} {answer}")
    except Exception as error:  # noqa: BLE001 — reported, and the bench fails
        errors.append(f"{source}: {error}")
        barrier.abort()
    finally:
        conn.close()


def measure_guests(door, count, deck):
    barrier, latencies, errors = threading.Barrier(count), [], []
    threads = [threading.Thread(target=guest_votes, args=(door, i, deck, barrier, latencies, errors))
               for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise harness.HarnessError(f"guests failed: {errors[:3]}")
    return latencies


def member_p50(api, count=100):
    times = []
    for _ in range(count):
        started = time.perf_counter()
        answer = api.call("POST", "/api/request", {"type": "pickStatus", "version": 1})
        times.append((time.perf_counter() - started) * 1000)
        if answer.status != 200 or b'"pickState"' not in answer.body:
            raise harness.HarnessError(f"pickStatus on the page: {answer.status} {answer.body[:200]!r}")
    return statistics.median(times)


def flood(door, count):
    """`count` connections from 127.0.0.N: every other one asks for a bad capability and keeps the
    connection open, the rest just connect. Returns the open sockets (the caller closes them)."""
    sockets = []
    for n in range(count):
        sock = socket.socket()
        sock.bind((f"127.0.{1 + n // 250}.{1 + n % 250}", 0))
        sock.connect(("127.0.0.1", door.port))
        if n % 2 == 0:
            sock.sendall(f"GET /g/{'A' * 22}/state HTTP/1.1\r\nHost: {door.host}\r\n\r\n".encode())
        sockets.append(sock)
    return sockets


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--guests", type=int, default=20)
    parser.add_argument("--flood", type=int, default=1000)
    parser.add_argument("--results", metavar="FILE")
    args = parser.parse_args()
    work = pathlib.Path(tempfile.mkdtemp(prefix="peerd-guest-bench-"))
    secret = harness.write_group_secret(work / "group.secret")
    alice = ws.WebPeerd(work, "alice", harness.free_port(), harness.free_port(), secret)
    try:
        alice.start()
        url = alice.wait_page()
        api = ws.Api(int(url.split(":")[2].split("/")[0]), alice.token())
        for movie in range(1, DECK + 1):
            alice.peerctl("add", str(1000 + movie), "--title", f"Movie {movie}")
        pick = alice.peerctl_json("pick", "--mode", "majority")
        if "url" not in pick.get("guests", {}):
            raise harness.HarnessError(f"the pick has no guest link: {pick.get('guests')}")
        door = Door(pick["guests"]["url"])
        deck = [card["movieId"] for card in pick["deck"]]
        measure_guests(door, 2, deck[:2])  # warm up: connections, the first JSON
        latencies = measure_guests(door, args.guests, deck)
        idle = member_p50(api)
        before = rss(alice.proc.pid)
        sockets = flood(door, args.flood)
        peak = rss(alice.proc.pid)
        during = member_p50(api)
        peak = max(peak, rss(alice.proc.pid))
        for sock in sockets:
            sock.close()
    finally:
        alice.stop()
    p50, p99 = ws.percentile(latencies, 50), ws.percentile(latencies, 99)
    grew = (peak - before) / 1e6
    rows = [
        {"measure": f"{GUESTS}, p99", "value": p99, "unit": "ms", "target": f"≤ {VOTE_P99_TARGET_MS} ms",
         "met": p99 <= VOTE_P99_TARGET_MS,
         "detail": f"p50 {p50:.1f} ms; {len(latencies)} votes, {args.guests} guests × {len(deck)} cards, "
                   "each guest from its own 127.0.0.N, all at once"},
        {"measure": FLOOD_RSS, "value": grew, "unit": "MB", "target": f"≤ {RSS_TARGET_MB} MB",
         "met": grew <= RSS_TARGET_MB,
         "detail": f"{args.flood} connections (half asking for bad capabilities, half idle): "
                   f"{before / 1e6:.1f} → {peak / 1e6:.1f} MB"},
        {"measure": FLOOD_MEMBER, "value": during, "unit": "ms", "target": "≤ 2× at rest (+5 ms)",
         "met": during <= 2 * idle + 5,
         "detail": f"pickStatus through the page's API: {idle:.2f} ms at rest, {during:.2f} ms with "
                   f"{args.flood} guest connections open"},
    ]
    for row in rows:
        print(f"{row['measure']}: {row['value']:.2f} {row['unit']} (target {row['target']}: "
              f"{'met' if row['met'] else 'MISSED'}) — {row['detail']}")
    if args.results:
        from bench_discovery import merge_results
        merge_results(args.results, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
