"""The runner every integration suite shares: checks in order, one verdict line each, the tally and
the closing line CI reads.

    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
    from suite import Suite

    suite = Suite("catalog")
    suite.run([(title, check), ...], world)   # each check(world) returns a line saying what it measured
    return suite.finish()

A check prints `PASS  title (1.2 s)` or `FAIL  title (1.2 s)`, and under it what it measured (the
line it returned, then any notes it collected) or why it failed. It fails by raising CheckFailed
or HarnessError; any other exception is a bug in the check: `FAIL  title: unexpected error` with
the traceback, and the run goes on. A scenario that works out its own verdicts reports each with
`verdict()`. The last line is exactly `NAME: N passed, M failed`; the exit status is 0 when
something passed and nothing failed, else 1. A suite that can't run on this machine prints the one
line `NAME skipped: why` and exits 77 (`skip()`).
"""

import argparse
import contextlib
import signal
import sys
import time
import traceback

from harness import BIN_DIR, CheckFailed, HarnessError, indent, remove_scratch, scratch_dir

SKIP_EXIT_CODE = 77


class Suite:
    """One suite's run: its verdict lines, how many passed, failed and were skipped."""

    def __init__(self, name):
        self.name = name
        self.passed = self.failed = self.skipped = 0
        self.skip_reason = None
        self.started = self._last_verdict = time.monotonic()

    # MARK: checks

    def check(self, title, run, *args, notes=()):
        """Runs `run(*args)` as one check and prints its verdict; returns whether it passed.
        `notes` is a list the check appends lines to; they are printed under the verdict."""
        started = time.monotonic()
        try:
            detail = run(*args)
        except (CheckFailed, HarnessError) as error:
            self._print(False, title, time.monotonic() - started, [*notes, error])
            return False
        except Exception:  # a bug in the check: a failure, and the run goes on
            self.failed += 1
            print(f"FAIL  {title}: unexpected error", flush=True)
            print(indent("\n".join([*map(str, notes), traceback.format_exc()])), flush=True)
            return False
        self._print(True, title, time.monotonic() - started, [*([detail] if detail else []), *notes])
        return True

    def run(self, checks, *args, stop=None):
        """Runs each `(title, check)` of `checks` in order as `check(*args)`. After each, `stop()`
        may say why the run can't go on (a daemon died): that is one more failure, and the end."""
        for title, check in checks:
            self.check(title, check, *args)
            reason = stop() if stop else None
            if reason:
                what, _, detail = reason.partition("\n")
                self.fail(what, detail)
                return

    def verdict(self, title, ok, detail=""):
        """A check whose outcome the caller worked out, such as one step of a scenario; its time is
        the time since the previous verdict. Returns `ok`."""
        self._print(bool(ok), title, time.monotonic() - self._last_verdict, [detail] if detail else [])
        return bool(ok)

    def skip_check(self, title, why):
        self.skipped += 1
        print(f"SKIP  {title}: {why}", flush=True)

    def fail(self, what, detail=""):
        """A failure outside any check (the daemons did not start, one died)."""
        self.failed += 1
        print(f"FAIL  {what}", flush=True)
        if detail:
            print(indent(detail), flush=True)

    def _print(self, ok, title, seconds, lines):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
        print(f"{'PASS' if ok else 'FAIL'}  {title} ({seconds:.1f} s)", flush=True)
        for line in lines:
            print(indent(line), flush=True)
        self._last_verdict = time.monotonic()

    # MARK: the run

    def summary(self):
        return f"{self.name}: {self.passed} passed, {self.failed} failed"

    def finish(self):
        """Prints how long the run took and the closing line; returns the exit status."""
        skipped = f"{self.skipped} skipped, " if self.skipped else ""
        print(f"({skipped}{time.monotonic() - self.started:.0f} s in all)", flush=True)
        print(self.summary(), flush=True)
        return 0 if self.failed == 0 and self.passed > 0 else 1

    def skip(self, why):
        """The machine can't run this suite: one line saying why; returns 77."""
        self.skip_reason = str(why)
        print(f"{self.name} skipped: {why}", flush=True)
        return SKIP_EXIT_CODE

    def need_peerd(self):
        """True when BIN_DIR holds a peerd; else a failure that says where it looked."""
        if (BIN_DIR / "peerd").exists():
            return True
        self.fail(f"no peerd at {BIN_DIR / 'peerd'} (set PEERD_BIN_DIR)")
        return False

    @contextlib.contextmanager
    def work_dir(self, keep=False):
        """A scratch directory for the run's logs and states: removed after a clean run; kept, and
        named, after a failure or with `keep`; after a skip, kept only if the reason names it."""
        work = scratch_dir(self.name)
        try:
            yield work
        finally:
            if self.skip_reason is not None:
                keep = keep or str(work) in self.skip_reason  # kept quietly: the skip's line says enough
            elif self.failed or keep:
                print(f"{self.name}: logs kept in {work}", flush=True)
                keep = True
            if not keep:
                remove_scratch(work)


def exit_on_signals():
    """SIGTERM and SIGHUP end the run as Ctrl-C would (exit 130), through every `finally`."""
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, lambda s, f: sys.exit(130))


def main(name, description, checks, make_world):
    """The command line of a suite of checks on a world of daemons: `--keep` (the work directory
    even when all pass) and `--only WORDS` (checks whose title holds one); the world is made in the
    work directory, stopped at the end, and asked after each check whether it can go on (`dead()`,
    if it has one). Returns the exit status."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--keep", action="store_true", help="keep the work directory even when all pass")
    parser.add_argument("--only", nargs="*", help="run only checks whose title contains one of these")
    args = parser.parse_args()
    exit_on_signals()
    suite = Suite(name)
    if not suite.need_peerd():
        return suite.finish()
    with suite.work_dir(args.keep) as work:
        world = make_world(work)
        try:
            suite.run(selected(checks, args.only), world, stop=getattr(world, "dead", None))
        finally:
            world.stop()
    return suite.finish()


def selected(checks, only):
    """The `(title, check, ...)` entries whose title contains one of the words of `--only`; all without it."""
    return [c for c in checks if not only or any(word in c[0] for word in only)]
