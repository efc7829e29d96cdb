"""What test_schema_capture.py records with: Unix proxies that copy control traffic unchanged while
recording its frames, the readers of the daemons' PEERD_TRACE_FRAMES files, and `Capture`, the
three daemons of the scenario with the fake TMDB and the proxies in front of alice and carol."""

import json
import os
import select
import socket
import struct
import subprocess
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import harness  # noqa: E402
from harness import CheckFailed, HarnessError  # noqa: E402

sys.path.insert(0, str(harness.ROOT / "integration" / "catalog"))
from fake_tmdb import FakeTMDB  # noqa: E402

TMDB_KEY = "0123456789abcdef0123456789abcdef"  # a v3 key: alice's, for the fake TMDB


# MARK: the control proxies


class Recorded:
    """(stream, body bytes) of every frame recorded so far, from any thread."""

    def __init__(self):
        self._frames = []
        self._lock = threading.Lock()

    def add(self, stream, body):
        with self._lock:
            self._frames.append((stream, body))

    def frames(self):
        with self._lock:
            return list(self._frames)

    def types(self, stream):
        """The message types of `stream` recorded so far."""
        found = set()
        for s, body in self.frames():
            if s == stream:
                try:
                    found.add(json.loads(body).get("type"))
                except (ValueError, AttributeError):
                    pass
        return found


class FrameRecorder:
    """Splits one direction of a byte stream into frames and records their bodies."""

    def __init__(self, recorded, stream):
        self.recorded, self.stream = recorded, stream
        self.buffer = b""

    def feed(self, data):
        body, self.buffer = harness.split_frame(self.buffer + data)
        while body is not None:
            self.recorded.add(self.stream, body)
            body, self.buffer = harness.split_frame(self.buffer)


def pump(a, b, recorder_ab, recorder_ba):
    """Copies bytes both ways until either side closes."""
    try:
        while True:
            ready, _, _ = select.select([a, b], [], [], 30)
            if not ready:
                return
            for s in ready:
                data = s.recv(65536)
                if not data:
                    return
                (recorder_ab if s is a else recorder_ba).feed(data)
                (b if s is a else a).sendall(data)
    except OSError:
        pass
    finally:
        a.close()
        b.close()


def serve_proxy(path, upstream_path, recorded):
    """A Unix socket at `path` whose every connection goes on to `upstream_path`, recorded."""
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(str(path))
    listener.listen()

    def accept_loop():
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            upstream = socket.socket(socket.AF_UNIX)
            upstream.connect(str(upstream_path))
            recorders = FrameRecorder(recorded, "control-request"), FrameRecorder(recorded, "control-response")
            threading.Thread(target=pump, args=(client, upstream, *recorders), daemon=True).start()

    threading.Thread(target=accept_loop, daemon=True).start()
    return path


# MARK: frame traces


def read_trace(path):
    """The (direction, body) records of a whole PEERD_TRACE_FRAMES file; CheckFailed if it does not parse."""
    data = path.read_bytes()
    records, offset = [], 0
    while offset < len(data):
        if len(data) - offset < 5 or data[offset : offset + 1] not in (b">", b"<"):
            raise CheckFailed(f"{path.name}: not a frame trace at byte {offset}")
        (length,) = struct.unpack_from(">I", data, offset + 1)
        if offset + 5 + length > len(data):
            raise CheckFailed(f"{path.name}: trace ends inside a frame at byte {offset}")
        records.append((data[offset : offset + 1].decode(), data[offset + 5 : offset + 5 + length]))
        offset += 5 + length
    return records


