#!/usr/bin/env python3
"""A flood of TCP connections at a guest door, run INSIDE a host's network namespace:

    nsenter -t ANCHOR -m -n python3 flood.py --address 10.77.0.1 --port 7603 --count 1000

Opens `count` connections at once (non-blocking). Every even one sends a request with a made-up
capability (`GET /g/<22 random characters>/state`, keep-alive) as soon as it is connected; every odd
one connects and sends nothing. Prints one JSON line `{"event": "up", ...}` once every connect has
succeeded or failed (or `--connect-timeout` passed), then keeps every connection open, reading what
the server sends, until a line comes on stdin (or stdin closes); then closes them all and prints
`{"event": "done", ...}`. Counts: connected, failed (by error), answers by status, and connections
the server closed, for the requesting and the idle half apart.
"""
import argparse
import base64
import errno
import json
import os
import resource
import selectors
import socket
import sys
import time


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--address", required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--connect-timeout", type=float, default=20.0)
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = args.count + 256
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, max(hard, want)))

    sel = selectors.DefaultSelector()
    conns = {}  # fd -> state
    stats = {"connected": 0, "failed": {}, "answers": {}, "closedByServer": {"requesting": 0, "idle": 0},
             "resetByServer": {"requesting": 0, "idle": 0}, "bytesFromIdle": 0}
    started = time.monotonic()
    for i in range(args.count):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setblocking(False)
        code = s.connect_ex((args.address, args.port))
        if code not in (0, errno.EINPROGRESS):
            stats["failed"][errno.errorcode.get(code, str(code))] = stats["failed"].get(
                errno.errorcode.get(code, str(code)), 0) + 1
            s.close()
            continue
        state = {"sock": s, "kind": "requesting" if i % 2 == 0 else "idle", "phase": "connecting", "buf": b""}
        conns[s.fileno()] = state
        sel.register(s, selectors.EVENT_WRITE, state)

    def count(table, key):
        table[key] = table.get(key, 0) + 1

    def close(state, why=None):
        try:
            sel.unregister(state["sock"])
        except (KeyError, ValueError):
            pass
        state["sock"].close()
        state["phase"] = "closed"
        if why:
            stats[why][state["kind"]] += 1

    def step(timeout):
        for key, events in sel.select(timeout):
            if key.data == "stdin":
                return True
            state = key.data
            s = state["sock"]
            if state["phase"] == "connecting":
                err = s.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
                if err:
                    count(stats["failed"], errno.errorcode.get(err, str(err)))
                    close(state)
                    continue
                stats["connected"] += 1
                state["phase"] = "open"
                if state["kind"] == "requesting":
                    cap = base64.urlsafe_b64encode(os.urandom(16)).decode().rstrip("=")
                    request = (f"GET /g/{cap}/state HTTP/1.1\r\nHost: {args.address}:{args.port}\r\n"
                               "Connection: keep-alive\r\n\r\n").encode()
                    try:
                        s.send(request)
                    except OSError as error:
                        count(stats["failed"], f"send {errno.errorcode.get(error.errno, error.errno)}")
                        close(state)
                        continue
                sel.modify(s, selectors.EVENT_READ, state)
                continue
            try:
                data = s.recv(65536)
            except ConnectionResetError:
                close(state, "resetByServer")
                continue
            except OSError as error:
                count(stats["failed"], f"recv {errno.errorcode.get(error.errno, error.errno)}")
                close(state)
                continue
            if not data:
                close(state, "closedByServer")
                continue
            if state["kind"] == "idle":
                stats["bytesFromIdle"] += len(data)
            state["buf"] += data
            while b"\r\n" in state["buf"] and state["buf"].startswith(b"HTTP/1."):
                line, _, _ = state["buf"].partition(b"\r\n")
                parts = line.split()
                count(stats["answers"], parts[1].decode() if len(parts) > 1 else "?")
                state["buf"] = b""  # one status per connection is enough to count
        return False

    deadline = started + args.connect_timeout
    while any(c["phase"] == "connecting" for c in conns.values()) and time.monotonic() < deadline:
        step(0.05)
    pending = sum(1 for c in conns.values() if c["phase"] == "connecting")
    for state in list(conns.values()):
        if state["phase"] == "connecting":
            count(stats["failed"], "connect-timeout")
            close(state)
    up = {"event": "up", "seconds": round(time.monotonic() - started, 2), "pendingAtTimeout": pending,
          "openNow": sum(1 for c in conns.values() if c["phase"] == "open"), **stats}
    print(json.dumps(up), flush=True)

    sel.register(sys.stdin, selectors.EVENT_READ, "stdin")
    while not step(0.2):
        pass
    open_at_release = sum(1 for c in conns.values() if c["phase"] == "open")
    for state in list(conns.values()):
        if state["phase"] == "open":
            close(state)
    print(json.dumps({"event": "done", "openAtRelease": open_at_release,
                      "seconds": round(time.monotonic() - started, 2), **stats}), flush=True)


if __name__ == "__main__":
    main()
