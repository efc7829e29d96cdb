"""What the liveness suite (test_liveness.py) and its benchmark (bench_liveness.py) share: a fast
control-socket client, a ledger of what peerd acknowledged, writers that add and remove through
`peerctl` while the network misbehaves, and a mesh of lab hosts that can be cut apart, healed,
made lossy and timed until their lists agree again.

Cuts and loss are nftables rules on the input hook inside a host's namespace (Host.filter_input):
a drop there is silent, as on a real LAN; a drop on output would hand the sender EPERM.
"""

import concurrent.futures
import itertools
import json
import random
import socket
import subprocess
import threading
import time

from harness import HarnessError, eventually, frame, split_frame

NAMES = {"h1": "alice", "h2": "bob", "h3": "carol", "h4": "dave", "h5": "erin"}
CUT_TABLE = "liveness_cut"
LOSS_TABLE = "liveness_loss"
SILENCE_CLOSE = "nothing received for"  # in the log line of a session closed for silence
REMOVE_EVERY = 4  # a writer's every 4th operation is a removal
PIPELINE_WINDOW = 200  # control requests in flight on one connection while seeding

_movie_ids = itertools.count(100_001)
_movie_ids_lock = threading.Lock()


def next_movie():
    """A movie id no earlier call returned: every add of a run is of its own movie, so a removal
    that was acknowledged cancelled exactly that one add."""
    with _movie_ids_lock:
        return next(_movie_ids)


def parallel(function, items):
    """`function(item)` for every item at once; returns the results, raises the first error."""
    items = list(items)
    if not items:
        return []
    with concurrent.futures.ThreadPoolExecutor(max_workers=len(items)) as pool:
        return list(pool.map(function, items))


def median(values):
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


# MARK: the control socket


class Control:
    """One connection to a peerd's control socket (proto/CONTROL.md). The socket lies in the host's
    run dir, which the harness shares, so no nsenter is needed and a request takes milliseconds:
    fast enough to poll five lists every few tens of milliseconds. Requests may be pipelined; the
    answers come back in order."""

    def __init__(self, path, timeout=15.0):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        try:
            self.sock.connect(str(path))
        except OSError:
            self.sock.close()
            raise
        self.buffer = b""

    def send(self, body):
        self.sock.sendall(frame(json.dumps({**body, "version": 1}).encode()))

    def receive(self):
        while True:
            body, self.buffer = split_frame(self.buffer)
            if body is not None:
                return json.loads(body)
            chunk = self.sock.recv(1 << 20)
            if not chunk:
                raise HarnessError("the daemon closed the control connection")
            self.buffer += chunk

    def request(self, body):
        self.send(body)
        answer = self.receive()
        if answer.get("type") == "error":
            raise HarnessError(f"{body['type']}: {answer.get('code')}: {answer.get('message')}")
        return answer

    def pipeline(self, bodies):
        """Every request of `bodies`, PIPELINE_WINDOW in flight at a time; the answers in order."""
        answers = []
        for start in range(0, len(bodies), PIPELINE_WINDOW):
            window = bodies[start:start + PIPELINE_WINDOW]
            for body in window:
                self.send(body)
            answers += [self.receive() for _ in window]
        return answers

    def rows(self):
        """The whole list, paged with `next` as CONTROL.md says."""
        rows, after = [], None
        while True:
            page = self.request({"type": "list", "limit": 10000, **({"after": after} if after else {})})
            rows += page["movies"]
            after = page.get("next")
            if not after:
                return rows

    def close(self):
        self.sock.close()


# MARK: what peerd acknowledged