def traced(path):
    """(direction, message) of the records of a PEERD_TRACE_FRAMES file so far, while its daemon
    still writes it: a record not whole yet, or a body that is not a JSON object, is left out."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return []
    records, offset = [], 0
    while len(data) - offset >= 5:
        (length,) = struct.unpack_from(">I", data, offset + 1)
        if offset + 5 + length > len(data):
            break
        try:
            message = json.loads(data[offset + 5 : offset + 5 + length])
        except ValueError:
            message = None
        if isinstance(message, dict):
            records.append((data[offset : offset + 1].decode(errors="replace"), message))
        offset += 5 + length
    return records


# MARK: the scenario's daemons


class Capture:
    """alice and bob share a group secret and alice dials bob; carol has none (she joins by invite).
    alice alone holds a TMDB key, for a fake TMDB on loopback. peerctl reaches alice and carol
    through recording proxies (`sock`, `carol_sock`); every daemon traces its peer frames."""

    def __init__(self, work):
        self.work = work
        self.recorded = Recorded()
        self.daemons = {}
        self.ports = {name: harness.free_port() for name in ("alice", "bob", "carol")}
        self.secret = harness.write_group_secret(work / "group.secret")
        self.fake = FakeTMDB([TMDB_KEY]).start()
        self.key_file = work / "alice.tmdb"
        self.key_file.write_text(TMDB_KEY + "\n")
        self.key_file.chmod(0o600)
        self.sock = self.carol_sock = self.follower = None

    def up(self):
        self.start("bob")
        self.start("alice", [f"127.0.0.1:{self.ports['bob']}"])
        self.start("carol", group=False)  # joins with an invite code instead
        self.sock = serve_proxy(self.work / "alice-proxy.sock", self.daemons["alice"].socket, self.recorded)
        self.carol_sock = serve_proxy(self.work / "carol-proxy.sock", self.daemons["carol"].socket, self.recorded)

    def start(self, name, peers=(), group=True):
        """Starts (or starts again) `name`; bob and carol hold no TMDB key (an empty config, no TMDB_TOKEN)."""
        args = ["--keepalive-interval", "1", "--tmdb-url", self.fake.url]
        if group:
            args += ["--group-secret-file", self.secret]
        if name == "alice":
            args += ["--tmdb-token-file", self.key_file]
        for peer in peers:
            args += ["--peer", peer]
        env = {k: v for k, v in os.environ.items() if k != "TMDB_TOKEN"}
        env.update(PEERD_TRACE_FRAMES=str(self.trace(name)), XDG_CONFIG_HOME=str(self.work / "config"))
        self.daemons[name] = harness.Peerd(self.work, name, self.ports[name], args, env).start()

    @property
    def ids(self):
        return {name: daemon.id for name, daemon in self.daemons.items()}

    def trace(self, name):
        return self.work / f"{name}.trace"

    def stop(self):
        if self.follower is not None and self.follower.poll() is None:
            self.follower.kill()
        for daemon in self.daemons.values():
            daemon.stop()
        self.fake.stop()

    # What the steps ask and look at.

    def peerctl(self, sock, *args, check=True):
        run = subprocess.run(harness.peerctl_argv(sock, *args), capture_output=True, text=True, timeout=30)
        if check and run.returncode != 0:
            raise HarnessError(f"peerctl {' '.join(map(str, args))} failed ({run.returncode}): {run.stderr}")
        return run

    def request(self, sock, body):
        """One control request sent as a raw frame through `sock` (for fields peerctl never sends, such as
        a pick named by its opening), and its response."""
        return harness.control_request(sock, body)

    def listed(self, sock):
        return [m["movieId"] for m in json.loads(self.peerctl(sock, "list", "--json").stdout)]

    def shown(self, sock, movie):
        return json.loads(self.peerctl(sock, "show", str(movie), "--json").stdout)

    def sent(self, name, message_type):
        return [m for d, m in traced(self.trace(name)) if d == ">" and m.get("type") == message_type]

    def connected(self, name, other):
        return any(p.get("state") == "connected" and p.get("peer") == self.ids[other]
                   for p in self.daemons[name].peers())

    def lists(self, name, movies):
        return set(movies) <= self.daemons[name].movie_ids()
