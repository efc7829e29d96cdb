#!/usr/bin/env python3
"""Liveness under partitions, slow links and big meshes, on the LAN lab (`make test`).

Five hosts h1..h5 (alice, bob, carol, dave, erin), each with its own D-Bus, avahi-daemon and peerd;
they find each other over mDNS, so they form a full mesh. Cuts and loss are nftables drops on the
input hook inside the hosts (a drop on output would hand the sender EPERM, which real loss never
does). Writers run `peerctl add` and `peerctl remove` on the hosts while the network misbehaves;
every answer goes into a ledger, and every check ends with all lists identical, holding every
acknowledged add and no movie whose removal was acknowledged.

  1. partition: three 2|3 cuts (5, 10, 20 s) with adds and removals on both sides; the time from
     the heal until all five lists agree: median ≤ 2.0 s, each ≤ 10 s.
  2. loss: h1-h4 hold 10,000 operations; a fresh peer on h5, receiving with 40% loss, catches up
     within 240 s, and no session anywhere is closed for silence ("nothing received for").
  3. kill -9 of the fresh peer during its catch-up: what it had committed survives the restart,
     and it ends with every operation.
  4. flapping partitions: random 2|3 cuts of 1-2 s, healed for 1-2 s, six times, while adding.
  5. a one-way cut: h1 and h2 receive nothing from h3-h5 for 10 s, while adding on all.
  6. rolling restarts: every peerd restarted in turn (SIGTERM), each back in the mesh before the
     next, while adding on all.

Prints one line per check with what it measured and ends with exactly `liveness: N passed, M failed`.
Exit status: 0 all passed, 1 something failed, 77 the machine can't host the lab (one line,
`liveness skipped: <reason>`).

    sudo python3 integration/lab/test_liveness.py [--keep-logs]

Binaries come from $PEERD_BIN_DIR (default .build/debug).
"""
import argparse
import math
import os
import random
import shutil
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lab as labkit  # noqa: E402
from harness import CheckFailed, HarnessError, expect_eventually, indent, tail  # noqa: E402
from suite import Suite  # noqa: E402
from liveness_support import (  # noqa: E402
    CUT_TABLE, LOSS_TABLE, NAMES, Mesh, Writers, log_offsets, longest_stall, median, silence_closes,
)

MESH_WAIT = 60.0  # every host connected to every other
AGREE_WAIT = 60.0  # lists agreeing after the network is whole again (measured, then judged)
CUTS = (5, 10, 20)  # seconds each partition holds
HEAL_TARGET = 2.0  # median seconds from heal to identical lists
HEAL_LIMIT = 10.0  # the most any one heal may take
TOTAL_OPS = 10_000
LOSS_PERCENT = 40
LOSS_WAIT = 240.0
SEED_WAIT = 180.0
CATCH_UP_WAIT = 120.0  # the killed peer, restarted without loss
FLAPS = 6
ONE_WAY_HOLD = 10.0


class Context:
    def __init__(self, lab):
        self.lab = lab
        self.mesh = Mesh(lab)
        self.details = []

    def note(self, line):
        self.details.append(line)


def names(hosts):
    return ",".join(h.name for h in hosts)


def seconds_text(seconds, limit):
    """`seconds` for a check line; None or infinity (never reached) as more than `limit`."""
    return f"{seconds:.2f} s" if seconds is not None and math.isfinite(seconds) else f"> {limit:g} s"


def ready(ctx):
    """Every peerd running and every host connected to the other four."""
    ctx.mesh.ensure_running()
    ctx.mesh.wait_mesh(ctx.mesh.hosts, MESH_WAIT)


def agree_after(ctx, since, what):
    """Waits until all five lists agree with the ledger; returns the seconds since `since`."""
    seconds, wrong = ctx.mesh.time_to_agree(ctx.mesh.hosts, since, AGREE_WAIT)
    if seconds is None:
        raise CheckFailed(f"{what}: lists not identical with every acknowledged add within {AGREE_WAIT:g} s: "
                          f"{wrong}")
    return seconds


# MARK: checks


