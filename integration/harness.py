"""What the integration suites share: where the binaries are, the failure types, bounded waits,
starting and stopping processes, talking to a peerd through peerctl, and the frames of proto/README.md.

A suite puts this folder on sys.path and imports it, and runs its checks with suite.py beside it:

    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
    import harness
    from suite import Suite
"""

import base64
import ctypes
import json
import os
import pathlib
import random
import shutil
import signal
import socket
import struct
import subprocess
import tempfile
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
BIN_DIR = pathlib.Path(os.environ.get("PEERD_BIN_DIR", ROOT / ".build" / "debug"))


# MARK: failures


class HarnessError(Exception):
    """The harness could not do what was asked (a daemon did not start, peerctl failed, the lab
    could not be built); the message says what and where to look."""


class TimedOut(HarnessError):
    """A bounded wait ran out."""


class CheckFailed(Exception):
    """A check's assertion did not hold; the message says what was seen instead."""


# MARK: bounded waits


def eventually(probe, timeout, what, interval=0.1):
    """Calls `probe` until it returns something truthy or `timeout` seconds pass; returns that value.

    Exceptions from `probe` count as "not yet"; the one the last call raised is named in the TimedOut."""
    deadline = time.monotonic() + timeout
    last = None
    while True:
        try:
            value = probe()
            if value:
                return value
            last = None
        except (HarnessError, OSError, ValueError, subprocess.SubprocessError) as error:
            last = error
        if time.monotonic() >= deadline:
            detail = f" (last error: {last})" if last else ""
            raise TimedOut(f"{what}: not reached within {timeout:g} s{detail}")
        time.sleep(interval)


def expect_eventually(probe, timeout, what, interval=0.1):
    """`eventually` inside a check: running out of time fails the check."""
    try:
        return eventually(probe, timeout, what, interval)
    except TimedOut as error:
        raise CheckFailed(str(error)) from None


# MARK: processes


_prctl = ctypes.CDLL(None, use_errno=True).prctl  # resolved here, not in a freshly forked child
PR_SET_PDEATHSIG = 1


def _die_with_parent():
    """Runs in the child between fork and exec: SIGKILL it if the harness dies, even by SIGKILL."""
    _prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)


def spawn(argv, log_path, env=None, stdout=None):
    """Starts a long-lived process in its own session (Ctrl-C reaches only the harness, which then
    stops it in order), its output appended to `log_path` after a header line."""
    with open(log_path, "ab") as log:
        log.write(f"=== {time.strftime('%H:%M:%S')} {' '.join(map(str, argv))}\n".encode())
        log.flush()
        # PDEATHSIG follows the spawning thread, so only children of the main thread get it.
        main = threading.current_thread() is threading.main_thread()
        return subprocess.Popen(
            [str(a) for a in argv],
            stdin=subprocess.DEVNULL,
            stdout=stdout if stdout is not None else log,
            stderr=log,
            env=env,
            start_new_session=True,
            preexec_fn=_die_with_parent if main else None,
        )


