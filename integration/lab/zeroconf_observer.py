#!/usr/bin/env python3
"""An independent mDNS view: python-zeroconf browses one service type on one interface address and
prints a JSON line per change, until SIGTERM or SIGINT.

    {"event": "added"|"updated", "name": ..., "server": ..., "port": ..., "addresses": [...], "txt": {...}}
    {"event": "removed", "name": ...}

The lab runs it on its observer host, which has no avahi-daemon: nothing of Avahi is involved.
"""
import argparse
import json
import queue
import signal
import sys
import threading

from zeroconf import ServiceBrowser, ServiceInfo, ServiceStateChange, Zeroconf


def emit(event):
    sys.stdout.write(json.dumps(event, sort_keys=True) + "\n")
    sys.stdout.flush()


def txt_of(info):
    txt = {}
    for key, value in (info.properties or {}).items():
        name = key.decode(errors="replace") if isinstance(key, bytes) else str(key)
        txt[name] = value.decode(errors="replace") if isinstance(value, bytes) else value
    return txt


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--interface", required=True, help="the IPv4 address to use, e.g. 10.77.0.200")
    parser.add_argument("--type", default="_watchlist._tcp.local.")
    args = parser.parse_args()

    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())

    zc = Zeroconf(interfaces=[args.interface])
    pending = queue.Queue()

    def on_change(zeroconf, service_type, name, state_change):
        # Resolution blocks; do it on the worker, never on the browser's thread.
        pending.put((service_type, name, state_change))

    def resolve():
        while not stop.is_set():
            try:
                service_type, name, change = pending.get(timeout=0.2)
            except queue.Empty:
                continue
            if change is ServiceStateChange.Removed:
                emit({"event": "removed", "name": name})
                continue
            info = ServiceInfo(service_type, name)
            if not info.request(zc, 3000):
                print(f"could not resolve {name}", file=sys.stderr, flush=True)
                continue
            emit(
                {
                    "event": "added" if change is ServiceStateChange.Added else "updated",
                    "name": name,
                    "server": info.server,
                    "port": info.port,
                    "addresses": info.parsed_scoped_addresses(),
                    "txt": txt_of(info),
                }
            )

    worker = threading.Thread(target=resolve, daemon=True)
    worker.start()
    browser = ServiceBrowser(zc, args.type, handlers=[on_change])
    print(f"browsing {args.type} on {args.interface}", file=sys.stderr, flush=True)
    try:
        while not stop.wait(0.5):
            pass
    finally:
        browser.cancel()
        zc.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