def check_partition(ctx):
    """Three 2|3 cuts with adds and removals on both sides; heal → identical lists, timed."""
    mesh = ctx.mesh
    ready(ctx)
    ctx.note("full mesh: every host connected to the other four")
    times, wrongs = [], []
    for i, hold in enumerate(CUTS):
        rotated = mesh.hosts[2 * i:] + mesh.hosts[:2 * i]
        side_a, side_b = rotated[:2], rotated[2:]
        seconds, wrong, writers = mesh.partition_round(side_a, side_b, hold, AGREE_WAIT, MESH_WAIT)
        ctx.note(f"{hold} s cut {names(side_a)} | {names(side_b)}: {writers.describe()}; "
                 f"heal → identical lists in {seconds_text(seconds, AGREE_WAIT)}")
        times.append(seconds if seconds is not None else math.inf)
        if wrong:
            wrongs.append(f"{hold} s cut: {wrong}")
    mid = median(times)
    numbers = (", ".join(f"{hold} s cut {seconds_text(t, AGREE_WAIT)}" for hold, t in zip(CUTS, times))
               + f"; median {seconds_text(mid, AGREE_WAIT)}")
    if wrongs or mid > HEAL_TARGET or max(times) > HEAL_LIMIT:
        raise CheckFailed(f"heal → identical: {numbers} (want median ≤ {HEAL_TARGET:g} s, "
                          f"each ≤ {HEAL_LIMIT:g} s)" + "".join(f"\n{w}" for w in wrongs))
    return f"heal → identical: {numbers} (≤ {HEAL_TARGET:g} s)"


