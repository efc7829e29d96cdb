#!/usr/bin/env python3
"""Says peerctl's common options once in its man page (make man).

    python3 scripts/man-common-options.py PAGE.1 [--options socket,json,version,help]

swift-argument-parser's generate-manual plugin writes every subcommand's options in full, and every
peerctl subcommand takes the common ones (ControlOptions' --socket and --json, and --version and
--help): 4 items and 8 lines of the page each, 45 times. This keeps them in the top-level list,
under a sentence saying that every subcommand takes them, and drops them from each subcommand's
list (a list left empty goes too). The page is rewritten in place; it prints how many it dropped.
"""
import argparse
import pathlib
import re
import sys

SAYS_ONCE = (".Pp\nThese options work with every subcommand, which lists only its own after them:"
             " the daemon's socket, JSON output, the version and help.")


def item_names(line):
    """The long names an `.It` line of options gives: `.It Fl h , -help` → {"help"}."""
    return set(re.findall(r"(?:^|\s)-([a-z][a-z0-9-]*)", line.removeprefix(".It ")))


def rewrite(lines, common):
    """The page's lines without the common options' items below the top-level list; how many went."""
    out, depth, dropping, dropped = [], 0, False, 0
    for line in lines:
        if line.startswith(".Bl"):
            depth += 1
        if line.startswith(".It") or line.startswith(".El") or line.startswith(".Bl"):
            dropping = False
        if line.startswith(".It") and depth >= 2 and item_names(line) and item_names(line) <= common:
            dropping, dropped = True, dropped + 1
        if line.startswith(".El"):
            depth -= 1
            if out and out[-1].startswith(".Bl"):  # a list left empty
                out.pop()
                continue
        if not dropping:
            out.append(line)
    return out, dropped


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("page", type=pathlib.Path)
    parser.add_argument("--options", default="socket,json,version,help")
    args = parser.parse_args()
    lines = args.page.read_text().split("\n")
    out, dropped = rewrite(lines, set(args.options.split(",")))
    if dropped == 0:
        print(f"{args.page}: no subcommand repeats the common options; left as it was")
        return 0
    first = next(i for i, line in enumerate(out) if line.startswith(".Bl"))
    out[first:first] = SAYS_ONCE.split("\n")
    args.page.write_text("\n".join(out))
    print(f"{args.page}: the common options said once; {dropped} repeats dropped, {len(lines)} → {len(out)} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