class Ledger:
    """Adds peerd answered `added` to, removals it answered `removed` to, and the movies of requests
    no answer settled (a peerctl that failed or timed out), which may or may not have happened.
    Thread-safe."""

    def __init__(self):
        self._lock = threading.Lock()
        self.added, self.removed, self.unsettled = set(), set(), set()

    def record(self, kind, movie):
        with self._lock:
            getattr(self, kind).add(movie)

    def problems(self, listed):
        """What `listed` (a set of movie ids) gets wrong: an acknowledged add missing, or a movie
        whose removal was acknowledged still there. Empty when it is right."""
        with self._lock:
            missing = self.added - self.removed - self.unsettled - listed
            revived = self.removed & listed - self.unsettled
        found = []
        if missing:
            found.append(f"{len(missing)} acknowledged adds missing: {sorted(missing)[:10]}")
        if revived:
            found.append(f"{len(revived)} acknowledged removals undone: {sorted(revived)[:10]}")
        return found


class Writers:
    """While the `with` block runs, one thread per host runs `peerctl add` of new movies and, every
    REMOVE_EVERY-th operation, `peerctl remove` of a movie that its group acknowledged (a group is
    a side of a cut, whose hosts can see each other's adds). Every answer goes into the ledger."""

    def __init__(self, groups, ledger, pause=0.05):
        self.groups = [list(g) for g in groups]
        self.ledger = ledger
        self.pause = pause
        self.counts = {"added": 0, "removed": 0, "unsettled": 0}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._threads = []

    def __enter__(self):
        for group in self.groups:
            pool = []
            for host in group:
                thread = threading.Thread(target=self._run, args=(host, pool), daemon=True)
                thread.start()
                self._threads.append(thread)
        return self

    def __exit__(self, *_):
        self._stop.set()
        for thread in self._threads:
            thread.join(60)

    def _run(self, host, pool):
        for n in itertools.count(1):
            if self._stop.is_set():
                return
            with self._lock:
                doomed = pool.pop(random.randrange(len(pool))) if n % REMOVE_EVERY == 0 and pool else None
            if doomed is None:
                self._add(host, pool)
            else:
                self._remove(host, doomed)
            self._stop.wait(self.pause)

    def _settle(self, kind, movie):
        self.ledger.record(kind, movie)
        with self._lock:
            self.counts[kind] += 1

    def _add(self, host, pool):
        movie = next_movie()
        try:
            result = host.peerctl("add", movie, "--title", f"Movie {movie}")
        except (HarnessError, subprocess.SubprocessError):  # the host gone, or a timeout
            result = None
        if result is not None and result.returncode == 0:
            self._settle("added", movie)
            with self._lock:
                pool.append(movie)
        else:
            self._settle("unsettled", movie)

    def _remove(self, host, movie):
        try:
            result = host.peerctl("remove", movie, "--json")
        except (HarnessError, subprocess.SubprocessError):
            result = None
        if result is not None and result.returncode == 0:
            self._settle("removed", movie)
        elif result is None or "not-listed" not in result.stdout:
            self._settle("unsettled", movie)

    def describe(self):
        return (f"{self.counts['added']} adds and {self.counts['removed']} removals acknowledged, "
                f"{self.counts['unsettled']} unsettled")


# MARK: the mesh


