"""What the relay suite's checks share (test_relay.py, lying_relay_check.py): the context they run
in, and bounded waits that say what every involved peerd shows when they run out."""

import os
import time

from harness import CheckFailed, expect_eventually
from houses import RELAY_IP, RELAY_PORT
from relay_page import HousePage
from relay_support import describe_peers, describe_relays

WAIT = float(os.environ.get("PEERD_LAB_WAIT", "20"))
BACK_WAIT = 3 * WAIT  # the relay back: each daemon's retry backoff, then a session, then the catch-up
RELAY_VIA = f"{RELAY_IP}:{RELAY_PORT}"


class Context:
    """What the checks share: the houses, each person's peer id, and notes for the verdict."""

    def __init__(self, houses):
        self.houses = houses
        self.alice, self.carol, self.bob = houses.alice, houses.carol, houses.bob
        self.people = [self.alice, self.carol, self.bob]
        self.ids = {}
        self.details = []
        self.lan_code = None
        self.relay_code = None
        self.page = HousePage(self.bob)  # bob's member page in Chromium, opened by check c'

    @property
    def names(self):
        return {peer: name for name, peer in self.ids.items()}

    def note(self, line):
        self.details.append(line)

    def id(self, host):
        return self.ids[host.name]

    def ensure_running(self):
        for host in self.people:
            if not host.peerd_running():
                host.start_peerd(host.name, group_secret=False)
            self.ids.setdefault(host.name, host.status()["peer"])

    def explain(self, hosts=None):
        hosts = hosts or self.people
        return "\n".join([describe_peers(h, self.names) for h in hosts] + [describe_relays(h) for h in hosts])


def wait_for(probe, what, timeout=WAIT, interval=0.2):
    return expect_eventually(probe, timeout, what, interval)


def waited(ctx, probe, what, timeout=WAIT, hosts=None):
    """`wait_for` that, when it runs out, says what every involved host shows; returns (value, seconds)."""
    started = time.monotonic()
    try:
        value = wait_for(probe, what, timeout)
    except CheckFailed as failure:
        raise CheckFailed(f"{failure}\n{ctx.explain(hosts)}") from None
    return value, time.monotonic() - started


def movie_ids(host):
    return {m["movieId"] for m in host.movies()}


def same_lists(hosts, expected):
    """True once every host lists every movie of `expected` and all lists are the same set."""
    sets = [movie_ids(h) for h in hosts]
    return all(s == sets[0] for s in sets) and expected <= sets[0]
