"""Three real peerd on loopback, paired by one group secret: alice dials bob and carol, carol dials
bob. What the marks, picks and catalog suites share: starting and stopping them, waiting until they
are connected or hold every operation made, running scripts at once, and reading a refused peerctl.
(The catalog's daemons add a fake TMDB and alice's token to these.)"""

import json
import threading

import harness
from harness import CheckFailed, expect_eventually

SYNC_WAIT = 20.0  # s: an operation made on one daemon is on the other two (loopback: well under 1 s)


def shorten(value, limit=600):
    text = str(value)
    return text if len(text) <= limit else text[:limit] + "…"


def said(result):
    """What a failed `peerctl ... --json` said: its error's code and message, else its stderr."""
    try:
        error = json.loads(result.stdout)
        return f"{error['code']}: {error['message']}"
    except (ValueError, KeyError, TypeError):
        return result.stderr.strip() or result.stdout.strip()


class Daemon(harness.Peerd):
    """One of the three: debug log, the group secret, the peers it dials."""

    def __init__(self, trio, name, dials=()):
        self.trio = trio
        if name not in trio.ports:  # one more than the three (a check's own): a port of its own
            trio.ports[name] = harness.free_port()
        super().__init__(trio.work, name, trio.ports[name])
        self.dial(dials)

    def dial(self, dials):
        """The command line of its next start: dialling `dials` (none: nobody reaches it, as bob
        and carol never dial it themselves)."""
        self.dials = list(dials)
        peers = [a for p in dials for a in ("--peer", f"127.0.0.1:{self.trio.ports[p]}")]
        self.args = ["--log-level", "debug", "--group-secret-file", str(self.trio.secret), *peers]

    def operations(self):
        return self.status()["operations"]


class Trio:
    """alice, bob and carol, started on first use; `total` counts the operations made through
    the suite, which `settle` waits for every daemon to hold."""

    label = "trio"
    daemon_class = Daemon

    def __init__(self, work):
        self.work = work
        self.secret = harness.write_group_secret(work / "group.secret")
        self.ports = {n: harness.free_port() for n in ("alice", "bob", "carol")}
        self.alice = self.bob = self.carol = None
        self.daemons = []
        self.total = 0  # operations every daemon holds once the last `settle` returns
        self.lock = threading.Lock()

    def up(self):
        if self.alice:
            return
        self.bob = self.track(self.daemon_class(self, "bob")).start()
        self.carol = self.track(self.daemon_class(self, "carol", ["bob"])).start()
        self.alice = self.track(self.daemon_class(self, "alice", ["bob", "carol"])).start()
        self.connected()
        print(f"{self.label}: alice {self.alice.id[:8]}, bob {self.bob.id[:8]}, carol {self.carol.id[:8]}; "
              f"work dir {self.work}", flush=True)

    def track(self, daemon):
        self.daemons.append(daemon)
        return daemon

    def all(self):
        return [self.alice, self.bob, self.carol]

    def member(self, name):
        return next(d for d in self.all() if d.name == name)

    def connected(self):
        def linked(x, y):
            return any(p.get("peer") == y.id and p.get("state") == "connected" for p in x.peers())
        pairs = [(self.alice, self.bob), (self.alice, self.carol), (self.carol, self.bob)]
        expect_eventually(lambda: all(linked(x, y) and linked(y, x) for x, y in pairs), 30,
                          "alice, bob and carol connected to each other")

    def stop(self):
        for daemon in reversed(self.daemons):
            try:
                daemon.stop()
            except Exception:  # cleanup goes on
                pass

    def dead(self):
        dead = [d for d in (self.all() if self.alice else []) if not d.alive()]
        if dead:
            return f"{', '.join(d.name for d in dead)} died; log:\n{harness.tail(dead[0].log)}"
        return None

    def settle(self, daemons=None):
        """Waits until every daemon (of `daemons`) holds every operation made so far."""
        daemons = daemons or self.all()

        def counts():
            return {d.name: d.operations() for d in daemons}
        # Beyond the operations made, each daemon may hold the group's records of their admissions
        # (PEER.md, "Membership"): how many depends on how they met, so they hold at least as many,
        # and the same number.
        def settled():
            held = set(counts().values())
            return len(held) == 1 and min(held) >= self.total
        try:
            expect_eventually(settled, SYNC_WAIT,
                              f"{', '.join(d.name for d in daemons)} holding the {self.total} operations made")
        except CheckFailed as failure:
            raise CheckFailed(f"{failure}; they hold {counts()}") from None

    @staticmethod
    def concurrently(*scripts):
        """Runs each script (a function) in a thread of its own; re-raises the first failure."""
        errors = []

        def run(script):
            try:
                script()
            except Exception as error:  # reported below
                errors.append(error)
        threads = [threading.Thread(target=run, args=(s,)) for s in scripts]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        if errors:
            raise errors[0]
