#!/usr/bin/env python3
"""`make demo`: three machines on a virtual LAN run peerd with no configuration at all, find each
other over mDNS, and end up with the same watch list. Narrated for people; tears everything down
at the end, on errors and on Ctrl-C.

    sudo python3 integration/lab/demo.py [--pause] [--keep-logs]
"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lab as labkit  # noqa: E402
from harness import HarnessError, TimedOut, eventually  # noqa: E402
from lab import Lab, LabSkip  # noqa: E402

PEOPLE = ["alice", "bob", "carol"]
MOVIES = [  # (host index, TMDB id, title)
    (0, 603, "The Matrix"),
    (1, 550, "Fight Club"),
    (2, 13, "Forrest Gump"),
    (1, 680, "Pulp Fiction"),
    (0, 550, "Fight Club"),
]
WAIT = float(os.environ.get("PEERD_LAB_WAIT", "20"))


class Narrator:
    def __init__(self, pause):
        self.pause = pause
        self.step_number = 0

    def step(self, text):
        if self.pause and self.step_number:
            input("\n(press Enter to go on) ")
        self.step_number += 1
        print(f"\n== {self.step_number}. {text}", flush=True)

    @staticmethod
    def say(text=""):
        print(f"   {text}", flush=True)

    @staticmethod
    def show(text):
        for line in text.rstrip().splitlines():
            print(f"     | {line}")
        sys.stdout.flush()


def connected_names(host):
    return sorted(p.get("name") or "?" for p in host.peers() if p.get("state") == "connected")


def demo(lab, n):
    hosts = lab.hosts
    n.say(f"Built in {time.monotonic() - n.started:.1f} s: " + ", ".join(f"{h.name} ({h.ip})" for h in hosts) + ".")
    n.say("Nothing is shared between them but the wire; each has its own D-Bus and avahi-daemon.")

    n.step("Starting peerd on each host. No --peer flags: they must find each other through mDNS.")
    for host, person in zip(hosts, PEOPLE):
        host.start_peerd(person)
        status = host.status()
        n.say(f"{host.name}: peerd for {person}, peer id {status['peer'][:8]}…, port {status['port']}")

    n.step(f"Waiting (up to {WAIT:g} s) until every host is connected to the other two.")
    started = time.monotonic()
    try:
        eventually(lambda: all(len(connected_names(h)) >= 2 for h in hosts), WAIT, "all connected", 0.2)
        n.say(f"All connected after {time.monotonic() - started:.1f} s:")
        found = True
    except TimedOut:
        n.say(f"After {WAIT:g} s they still have not all found each other. What each one sees:")
        found = False
    for host, person in zip(hosts, PEOPLE):
        n.say(f"  {person} on {host.name} is connected to: {', '.join(connected_names(host)) or 'nobody'}")
    if not found:
        logs = [(h.dir / "peerd.log").read_text(errors="replace") for h in hosts]
        if any("mDNS discovery is not available in this build" in log for log in logs):
            n.say("peerd says: mDNS discovery is not available in this build yet. The lists below won't converge.")

    n.step("Adding movies on different hosts, each with that host's own peerctl.")
    for index, movie, title in MOVIES:
        host = hosts[index]
        result = host.peerctl("add", str(movie), "--title", title)
        said = (result.stdout or result.stderr).strip()
        n.say(f"{PEOPLE[index]} on {host.name}: peerctl add {movie} --title \"{title}\"  ->  {said}")

    n.step("Watching the lists converge.")
    started = time.monotonic()

    def converged():
        lists = [[(m["movieId"], tuple(m.get("addedBy", []))) for m in h.movies()] for h in hosts]
        return all(lst == lists[0] for lst in lists) and len(lists[0]) == len({m for _, m, _ in MOVIES})

    same = False
    if found:
        try:
            eventually(converged, WAIT, "same list everywhere")
            took = time.monotonic() - started
            n.say(f"Every host shows the same list, in the same order ({took:.2f} s after the last add).")
            same = True
        except TimedOut:
            n.say(f"After {WAIT:g} s the lists still differ.")
    else:
        n.say("They are not connected, so each host only has its own adds:")
    for host, person in zip(hosts, PEOPLE):
        n.say(f"peerctl list on {host.name} ({person}):")
        n.show(host.peerctl("list").stdout or "(empty)")
    if same:
        n.say("Fight Club was added by two people: it is one row that names both.")

    n.step("Who each host is talking to, and how it found them (peerctl peers).")
    sources = set()
    for host, person in zip(hosts, PEOPLE):
        n.say(f"peerctl peers on {host.name} ({person}):")
        n.show(host.peerctl("peers").stdout or "(no peers)")
        sources |= {p.get("source") for p in host.peers()}
    if sources == {"mdns"}:
        n.say("FOUND says mdns everywhere: nobody told any of them where the others are.")
    return found and same


def main():
    parser = argparse.ArgumentParser(description="peerd on a three-host virtual LAN, narrated.")
    parser.add_argument("--pause", action="store_true", help="wait for Enter between steps")
    parser.add_argument("--keep-logs", action="store_true", help="keep the daemons' logs afterwards")
    args = parser.parse_args()
    labkit.skip_unless_possible()
    n = Narrator(args.pause)
    ok = False
    try:
        n.step("Building a small LAN: three hosts on a virtual switch, in network namespaces.")
        n.started = time.monotonic()
        with Lab(hosts=3, keep_logs=args.keep_logs or None) as lab:
            try:
                ok = demo(lab, n)
            finally:
                lab.failed = lab.failed or not ok
                n.step("Tearing the LAN down: stopping every daemon and deleting the namespaces.")
        n.say("Done. Nothing is left running." + ("" if ok else f" Logs are in {lab.run_dir}."))
    except LabSkip as skip:
        print(f"lab skipped: {skip}")
        return labkit.SKIP_EXIT_CODE
    except KeyboardInterrupt:
        print("\n   Interrupted. The LAN was torn down; nothing is left running.")
        return 130
    except HarnessError as error:
        print(f"\n   The demo could not go on: {error}")
        return 1
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