class Mesh:
    """The lab's hosts, each running peerd under its NAMES name, and what the checks ask of them:
    peers, lists, cuts, heals, loss, catch-up. `ledger` holds every acknowledged add and removal."""

    def __init__(self, lab):
        self.lab = lab
        self.hosts = list(lab.hosts)
        self.ledger = Ledger()
        self.ids = {}
        self._controls = {}
        self.link_local = {h.name: h.link_local() for h in self.hosts}

    def start(self, host, **kwargs):
        host.start_peerd(NAMES[host.name], **kwargs)
        self.ids[host.name] = self.ask(host, {"type": "status"})["peer"]

    def ensure_running(self):
        for host in self.hosts:
            if not host.peerd_running():
                self.start(host)

    def _use(self, host, action):
        """`action(control)` on a kept connection to `host`'s peerd (a new one after a restart)."""
        pid = host.peerd.pid if host.peerd else None
        kept = self._controls.get(host.name)
        if kept is not None and kept[0] != pid:
            kept[1].close()
            kept = None
        try:
            if kept is None:
                kept = self._controls[host.name] = (pid, Control(host.socket))
            return action(kept[1])
        except (OSError, ValueError, HarnessError) as error:
            if kept is not None:
                kept[1].close()
            self._controls.pop(host.name, None)
            raise HarnessError(f"{host.name}: {error}") from None

    def ask(self, host, body):
        """One control request to `host`'s peerd; its answer."""
        return self._use(host, lambda control: control.request(body))

    def rows(self, host):
        return self._use(host, Control.rows)

    def operations(self, host):
        return self.ask(host, {"type": "status"})["operations"]

    def connected(self, host):
        return {p.get("peer") for p in self.ask(host, {"type": "peers"})["peers"] if p.get("state") == "connected"}

    def wait_mesh(self, hosts, timeout):
        """Returns once every host of `hosts` has a connected session with each of the others."""
        def full():
            return all({self.ids[o.name] for o in hosts if o is not h} <= self.connected(h) for h in hosts)

        try:
            eventually(full, timeout, f"{', '.join(h.name for h in hosts)} all connected to each other", 0.2)
        except HarnessError as error:
            raise HarnessError(f"{error}\n{self.describe_peers(hosts)}") from None

    def describe_peers(self, hosts):
        lines = []
        for host in hosts:
            try:
                peers = self.ask(host, {"type": "peers"})["peers"]
                names = {v: k for k, v in self.ids.items()}
                shown = ", ".join(f"{names.get(p.get('peer'), (p.get('peer') or '?')[:8])} {p.get('state')}"
                                  for p in peers if p.get("peer") in names)
                lines.append(f"{host.name} peers: {shown}")
            except HarnessError as error:
                lines.append(str(error))
        return "\n".join(lines)

    # MARK: cuts and loss

    def cut(self, receivers, senders):
        """Everything `receivers` get from `senders` (IPv4 and link-local IPv6) is dropped on input."""
        rules = [f"ip saddr {{ {', '.join(h.ip for h in senders)} }} drop"]
        link_local = [self.link_local[h.name] for h in senders if self.link_local[h.name]]
        if link_local:
            rules.append(f"ip6 saddr {{ {', '.join(link_local)} }} drop")
        parallel(lambda h: h.filter_input(*rules, table=CUT_TABLE), receivers)

    def partition(self, side_a, side_b):
        self.cut(side_a, side_b)
        self.cut(side_b, side_a)

    def heal(self):
        """Deletes every host's cut at once; returns the monotonic time just before."""
        started = time.monotonic()
        parallel(lambda h: h.unfilter_input(CUT_TABLE), self.hosts)
        return started

    @staticmethod
    def lossy(host, percent):
        """`percent` % of what `host` receives is dropped, but loopback and mDNS, so it still
        finds its peers."""
        host.filter_input("iif lo accept", "udp dport 5353 accept",
                          f"numgen random mod 100 < {percent} drop", table=LOSS_TABLE)

    @staticmethod
    def lossless(host):
        host.unfilter_input(LOSS_TABLE)

    # MARK: agreement

    def agreement(self, hosts):
        """(True, None) when every host of `hosts` lists the same rows and they hold every
        acknowledged add and no acknowledged removal; else (False, what is wrong)."""
        lists = [self.rows(h) for h in hosts]
        differ = [h.name for h, rows in zip(hosts, lists) if rows != lists[0]]
        problems = self.ledger.problems({row["movieId"] for row in lists[0]})
        if differ:
            counts = ", ".join(f"{h.name} {len(rows)}" for h, rows in zip(hosts, lists))
            problems.insert(0, f"{', '.join(differ)} list other rows than {hosts[0].name} (rows: {counts})")
        return not problems, "; ".join(problems) or None

    def time_to_agree(self, hosts, since, timeout, interval=0.02):
        """Seconds from `since` (monotonic) until `agreement`, measured when the agreeing lists had
        been read; (None, what was wrong last) if not within `timeout` seconds of `since`."""
        last = "no list read"
        while True:
            try:
                agreed, last = self.agreement(hosts)
                if agreed:
                    return time.monotonic() - since, None
            except HarnessError as error:
                last = str(error)
            if time.monotonic() - since >= timeout:
                return None, last
            time.sleep(interval)

    # MARK: rounds the suite and the benchmark both run

    def partition_round(self, side_a, side_b, hold, timeout, mesh_wait):
        """Every host connected to every other; `side_a` and `side_b` cut apart both ways for `hold`
        seconds while both sides add and remove; healed. Returns (seconds from the heal until
        `agreement`, or None; what was wrong if None; the writers' counts)."""
        self.wait_mesh(self.hosts, mesh_wait)
        self.partition(side_a, side_b)
        try:
            with Writers([side_a, side_b], self.ledger) as writers:
                time.sleep(hold)
        finally:
            since = self.heal()
        seconds, wrong = self.time_to_agree(self.hosts, since, timeout)
        return seconds, wrong, writers

    def seed(self, hosts, total, timeout):
        """Adds new movies on `hosts`, a share each, pipelined on their control sockets at once,
        until they hold `total` operations. Returns how many adds that took."""
        need = total - self.operations(hosts[0])
        if need <= 0:
            return 0
        shares = [need // len(hosts) + (i < need % len(hosts)) for i in range(len(hosts))]
        parallel(lambda pair: self._seed_one(*pair), zip(hosts, shares))
        eventually(lambda: all(self.operations(h) >= total for h in hosts), timeout,
                   f"{', '.join(h.name for h in hosts)} holding {total} operations", 0.5)
        return need

    def _seed_one(self, host, count):
        movies = [next_movie() for _ in range(count)]
        control = Control(host.socket, timeout=120)
        try:
            answers = control.pipeline([{"type": "add", "movie": {"id": m, "title": f"Movie {m}"}} for m in movies])
        finally:
            control.close()
        for movie, answer in zip(movies, answers):
            self.ledger.record("added" if answer.get("type") == "added" else "unsettled", movie)
        refused = [a for a in answers if a.get("type") != "added"]
        if refused:
            raise HarnessError(f"{host.name}: {len(refused)} adds refused while seeding, e.g. {refused[0]}")

    def catch_up(self, fresh, target, timeout):
        """Starts peerd on `fresh` with a fresh state (a new peer, no operations) and waits until it
        holds `target` operations. Returns (seconds from the start, or None; samples (seconds,
        operations) about every second)."""
        started = time.monotonic()
        self.start(fresh, fresh_state=True)
        samples = []
        while time.monotonic() - started < timeout:
            held = self.operations(fresh)
            samples.append((time.monotonic() - started, held))
            if held >= target:
                return samples[-1][0], samples
            time.sleep(1.0)
        return None, samples


# MARK: logs


def log_offsets(hosts):
    """Where each host's peerd.log ends now, so a later look reads only what came after."""
    return {h.name: (h.dir / "peerd.log").stat().st_size if (h.dir / "peerd.log").exists() else 0 for h in hosts}


def silence_closes(hosts, offsets):
    """The lines of each host's peerd.log since `offsets` that close a session for silence."""
    found = []
    for host in hosts:
        with open(host.dir / "peerd.log", "rb") as log:
            log.seek(offsets.get(host.name, 0))
            text = log.read().decode(errors="replace")
        found += [f"{host.name}: {line.strip()}" for line in text.splitlines() if SILENCE_CLOSE in line]
    return found


def longest_stall(samples):
    """The longest stretch, in seconds, in which the operation count of `samples` did not grow."""
    longest, since, last = 0.0, 0.0, -1
    for seconds, held in samples:
        if held > last:
            since, last = seconds, held
        longest = max(longest, seconds - since)
    return longest