def check_loss(ctx):
    """h1-h4 hold 10,000 operations; a fresh peer on h5 behind 40% loss catches up, and no session
    is closed for silence meanwhile."""
    mesh = ctx.mesh
    holders, fresh = mesh.hosts[:4], mesh.hosts[4]
    ready(ctx)
    fresh.stop_peerd()
    started = time.monotonic()
    added = mesh.seed(holders, TOTAL_OPS, SEED_WAIT)
    target = mesh.operations(holders[0])
    ctx.note(f"h1-h4 hold {target} operations ({added} adds pipelined on their control sockets, "
             f"{time.monotonic() - started:.1f} s until all four held them)")
    mesh.lossy(fresh, LOSS_PERCENT)
    offsets = log_offsets(mesh.hosts)
    try:
        seconds, samples = mesh.catch_up(fresh, target, LOSS_WAIT)
    finally:
        mesh.lossless(fresh)
    closes = silence_closes(mesh.hosts, offsets)
    step = max(1, len(samples) // 8)
    shown = samples[::step] + ([samples[-1]] if (len(samples) - 1) % step else [])
    ctx.note("progress: " + ", ".join(f"{t:.0f} s {n}" for t, n in shown))
    for line in closes[:5]:
        ctx.note(line)
    numbers = (f"{samples[-1][1]}/{target} ops in {seconds_text(seconds, LOSS_WAIT)} at {LOSS_PERCENT}% loss, "
               f"longest stall {longest_stall(samples):.0f} s, {len(closes)} sessions closed for silence")
    if seconds is None or closes:
        raise CheckFailed(numbers)
    return numbers


def check_kill_during_catch_up(ctx):
    """A fresh peer on h5 is killed (SIGKILL) while it catches up and restarted on the same state:
    what it had committed is still there, and it ends with every operation."""
    mesh = ctx.mesh
    holders, fresh = mesh.hosts[:4], mesh.hosts[4]
    ready(ctx)
    mesh.seed(holders, TOTAL_OPS, SEED_WAIT)
    target = mesh.operations(holders[0])
    fresh.stop_peerd()
    mesh.start(fresh, fresh_state=True)
    held = expect_eventually(lambda: mesh.operations(fresh), CATCH_UP_WAIT, "the fresh peer's first operations", 0.005)
    fresh.stop_peerd(signal.SIGKILL)
    ctx.note(f"killed with {held}/{target} operations")
    started = time.monotonic()
    mesh.start(fresh)
    kept = mesh.operations(fresh)
    if kept < held:
        raise CheckFailed(f"killed with {held} operations, restarted with {kept}: committed operations lost")
    seconds, wrong = mesh.time_to_agree(mesh.hosts, started, CATCH_UP_WAIT)
    numbers = (f"killed at {held}/{target} ops, restarted with {kept}, all lists identical "
               f"{seconds_text(seconds, CATCH_UP_WAIT)} after the restart")
    if seconds is None:
        raise CheckFailed(f"{numbers}: {wrong}")
    if held >= target:
        ctx.note("the catch-up had ended before the kill landed: this run tested a restart, "
                 "not an interrupted catch-up")
    return numbers


def check_flapping(ctx):
    """Random 2|3 cuts of 1-2 s, healed for 1-2 s, six times, while every host adds and removes."""
    mesh = ctx.mesh
    ready(ctx)
    flaps = []
    with Writers([mesh.hosts], mesh.ledger) as writers:
        for _ in range(FLAPS):
            side_a = random.sample(mesh.hosts, 2)
            side_b = [h for h in mesh.hosts if h not in side_a]
            mesh.partition(side_a, side_b)
            cut, whole = random.uniform(1, 2), random.uniform(1, 2)
            time.sleep(cut)
            mesh.heal()
            time.sleep(whole)
            flaps.append(f"{names(side_a)}|{names(side_b)} {cut:.1f} s")
    ctx.note("cuts: " + "; ".join(flaps))
    seconds = agree_after(ctx, time.monotonic(), "after the last flap")
    return f"{FLAPS} flaps, {writers.describe()}; identical {seconds:.2f} s after the writers stopped"


def check_one_way(ctx):
    """h1 and h2 receive nothing from h3-h5 for 10 s (h3-h5 still receive from them), while every
    host adds and removes."""
    mesh = ctx.mesh
    ready(ctx)
    side_a, side_b = mesh.hosts[:2], mesh.hosts[2:]
    mesh.cut(side_a, side_b)
    try:
        with Writers([side_a, side_b], mesh.ledger) as writers:
            time.sleep(ONE_WAY_HOLD)
    finally:
        since = mesh.heal()
    seconds = agree_after(ctx, since, "after the one-way cut healed")
    return f"{ONE_WAY_HOLD:g} s, {writers.describe()}; heal → identical in {seconds:.2f} s"


def check_rolling_restarts(ctx):
    """Every peerd restarted in turn (SIGTERM, then started on its state), each back in the full
    mesh before the next, while every host adds and removes."""
    mesh = ctx.mesh
    ready(ctx)
    back = []
    with Writers([mesh.hosts], mesh.ledger) as writers:
        for host in mesh.hosts:
            host.stop_peerd()
            started = time.monotonic()
            mesh.start(host)
            mesh.wait_mesh(mesh.hosts, MESH_WAIT)
            back.append(f"{host.name} {time.monotonic() - started:.1f} s")
    ctx.note("back in the full mesh after: " + ", ".join(back))
    seconds = agree_after(ctx, time.monotonic(), "after the rolling restarts")
    return f"5 restarts, {writers.describe()}; identical {seconds:.2f} s after the writers stopped"


CHECKS = [
    ("partition 2|3 (5, 10, 20 s cuts), heal → identical lists", check_partition),
    (f"catch-up of {TOTAL_OPS:,} ops by a fresh peer at {LOSS_PERCENT}% loss", check_loss),
    ("kill -9 of the fresh peer during catch-up, restart", check_kill_during_catch_up),
    ("flapping partitions while adding", check_flapping),
    ("one-way cut while adding", check_one_way),
    ("rolling restarts of all hosts while adding", check_rolling_restarts),
]


# MARK: running the checks



def print_logs(lab, lines=8):
    for host in lab.hosts:
        print(indent(f"--- {host.name}/peerd.log, last {lines} lines:"))
        print(indent(tail(host.dir / "peerd.log", lines), "          "), flush=True)
    print(indent(f"(every daemon's full log: {lab.run_dir}/<host>/*.log)"), flush=True)


def recover(ctx):
    """After a failed check, best effort: no cut or loss left, every peerd running, the full mesh."""
    for host in ctx.mesh.hosts:
        try:
            host.unfilter_input(CUT_TABLE)
            host.unfilter_input(LOSS_TABLE)
        except HarnessError:
            pass
    try:
        ready(ctx)
    except (CheckFailed, HarnessError) as error:
        print(indent(f"(recovery: {str(error).splitlines()[0]})"), flush=True)


def run_check(ctx, suite, title, check):
    """Runs one check: its verdict with what it measured and its details; after a failure, the
    peerd logs' tails and a recovery so the next check starts from a whole mesh."""
    ctx.details = []
    if not suite.check(f"liveness: {title}", check, ctx, notes=ctx.details):
        print_logs(ctx.lab)
        recover(ctx)


def skip_reason():
    reason = labkit.preflight()
    if reason is None and not shutil.which("nft"):
        reason = "needs nft to cut and slow links inside the hosts (apt-get install nftables)"
    return reason


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--keep-logs", action="store_true", help="keep the run's logs even when all pass")
    args = parser.parse_args()
    suite = Suite("liveness")
    reason = skip_reason()
    if reason:
        return suite.skip(reason)

    def run_checks(lab):
        ctx = Context(lab)
        for title, check in CHECKS:
            run_check(ctx, suite, title, check)

    def banner(lab):
        return (f"lab {lab.prefix}: h1-h5 ({', '.join(NAMES.values())}) with their own D-Bus, avahi-daemon "
                f"and peerd, a full mesh over mDNS; logs in {lab.run_dir}")
    return labkit.run_suite(suite, {"hosts": 5, "keep_logs": args.keep_logs or None}, banner, run_checks)


if __name__ == "__main__":
    sys.exit(main())
