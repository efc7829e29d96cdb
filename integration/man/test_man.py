#!/usr/bin/env python3
"""The man pages as `man` shows them, after `make man` (make test, stage `man`).

    python3 integration/man/test_man.py [--only WORDS...]

peerctl's page says the options every subcommand takes (--socket, --json, --version, --help) once,
in the top-level list, and no subcommand repeats them (scripts/man-common-options.py); every
subcommand is still there. Prints one PASS/FAIL line per check (../suite.py) and the rendered
page's length, and ends with `man: N passed, M failed`.
"""
import argparse
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from harness import BIN_DIR, ROOT, CheckFailed  # noqa: E402
import suite  # noqa: E402

PAGES = ROOT / ".build" / "plugins" / "GenerateManual" / "outputs"
COMMON = {"socket": r"\.It Fl -socket", "json": r"\.It Fl -json", "version": r"\.It Fl -version",
          "help": r"\.It Fl h , -help"}


def rendered(page):
    """The page as `man` shows it on an 80-column terminal."""
    result = subprocess.run(["man", "-l", str(page)], capture_output=True, text=True,
                            env={**os.environ, "MANWIDTH": "80", "MAN_KEEP_FORMATTING": "0"})
    if result.returncode != 0:
        raise CheckFailed(f"man -l {page}: {result.stderr.strip()}")
    return result.stdout


def subcommands(command, path=()):
    """Every subcommand's name, depth first, as `peerctl --experimental-dump-help` lists them."""
    for sub in command.get("subcommands", []):
        yield (*path, sub["commandName"])
        yield from subcommands(sub, (*path, sub["commandName"]))


def check_common_options_once(_):
    page = PAGES / "peerctl" / "peerctl.1"
    if not page.exists():
        raise CheckFailed(f"no {page}: run make man first")
    text = page.read_text()
    items = {name: len(re.findall(pattern, text)) for name, pattern in COMMON.items()}
    if any(n != 1 for n in items.values()):
        raise CheckFailed(f"the common options' items in peerctl.1: {items} (each once, at the top)")
    dump = json.loads(subprocess.run([str(BIN_DIR / "peerctl"), "--experimental-dump-help"], capture_output=True,
                                     text=True, check=True).stdout)["command"]
    names = [path[-1] for path in subcommands(dump)]
    missing = [name for name in names if not re.search(rf"^\.It Em {re.escape(name)}$", text, re.M)]
    if missing:
        raise CheckFailed(f"subcommands missing from peerctl.1: {missing}")
    shown = rendered(page)
    if "work with every subcommand" not in shown:
        raise CheckFailed("peerctl.1 doesn't say that every subcommand takes the common options")
    return (f"--socket, --json, --version and --help once, for all {len(names)} subcommands; "
            f"`man peerctl` is {len(shown.splitlines())} lines at 80 columns")


CHECKS = [("peerctl.1 says the common options once, and lists every subcommand", check_common_options_once)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", nargs="*", help="run only checks whose title contains one of these")
    args = parser.parse_args()
    run = suite.Suite("man")
    if shutil.which("man") is None:
        return run.skip("man isn't installed (man-db)")
    if run.need_peerd():
        run.run(suite.selected(CHECKS, args.only), None)
    return run.finish()


if __name__ == "__main__":
    sys.exit(main())
