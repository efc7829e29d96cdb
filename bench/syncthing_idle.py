#!/usr/bin/env python3
"""Syncthing's idle RSS and wakeups, for comparison with peerd's in the same `make bench` run.

Syncthing is what a user might run instead to keep a list in step between machines. It runs with a
throwaway home directory, no GUI, no browser, one process (no restart monitor), listening on
loopback only, and with everything that would reach beyond loopback or multicast turned off: global
and local discovery, relays, NAT traversal (UPnP/NAT-PMP and STUN), usage and crash reporting,
upgrades. On top of that it runs in a network namespace of its own that has only loopback
(`unshare --net`), so even a setting missed here could not reach the machine's network.

    sudo python3 bench/syncthing_idle.py [--settle 15] [--window 60] [--results bench/results.json]

Prints Syncthing's version, its VmRSS after --settle seconds, and its wakeups a second over the
--window seconds after that: voluntary context switches of all its threads, counted as peerd-bench
counts peerd's (bench/Sources/peerd-bench/Scenarios+Idle.swift). With --results, merges two rows into
that file's "results" array (as integration/lab/bench_discovery.py does). Exits 0 when it measured, 1 when
Syncthing failed, 77 with one "skipped:" line when Syncthing is not installed or this machine can't
make a network namespace (not root, or namespaces unavailable).
"""
import argparse
import os
import pathlib
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "integration" / "lab"))
from bench_discovery import merge_results  # noqa: E402

SKIP = 77
MEASURE = "Syncthing RSS, idle (for comparison)"
WAKEUPS = "Syncthing wakeups at rest (for comparison)"

# config.xml <options> that would otherwise reach beyond loopback, multicast, or open a browser.
OPTIONS = {
    "listenAddress": "tcp://127.0.0.1:22000",
    "globalAnnounceEnabled": "false",
    "localAnnounceEnabled": "false",
    "relaysEnabled": "false",
    "natEnabled": "false",
    "stunKeepaliveStartS": "0",  # 0 turns STUN off
    "announceLANAddresses": "false",
    "urAccepted": "-1",  # usage reporting declined
    "crashReportingEnabled": "false",
    "autoUpgradeIntervalH": "0",
    "startBrowser": "false",
    "restartOnWakeup": "false",
}
ENVIRONMENT = {"STNORESTART": "1", "STNOUPGRADE": "1", "STNODEFAULTFOLDER": "1", "STNOUPGRADECHECK": "1"}


def in_own_netns(command):
    """`command` in a new network namespace whose only interface is loopback, brought up."""
    return ["unshare", "--net", "sh", "-c", 'ip link set lo up && exec "$@"', "sh"] + command


def skip_reason(syncthing):
    if syncthing is None:
        return "syncthing is not installed (Debian: apt-get install syncthing)"
    if os.geteuid() != 0:
        return "a network namespace needs root"
    if shutil.which("unshare") is None or shutil.which("ip") is None:
        return "unshare (util-linux) and ip (iproute2) are needed"
    probe = subprocess.run(in_own_netns(["true"]), capture_output=True, text=True)
    if probe.returncode != 0:
        return f"can't make a network namespace: {probe.stderr.strip() or probe.returncode}"
    return None


def configure(home, environment):
    """Writes Syncthing's default config into `home` (inside a namespace), then turns off what reaches out."""
    subprocess.run(in_own_netns(["syncthing", "generate", f"--home={home}", "--no-default-folder"]),
                   env=environment, check=True, capture_output=True)
    path = home / "config.xml"
    tree = ET.parse(path)
    tree.getroot().find("gui").set("enabled", "false")
    options = tree.getroot().find("options")
    for name, value in OPTIONS.items():
        element = options.find(name)
        if element is None:
            element = ET.SubElement(options, name)
        element.text = value
    tree.write(path)


def resident_mb(pid):
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024  # kB → MB as peerd-bench counts (MiB)
    raise RuntimeError("no VmRSS")


def thread_switches(pid):
    """Each thread's voluntary context switches so far, by thread id (a thread that ends meanwhile is left out)."""
    counts = {}
    for task in pathlib.Path(f"/proc/{pid}/task").iterdir():
        try:
            status = (task / "status").read_text()
        except OSError:
            continue
        for line in status.splitlines():
            if line.startswith("voluntary_ctxt_switches:"):
                counts[task.name] = int(line.split()[1])
    return counts


def wakeups_per_second(pid, window, every=0.2):
    """Voluntary context switches of all of `pid`'s threads a second, over `window` seconds, sampled
    every `every` s so a thread that starts and ends within the window counts too (one born since
    counting began counts from zero)."""
    first = thread_switches(pid)
    last = dict(first)
    end = time.monotonic() + window
    while time.monotonic() < end:
        time.sleep(min(every, max(0.0, end - time.monotonic())))
        for tid, count in thread_switches(pid).items():
            first.setdefault(tid, 0)
            last[tid] = count
    return sum(last[tid] - first[tid] for tid in last) / window


def main():
    parser = argparse.ArgumentParser(description="Syncthing's idle RSS, loopback only, in its own netns")
    parser.add_argument("--settle", type=float, default=15.0, help="seconds idle before measuring (default 15)")
    parser.add_argument("--window", type=float, default=60.0,
                        help="seconds over which wakeups are counted, after --settle (default 60)")
    parser.add_argument("--results", metavar="FILE", help="merge the rows into this results.json")
    args = parser.parse_args()

    syncthing = shutil.which("syncthing")
    reason = skip_reason(syncthing)
    if reason:
        print(f"syncthing comparison skipped: {reason}")
        return SKIP
    version = subprocess.run(["syncthing", "--version"], capture_output=True, text=True).stdout.split()
    version = version[1] if len(version) > 1 else "unknown"

    with tempfile.TemporaryDirectory(prefix="bench-syncthing-") as scratch:
        home = pathlib.Path(scratch) / "home"
        environment = dict(os.environ, HOME=scratch, **ENVIRONMENT)
        configure(home, environment)
        command = ["syncthing", "serve", f"--home={home}", "--no-browser", "--no-restart", "--no-upgrade",
                   f"--logfile={scratch}/syncthing.log"]
        # unshare and sh exec in place, so the pid is syncthing's own.
        process = subprocess.Popen(in_own_netns(command), env=environment,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            time.sleep(args.settle)
            if process.poll() is not None:
                log = pathlib.Path(scratch, "syncthing.log")
                tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
                print(f"syncthing exited ({process.returncode}) before it settled\n{tail}")
                return 1
            rss = resident_mb(process.pid)
            wakeups = wakeups_per_second(process.pid, args.window)
        finally:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()

    print(f"syncthing {version}: idle RSS {rss:.1f} MB after {args.settle:g} s, "
          f"{wakeups:.2f} wakeups/s over the next {args.window:g} s")
    if args.results:
        setting = "no folders, no peers, no GUI, loopback only in its own network namespace"
        detail = f"Syncthing {version} from Debian, {args.settle:g} s after start, {setting}"
        wakeup_detail = (f"Syncthing {version} from Debian, voluntary context switches of all threads over "
                         f"{args.window:g} s from {args.settle:g} s after start; {setting}")
        merge_results(args.results, [
            {"measure": MEASURE, "value": rss, "unit": "MB", "target": "none", "met": True, "detail": detail},
            {"measure": WAKEUPS, "value": wakeups, "unit": "/s", "target": "none", "met": True,
             "detail": wakeup_detail},
        ])
        print(f"merged into {args.results}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
