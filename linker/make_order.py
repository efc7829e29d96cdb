#!/usr/bin/env python3
"""Writes linker/peerd.order: the functions peerd runs, so the release link puts them side by side.

Why: the kernel maps a file-backed page together with up to 15 cached neighbours (fault-around,
64 KiB) on every read fault, so each function a daemon runs makes its whole 64 KiB window of the
executable resident. The functions peerd runs at start are spread over 18 MB of text: laid out
in the link's default order they made 13 MB of it resident; side by side they take about 4 MB.

How: peerd runs under callgrind (valgrind), which names every function executed, twice: started
idle and stopped with SIGTERM, then as every daemon of `peerd-bench --quick` (peers, adds,
catch-up, a log loaded at start, peerctl). The order file lists the functions the idle daemon ran
first, then those only the benchmark ran; each group sorted by name so a new order diffs well.
A function missing from the file (new or renamed code) is only placed later: nothing breaks,
that code just costs more memory until the file is made again.

    python3 linker/make_order.py [--bin-dir .build/release]     (after `make bench`; a few minutes)

With --idle-only it profiles only the idle daemon and keeps the rest of the current file after it:
what an idle daemon runs is laid out anew in a minute or two, without the benchmark under callgrind.

valgrind 3.19 can't read the DWARF 5 the Swift toolchain writes, so it runs a copy of peerd
without debug information (`objcopy --strip-debug`): same code, same symbols.
"""
import argparse
import os
import pathlib
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
HEADER = """\
# Functions peerd runs, in the order the release link lays them out (Makefile RELEASE,
# --symbol-ordering-file). Made by linker/make_order.py: idle start first, then the benchmark.
"""


def callgrind(out_pattern):
    # --dump-every-bb: the benchmark ends most daemons with SIGKILL, which loses an undumped tail.
    return ["valgrind", "--tool=callgrind", "--demangle=no", f"--callgrind-out-file={out_pattern}",
            "--dump-every-bb=20000000"]


def executed(files):
    """Names of the functions callgrind saw run (its `fn=` entries) in `files`."""
    names = set()
    for path in files:
        ids = {}
        for line in open(path, errors="replace"):
            match = re.match(r"^(c?fn)=\((\d+)\)(?: (.*))?$", line.rstrip("\n"))
            if not match:
                continue
            kind, number, name = match.groups()
            if name is not None:
                ids[number] = name
            if kind == "fn" and number in ids:
                names.add(ids[number])
    return names


def run_idle(peerd, peerctl, scratch, seconds):
    """peerd started idle as the unit starts it (the page and the guest door on, NOTIFY_SOCKET set),
    asked its status once, left `seconds`, then stopped with SIGTERM (so the shutdown runs too)."""
    state = scratch / "idle"
    state.mkdir()
    ready = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    ready.bind(str(state / "notify.sock"))
    ready.settimeout(120)
    process = subprocess.Popen(
        callgrind(str(scratch / "cg-idle.%p")) + [str(peerd), "--no-mdns", "--port", "0", "--web-port", "0", "--listen-address",
                                                   "127.0.0.1", "--state-dir", str(state / "state"),
                                                   "--socket", str(state / "control.sock")],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        env={**{k: v for k, v in os.environ.items() if k != "TMDB_TOKEN"},
             "NOTIFY_SOCKET": str(state / "notify.sock"), "XDG_CONFIG_HOME": str(state / "config")})
    while b"READY=1" not in ready.recv(4096):
        pass
    subprocess.run([str(peerctl), "--socket", str(state / "control.sock"), "status"], stdout=subprocess.DEVNULL)
    time.sleep(seconds)
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=60)
    return sorted(scratch.glob("cg-idle.*"))


def run_bench(peerd, bin_dir, scratch):
    """Every daemon of `peerd-bench --quick` under callgrind, through a `peerd` that starts it so."""
    wrapped = scratch / "bin"
    wrapped.mkdir()
    command = " ".join(callgrind(str(scratch / "cg-bench.%p")) + [str(peerd), '"$@"'])
    (wrapped / "peerd").write_text(f"#!/bin/sh\nexec {command}\n")
    (wrapped / "peerd").chmod(0o755)
    (wrapped / "peerctl").symlink_to(bin_dir / "peerctl")
    subprocess.run([str(bin_dir / "peerd-bench"), "--quick", "--bin-dir", str(wrapped),
                    "--results", str(scratch / "results.json")], check=True, stdout=subprocess.DEVNULL)
    return sorted(scratch.glob("cg-bench.*"))


def main():
    parser = argparse.ArgumentParser(description="Profile peerd and write the link's function order.")
    parser.add_argument("--bin-dir", default=str(ROOT / ".build" / "release"), type=pathlib.Path,
                        help="release peerd, peerctl and peerd-bench (default .build/release)")
    parser.add_argument("--out", default=str(ROOT / "linker" / "peerd.order"), type=pathlib.Path)
    parser.add_argument("--idle-seconds", type=float, default=5.0)
    parser.add_argument("--idle-only", action="store_true",
                        help="profile the idle daemon only; the current file's other functions follow, in their order")
    args = parser.parse_args()
    for tool in ("valgrind", "objcopy", "nm"):
        if shutil.which(tool) is None:
            sys.exit(f"{tool} is needed (Debian: apt-get install valgrind binutils)")
    bin_dir = args.bin_dir.resolve()

    with tempfile.TemporaryDirectory(prefix="peerd-order-") as scratch:
        scratch = pathlib.Path(scratch)
        peerd = scratch / "peerd"
        subprocess.run(["objcopy", "--strip-debug", str(bin_dir / "peerd"), str(peerd)], check=True)
        print("profiling an idle peerd…", flush=True)
        idle = executed(run_idle(peerd, bin_dir / "peerctl", scratch, args.idle_seconds))
        if args.idle_only:
            bench = [name for name in args.out.read_text().splitlines() if name and not name.startswith("#")]
        else:
            print("profiling peerd-bench --quick (every daemon under callgrind)…", flush=True)
            bench = sorted(executed(run_bench(peerd, bin_dir, scratch)))
        defined = set(subprocess.run(["nm", "--defined-only", "--format=just-symbols", str(peerd)],
                                     capture_output=True, text=True, check=True).stdout.split())

    first = sorted(idle & defined)
    then = [name for name in bench if name not in idle and name in defined]
    args.out.write_text(HEADER + "\n".join(first + then) + "\n")
    print(f"wrote {args.out}: {len(first)} functions run idle, {len(then)} more in the benchmark")


if __name__ == "__main__":
    main()