def stop_process(proc, sig=signal.SIGTERM, timeout=5.0):
    """Sends `sig` to one child by its pid, then SIGKILL if it has not exited after `timeout` s."""
    if proc is None or proc.poll() is not None:
        return None if proc is None else proc.returncode
    try:
        proc.send_signal(sig)
        return proc.wait(timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        return proc.wait(5)
    except ProcessLookupError:
        return proc.wait(5)


def tail(path, lines=40):
    """The last `lines` lines of a log file, or a note that it is missing."""
    try:
        text = pathlib.Path(path).read_text(errors="replace")
    except OSError:
        return f"(no {path})"
    return "\n".join(text.splitlines()[-lines:])


def indent(text, prefix="        "):
    """`text` indented to stand under a check's PASS or FAIL line."""
    return "\n".join(prefix + line for line in str(text).splitlines())


# MARK: scratch directories


def scratch_dir(name):
    """A fresh directory `/tmp/peerd-NAME-XXXXXXXX` (mode 0700), for `remove_scratch` once done: the
    one way the suites make one. Under /tmp itself: daemons' control sockets go in it, and a Unix
    socket's path is at most 107 bytes."""
    return pathlib.Path(tempfile.mkdtemp(prefix=f"peerd-{name}-", dir="/tmp"))


def remove_scratch(path):
    shutil.rmtree(path, ignore_errors=True)


# MARK: peerd and peerctl


_handed_out = set()


def free_port():
    """A TCP port free on loopback now, for a daemon started later. Taken below the kernel's
    ephemeral range (ip_local_port_range, 32768 and up by default): a port the kernel handed out
    could meanwhile become the local port of some daemon's outgoing connection, and the daemon
    meant to listen on it would then fail to start ("already in use"; seen in the ten-peer check).
    Each port is handed out once per run."""
    low, _ = (int(n) for n in pathlib.Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split())
    for _ in range(1000):
        port = random.randrange(10_000, max(10_001, low))
        if port in _handed_out:
            continue
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
        _handed_out.add(port)
        return port
    raise HarnessError("no free TCP port below the ephemeral range")


def write_group_secret(path):
    """A new group secret file as SECURITY.md suggests (`head -c 32 /dev/urandom | base64 > FILE`),
    mode 0600; returns `path`."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(base64.b64encode(os.urandom(32)) + b"\n")
    return path


def peerctl_argv(control_socket, *args):
    """`peerctl --socket SOCKET ARGS...` from BIN_DIR."""
    return [str(BIN_DIR / "peerctl"), "--socket", str(control_socket), *map(str, args)]


class PeerctlClient:
    """What a test asks a running peerd through peerctl. A subclass has a `name` and runs peerctl
    with `peerctl(*args, timeout=...)`, returning the CompletedProcess."""

    def peerctl_json(self, *args, **kwargs):
        """`peerctl ARGS... --json`, parsed; raises HarnessError when peerctl fails."""
        result = self.peerctl(*args, "--json", **kwargs)
        if result.returncode != 0:
            raise HarnessError(
                f"peerctl {' '.join(map(str, args))} on {self.name} failed ({result.returncode}): "
                f"{result.stderr.strip()}"
            )
        return json.loads(result.stdout)

    def status(self):
        return self.peerctl_json("status")

    def peers(self):
        return self.peerctl_json("peers")

    def movies(self):
        return self.peerctl_json("list")

    def movie_ids(self):
        return {m["movieId"] for m in self.movies()}

    def history_entries(self):
        """Every operation held, in words, newest first (`history`, a page at a time)."""
        entries, before = [], None
        while True:
            page = self.peerctl_json("history", "--limit", "1000", *(["--before", before] if before else []))
            entries += page["entries"]
            before = page.get("next")
            if not before:
                return entries

    def add(self, movie, title):
        result = self.peerctl("add", str(movie), "--title", title)
        if result.returncode != 0:
            raise HarnessError(f"peerctl add {movie} on {self.name} failed: {result.stderr.strip()}")


class Peerd(PeerctlClient):
    """A peerd from BIN_DIR on 127.0.0.1 without mDNS, its state, control socket and log in `work`;
    `args` are appended to its command line."""

    def __init__(self, work, name, port, args=(), env=None):
        self.name, self.port = name, port
        self.state_dir = work / f"state-{name}"
        self.socket = work / f"{name}.sock"
        self.log = work / f"{name}.log"
        self.args = [str(a) for a in args]
        # The developer's own config.json and TMDB token never reach a test daemon (it would ask the
        # real TMDB); a caller's env may still name its own XDG_CONFIG_HOME.
        self.env = {k: v for k, v in (env or os.environ).items() if k != "TMDB_TOKEN"}
        self.env.setdefault("XDG_CONFIG_HOME", str(work / f"config-{name}"))
        self.proc = None
        self.id = None

    def argv(self):
        return [BIN_DIR / "peerd", "--name", self.name, "--port", str(self.port), "--listen-address", "127.0.0.1",
                "--state-dir", self.state_dir, "--socket", self.socket, "--no-mdns", *self.web_args(), *self.args]

    def web_args(self):
        """The page on a free port, so daemons side by side never contend for 7602, unless the test
        chose its own port or no page; a pick's guest door and the linked devices' door on loopback
        and a free port, never on this machine's own LAN address, unless the test chose."""
        page = [] if {"--web-port", "--no-web"} & set(self.args) else ["--web-port", "0"]
        door = [] if {"--guest-address", "--guest-port", "--no-guests"} & set(self.args) else [
            "--guest-address", "127.0.0.1", "--guest-port", "0"]
        devices = [] if {"--device-address", "--device-port", "--no-devices"} & set(self.args) else [
            "--device-address", "127.0.0.1", "--device-port", "0"]
        return page + door + devices

    def start(self, wait=True):
        self.proc = spawn(self.argv(), self.log, env=self.env)
        if wait:
            self.wait_answering()
        return self

    def wait_answering(self, timeout=20):
        """Returns once `peerctl status` answers, with `id` set; raises HarnessError with the log's
        tail as soon as peerd exits, or after `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise HarnessError(f"peerd {self.name} exited ({self.proc.returncode}):\n{self.tail()}")
            if self.peerctl("status", "--json").returncode == 0:
                self.id = self.status()["peer"]
                return self
            time.sleep(0.05)
        raise HarnessError(f"peerd {self.name} did not answer on {self.socket}:\n{self.tail()}")

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def peerctl(self, *args, timeout=20):
        return subprocess.run(peerctl_argv(self.socket, *args), capture_output=True, text=True, timeout=timeout)

    def stop(self):
        stop_process(self.proc, signal.SIGTERM, 10)

    def tail(self, lines=25):
        return tail(self.log, lines)


# MARK: frames (proto/README.md, "Framing")


def control_request(socket_path, body, timeout=30):
    """One control request sent as a raw frame on the control socket at `socket_path`, past peerctl's
    own checks (or with fields peerctl never sends), and its response."""
    with socket.socket(socket.AF_UNIX) as s:
        s.settimeout(timeout)
        s.connect(str(socket_path))
        s.sendall(frame(json.dumps(body).encode()))
        buffer = b""
        while True:
            message, buffer = split_frame(buffer)
            if message is not None:
                return json.loads(message)
            data = s.recv(65536)
            if not data:
                raise HarnessError(f"{socket_path} closed without answering {body}")
            buffer += data


def frame(body):
    """`body` behind its length: 4 bytes, big-endian."""
    return struct.pack(">I", len(body)) + body


def split_frame(buffer):
    """(body, rest) when `buffer` starts with a whole frame, else (None, buffer)."""
    if len(buffer) < 4:
        return None, buffer
    (length,) = struct.unpack(">I", buffer[:4])
    if len(buffer) < 4 + length:
        return None, buffer
    return buffer[4 : 4 + length], buffer[4 + length :]
