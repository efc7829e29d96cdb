#!/usr/bin/env python3
"""A real LAN on one machine: hosts on a bridge, each in its own network namespace with its own
D-Bus system bus and avahi-daemon, for testing peerd's mDNS discovery.

    from lab import Lab
    with Lab(hosts=3, observer=True) as lab:
        h1, h2, h3 = lab.hosts
        h1.start_peerd("alice")
        h1.peerctl("add", "603")
        print(h1.peerctl_json("peers"))

One run (prefix defaults to pdl<pid>) builds:
  netns <prefix>-lan   bridge br0 (multicast snooping off) with one port per host: p1, p2, ...
  netns <prefix>-hK    eth0 (a veth to pK): 10.77.0.K/24 and its IPv6 link-local address; lo
  netns <prefix>-obs   the observer (10.77.0.200), with no D-Bus and no avahi-daemon
Each host has an anchor process, `ip netns exec NS unshare -m --propagation private sh -c '...'`,
that mounts a tmpfs on /run in its private mount namespace (so /run/dbus/system_bus_socket and
/run/avahi-daemon belong to that host alone) and then sleeps. Every other process of the host
joins the anchor's mount and network namespaces with `nsenter -t ANCHOR -m -n`.

Logs of every daemon go to <run dir>/<host>/*.log (run dir: $PEERD_LAB_DIR/<prefix>, default
/tmp/peerd-lab/<prefix>); they are kept when a run fails and removed after a clean one.

Cleanup is complete on success, failure, exceptions, Ctrl-C, SIGTERM and SIGHUP: every process is
stopped by its pid, then every process still inside one of the run's network namespaces is killed,
then the namespaces are deleted. Children also get PR_SET_PDEATHSIG, so even a SIGKILL of the
harness takes its daemons down; `python3 lab.py --cleanup-stale` removes namespaces of dead runs.

Scripts exit 77 with one line "lab skipped: ..." when the machine can't host the lab.
"""

import atexit
import ctypes
import fcntl
import json
import os
import pathlib
import re
import shutil
import signal
import subprocess
import sys
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
HERE = pathlib.Path(__file__).resolve().parent
BIN_DIR = pathlib.Path(os.environ.get("PEERD_BIN_DIR", ROOT / ".build" / "debug"))
RUN_ROOT = pathlib.Path(os.environ.get("PEERD_LAB_DIR", "/tmp/peerd-lab"))
SERVICE_TYPE = "_watchlist._tcp"
SUBNET = "10.77.0"
OBSERVER_INDEX = 200
PEERD_PORT = 7601
BUS_SOCKET = "/run/dbus/system_bus_socket"
SKIP_EXIT_CODE = 77
DEFAULT_WAIT = 20.0

REQUIRED_BINARIES = {
    "ip": "iproute2",
    "unshare": "util-linux",
    "nsenter": "util-linux",
    "mount": "mount",
    "dbus-daemon": "dbus",
    "avahi-daemon": "avahi-daemon",
    "avahi-browse": "avahi-utils",
    "avahi-publish": "avahi-utils",
}


class LabError(Exception):
    """The lab could not do what was asked; the message says what and where to look."""


class LabSkip(Exception):
    """This machine can't host the lab (not root, no namespaces, missing binaries)."""


class LabInterrupted(KeyboardInterrupt):
    """SIGTERM or SIGHUP arrived; raised like Ctrl-C so every `finally` and `with` unwinds."""


class LabTimeout(LabError):
    """A bounded wait ran out."""


# MARK: small helpers


def eventually(probe, timeout=DEFAULT_WAIT, interval=0.1, what="condition"):
    """Calls `probe` until it returns something truthy or `timeout` seconds pass; returns that value.

    Exceptions from `probe` count as "not yet" and the last one is named in the LabTimeout."""
    deadline = time.monotonic() + timeout
    last = None
    while True:
        try:
            value = probe()
            if value:
                return value
            last = None
        except (LabError, OSError, ValueError, subprocess.SubprocessError) as error:
            last = error
        if time.monotonic() >= deadline:
            detail = f" (last error: {last})" if last else ""
            raise LabTimeout(f"{what}: not reached within {timeout:g} s{detail}")
        time.sleep(interval)


def tail(path, lines=40):
    """The last `lines` lines of a log file, or a note that it is missing."""
    try:
        text = pathlib.Path(path).read_text(errors="replace")
    except OSError:
        return f"(no {path})"
    return "\n".join(text.splitlines()[-lines:])


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


def sh(argv, check=True, timeout=30):
    """Runs a command in the machine's own namespaces (only `ip` plumbing goes through here)."""
    result = subprocess.run([str(a) for a in argv], capture_output=True, text=True, timeout=timeout)
    if check and result.returncode != 0:
        raise LabError(f"{' '.join(map(str, argv))} failed ({result.returncode}): {result.stderr.strip()}")
    return result


def preflight():
    """Why this machine can't host the lab, or None when it can."""
    if os.geteuid() != 0:
        return "needs root and network namespaces (ip netns); run as root"
    missing = sorted({pkg for binary, pkg in REQUIRED_BINARIES.items() if not shutil.which(binary)})
    if missing:
        return f"needs {', '.join(missing)} (apt-get install {' '.join(missing)})"
    probe = subprocess.run(["unshare", "-n", "-m", "true"], capture_output=True, text=True)
    if probe.returncode != 0:
        return f"cannot create network and mount namespaces here (unshare -n -m: {probe.stderr.strip()})"
    probe = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True)
    if probe.returncode != 0:
        return f"ip netns does not work here ({probe.stderr.strip()})"
    return None


def skip_unless_possible():
    """Exits 77 with one line when the lab can't run here."""
    reason = preflight()
    if reason:
        print(f"lab skipped: {reason}", flush=True)
        sys.exit(SKIP_EXIT_CODE)


# MARK: avahi-browse output


def _unescape(text):
    """Undoes avahi-browse -p escaping: `\\DDD` (decimal byte) and `\\c`."""
    raw = re.sub(rb"\\(\d{3})", lambda m: bytes([int(m.group(1))]), text.encode())
    raw = re.sub(rb"\\(.)", rb"\1", raw)
    return raw.decode(errors="replace")


def parse_txt(field):
    """`"id=ab" "proto=1" "flag"` -> {"id": "ab", "proto": "1", "flag": None}."""
    txt = {}
    for item in re.findall(r'"((?:[^"\\]|\\.)*)"', field):
        item = item.replace('\\"', '"').replace("\\\\", "\\")
        key, sep, value = item.partition("=")
        txt[key] = value if sep else None
    return txt


def parse_avahi_browse(output):
    """Resolved (`=`) lines of `avahi-browse -rpt` as dicts: interface, protocol, name, type,
    domain, hostname, address, port, txt."""
    services = []
    for line in output.splitlines():
        if not line.startswith("="):
            continue
        fields = line.split(";", 9)
        if len(fields) < 10:
            continue
        _, interface, protocol, name, stype, domain, hostname, address, port, txt = fields
        services.append(
            {
                "interface": interface,
                "protocol": protocol,
                "name": _unescape(name),
                "type": stype,
                "domain": domain,
                "hostname": hostname,
                "address": address,
                "port": int(port),
                "txt": parse_txt(txt),
            }
        )
    return services


# MARK: hosts


class Host:
    """One machine on the lab LAN. Everything it runs shares its network and mount namespaces."""

    def __init__(self, lab, name, index, avahi=True):
        self.lab = lab
        self.name = name
        self.index = index
        self.has_avahi = avahi
        self.ns = f"{lab.prefix}-{name}"
        self.port_name = f"p{name}" if not name.startswith("h") else f"p{index}"
        self.ip = f"{SUBNET}.{index}"
        self.dir = lab.run_dir / name
        self.anchor = None
        self.dbus = None
        self.avahi = None
        self.peerd = None
        self.peerd_port = None
        self.state_dir = self.dir / "state"
        self.socket = self.dir / "peerd.sock"
        self.extras = []
        self._fresh_states = 0

    def __repr__(self):
        return f"Host({self.name}, {self.ip})"

    # MARK: running things inside

    @property
    def env(self):
        env = dict(os.environ)
        if self.has_avahi:
            env["DBUS_SYSTEM_BUS_ADDRESS"] = f"unix:path={BUS_SOCKET}"
        else:
            env.pop("DBUS_SYSTEM_BUS_ADDRESS", None)
        return env

    def _enter(self, argv):
        if self.anchor is None or self.anchor.poll() is not None:
            raise LabError(f"{self.name} is not running (its anchor process is gone)")
        return ["nsenter", "-t", str(self.anchor.pid), "-m", "-n", "--", *[str(a) for a in argv]]

    def run(self, cmd, check=False, timeout=30, input=None):
        """Runs `cmd` (argv list, or a string for sh -c) inside this host; returns CompletedProcess."""
        argv = ["sh", "-c", cmd] if isinstance(cmd, str) else cmd
        result = subprocess.run(
            self._enter(argv), capture_output=True, text=True, timeout=timeout, env=self.env, input=input
        )
        if check and result.returncode != 0:
            raise LabError(f"{self.name}: {' '.join(map(str, argv))} failed ({result.returncode}): {result.stderr}")
        return result

    def spawn(self, argv, log_name, stdout=None):
        """Starts a long-lived process inside this host; it is stopped at cleanup if still running."""
        proc = spawn(self._enter(argv), self.dir / log_name, env=self.env, stdout=stdout)
        self.extras.append(proc)
        return proc

    def path_inside(self, path):
        """A path of this host's private mount namespace (e.g. /run/...), seen from outside."""
        return pathlib.Path(f"/proc/{self.anchor.pid}/root{path}")

    def link_local(self):
        """eth0's IPv6 link-local address once duplicate address detection is done, else None."""
        out = self.run(["ip", "-6", "-o", "addr", "show", "dev", "eth0", "scope", "link"]).stdout
        for line in out.splitlines():
            match = re.search(r"inet6 (fe80::[0-9a-f:]+)/64", line)
            if match and "tentative" not in line:
                return match.group(1)
        return None

    # MARK: D-Bus and avahi-daemon

    def start_dbus(self):
        conf = self.dir / "bus.conf"
        conf.write_text(
            "<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN\"\n"
            ' "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">\n'
            "<busconfig><type>system</type>"
            f"<listen>unix:path={BUS_SOCKET}</listen><auth>EXTERNAL</auth>"
            '<policy context="default"><allow user="*"/><allow own="*"/>'
            '<allow send_destination="*"/><allow receive_sender="*"/></policy></busconfig>\n'
        )
        self.dbus = spawn(
            self._enter(["dbus-daemon", "--nofork", "--nopidfile", f"--config-file={conf}"]),
            self.dir / "dbus.log",
            env=self.env,
        )

    def wait_dbus(self):
        def ready():
            if self.dbus.poll() is not None:
                raise LabError(f"dbus-daemon on {self.name} exited ({self.dbus.returncode})")
            return self.path_inside(BUS_SOCKET).exists()

        try:
            eventually(ready, 10, 0.05, f"D-Bus of {self.name}")
        except LabError as error:
            raise LabError(f"{error}\n{tail(self.dir / 'dbus.log')}") from None

    def start_avahi(self, wait=True):
        """Starts this host's avahi-daemon in the foreground (log: avahi.log) and, with `wait`,
        returns once it says "Server startup complete"."""
        if not self.has_avahi:
            raise LabError(f"{self.name} is a host without avahi")
        if self.avahi is not None and self.avahi.poll() is None:
            raise LabError(f"avahi-daemon already runs on {self.name}")
        for leftover in ("/run/avahi-daemon/pid", "/run/avahi-daemon/socket"):
            self.path_inside(leftover).unlink(missing_ok=True)
        conf = self.dir / "avahi.conf"
        conf.write_text(
            "[server]\n"
            f"host-name={self.name}\ndomain-name=local\n"
            f"use-ipv4=yes\nuse-ipv6={'yes' if self.lab.ipv6 else 'no'}\n"
            "allow-interfaces=eth0\nenable-dbus=yes\n"
            "ratelimit-interval-usec=1000000\nratelimit-burst=1000\n"
            "[wide-area]\nenable-wide-area=no\n"
            "[publish]\npublish-workstation=no\npublish-hinfo=no\n"
            "[reflector]\nenable-reflector=no\n"
        )
        log = self.dir / "avahi.log"
        start = log.stat().st_size if log.exists() else 0
        argv = ["avahi-daemon", "-f", conf, "--no-chroot", "--no-drop-root", "--no-rlimits"]
        if os.environ.get("PEERD_LAB_AVAHI_DEBUG"):
            argv.append("--debug")
        self.avahi = spawn(self._enter(argv), log, env=self.env)
        self._avahi_log_offset = start
        if wait:
            self.wait_avahi()
        return self.avahi

    def wait_avahi(self, timeout=DEFAULT_WAIT):
        log = self.dir / "avahi.log"

        def ready():
            if self.avahi.poll() is not None:
                raise LabError(f"avahi-daemon on {self.name} exited ({self.avahi.returncode})")
            with open(log, "rb") as f:
                f.seek(self._avahi_log_offset)
                return b"Server startup complete" in f.read()

        try:
            eventually(ready, timeout, 0.05, f"avahi-daemon on {self.name}")
        except LabError as error:
            raise LabError(f"{error}\n{tail(log)}") from None

    def kill_avahi(self, sig=signal.SIGKILL):
        """Stops this host's avahi-daemon (default SIGKILL: no goodbye packets, like a crash)."""
        return stop_process(self.avahi, sig)

    def avahi_browse(self, service_type=SERVICE_TYPE, timeout=15):
        """Resolved services from `avahi-browse -rpt TYPE` on this host (both IPv4 and IPv6 rows)."""
        result = self.run(["avahi-browse", "-rpt", service_type], timeout=timeout)
        if result.returncode != 0:
            raise LabError(f"avahi-browse on {self.name} failed ({result.returncode}): {result.stderr.strip()}")
        return parse_avahi_browse(result.stdout)

    # MARK: peerd

    def start_peerd(self, name, extra_args=(), port=PEERD_PORT, fresh_state=False, wait=True):
        """Starts peerd inside this host (log: peerd.log, --log-level debug). `fresh_state` gives it
        a new, empty state directory (so a new peer id). With `wait`, returns once the control socket
        answers; raises with the log's tail if peerd exits first."""
        if self.peerd is not None and self.peerd.poll() is None:
            raise LabError(f"peerd already runs on {self.name}")
        if fresh_state:
            self._fresh_states += 1
            self.state_dir = self.dir / f"state-{self._fresh_states}"
        peerd = BIN_DIR / "peerd"
        if not peerd.exists():
            raise LabError(f"no peerd binary at {peerd}; build with `swift build` or set PEERD_BIN_DIR")
        self.socket.unlink(missing_ok=True)
        self.peerd_port = port
        argv = [
            peerd, "--name", name, "--port", str(port), "--state-dir", self.state_dir,
            "--socket", self.socket, "--log-level", "debug", *extra_args,
        ]
        self.peerd = spawn(self._enter(argv), self.dir / "peerd.log", env=self.env)
        if wait:
            self.wait_peerd()
        return self.peerd

    def wait_peerd(self, timeout=DEFAULT_WAIT):
        def answers():
            if self.peerd.poll() is not None:
                raise LabError(f"peerd on {self.name} exited ({self.peerd.returncode})")
            return self.peerctl("status", "--json").returncode == 0

        try:
            eventually(answers, timeout, 0.05, f"peerd on {self.name} answering on {self.socket}")
        except LabError as error:
            raise LabError(f"{error}\n{tail(self.dir / 'peerd.log')}") from None

    def stop_peerd(self, sig=signal.SIGTERM, timeout=10.0):
        """Signals peerd (default SIGTERM, a clean stop with goodbye); SIGKILL after `timeout` s."""
        code = stop_process(self.peerd, sig, timeout)
        return code

    def peerd_running(self):
        return self.peerd is not None and self.peerd.poll() is None

    def peerctl(self, *args, timeout=15):
        """Runs `peerctl --socket SOCK ARGS...` inside this host."""
        return self.run([BIN_DIR / "peerctl", "--socket", self.socket, *args], timeout=timeout)

    def peerctl_json(self, *args, timeout=15):
        """`peerctl ARGS... --json`, parsed; raises LabError when peerctl fails."""
        result = self.peerctl(*args, "--json", timeout=timeout)
        if result.returncode != 0:
            raise LabError(
                f"peerctl {' '.join(args)} on {self.name} failed ({result.returncode}): {result.stderr.strip()}"
            )
        return json.loads(result.stdout)

    def status(self):
        return self.peerctl_json("status")

    def peers(self):
        return self.peerctl_json("peers")

    def movies(self):
        return self.peerctl_json("list")

    # MARK: network

    def partition(self):
        """Cuts this host off the bridge (its bridge port goes down)."""
        sh(["ip", "-n", self.lab.lan_ns, "link", "set", self.port_name, "down"])

    def heal(self):
        sh(["ip", "-n", self.lab.lan_ns, "link", "set", self.port_name, "up"])

    # MARK: teardown

    def stop_all(self):
        """Stops this host's processes by pid: extras and peerd first, avahi, D-Bus, the anchor last."""
        for proc in self.extras:
            stop_process(proc, signal.SIGTERM, 3)
        stop_process(self.peerd, signal.SIGTERM, 5)
        stop_process(self.avahi, signal.SIGTERM, 3)
        stop_process(self.dbus, signal.SIGTERM, 3)
        stop_process(self.anchor, signal.SIGKILL, 3)

    def logs(self):
        return sorted(self.dir.glob("*.log")) if self.dir.exists() else []


# MARK: the zeroconf observer


class Observer:
    """python-zeroconf browsing one service type from inside a host (tests/lab/zeroconf_observer.py).

    `services()` is the current view: service name -> {name, server, port, addresses, txt}."""

    def __init__(self, host, service_type=SERVICE_TYPE):
        import importlib.util

        if importlib.util.find_spec("zeroconf") is None:
            raise LabError("python-zeroconf is not installed: python3 -m pip install zeroconf")
        self.host = host
        self._services = {}
        self._lock = threading.Lock()
        self.proc = host.spawn(
            [sys.executable, "-u", HERE / "zeroconf_observer.py", "--interface", host.ip,
             "--type", f"{service_type}.local."],
            "zeroconf.log",
            stdout=subprocess.PIPE,
        )
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self):
        for line in self.proc.stdout:
            try:
                event = json.loads(line)
            except ValueError:
                continue
            with self._lock:
                if event.get("event") == "removed":
                    self._services.pop(event["name"], None)
                else:
                    self._services[event["name"]] = event
            with open(self.host.dir / "zeroconf.log", "ab") as log:
                log.write(line)

    def services(self):
        if self.proc.poll() is not None:
            raise LabError(f"the zeroconf observer exited ({self.proc.returncode}):\n"
                           f"{tail(self.host.dir / 'zeroconf.log')}")
        with self._lock:
            return {name: dict(info) for name, info in self._services.items()}

    def stop(self):
        stop_process(self.proc, signal.SIGTERM, 3)


# MARK: the lab


_open_labs = []


def _close_open_labs():
    for lab in list(reversed(_open_labs)):
        lab.close(failed=True)


def _raise_interrupted(signum, _frame):
    raise LabInterrupted(f"signal {signal.Signals(signum).name}")


def install_signal_handlers():
    """SIGTERM and SIGHUP unwind like Ctrl-C, so `with Lab()` blocks clean up."""
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, _raise_interrupted)
        signal.signal(signal.SIGINT, signal.default_int_handler)


atexit.register(_close_open_labs)


class Lab:
    """`hosts` hosts h1..hN with D-Bus and avahi-daemon, plus with `observer` one host `obs`
    without either, all on one bridge. Use as a context manager; `close()` is idempotent."""

    def __init__(self, hosts=3, prefix=None, observer=False, ipv6=True, avahi=True, keep_logs=None):
        self.prefix = prefix or f"pdl{os.getpid()}"
        if not re.fullmatch(r"[A-Za-z0-9_.]{1,24}", self.prefix):
            raise ValueError(f"prefix {self.prefix!r}: use up to 24 letters, digits, '_' or '.'")
        self.ipv6 = ipv6
        self.run_dir = RUN_ROOT / self.prefix
        self.lan_ns = f"{self.prefix}-lan"
        self.hosts = [Host(self, f"h{i}", i, avahi=avahi) for i in range(1, hosts + 1)]
        self.observer_host = Host(self, "obs", OBSERVER_INDEX, avahi=False) if observer else None
        self.keep_logs = keep_logs if keep_logs is not None else bool(os.environ.get("PEERD_LAB_KEEP_LOGS"))
        self.failed = False
        self._namespaces = []
        self._lock_file = None
        self._closed = True
        self._observers = []

    @property
    def all_hosts(self):
        return self.hosts + ([self.observer_host] if self.observer_host else [])

    def host(self, name):
        return next(h for h in self.all_hosts if h.name == name)

    def __enter__(self):
        reason = preflight()
        if reason:
            raise LabSkip(reason)
        install_signal_handlers()
        _open_labs.append(self)
        self._closed = False
        try:
            self._build()
        except BaseException:
            self.close(failed=True)
            raise
        return self

    def __exit__(self, exc_type, exc, tb):
        failed = exc_type is not None or self.failed
        if exc_type is not None and not issubclass(exc_type, KeyboardInterrupt):
            print(f"lab: {exc_type.__name__}: {exc}", file=sys.stderr)
            self.dump_logs()
        self.close(failed=failed)
        return False

    # MARK: building

    def _build(self):
        if self.run_dir.exists():
            shutil.rmtree(self.run_dir)
        self.run_dir.mkdir(parents=True)
        self._lock_file = open(self.run_dir / "lock", "w")
        fcntl.flock(self._lock_file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        self._lock_file.write(f"{os.getpid()}\n")
        self._lock_file.flush()
        existing = set(list_namespaces())
        clash = [ns for ns in existing if ns.startswith(f"{self.prefix}-")]
        if clash:
            raise LabError(f"namespaces {clash} already exist; another run uses prefix {self.prefix}?")

        self._add_namespace(self.lan_ns)
        sh(["ip", "-n", self.lan_ns, "link", "add", "br0", "type", "bridge", "mcast_snooping", "0"])
        sh(["ip", "-n", self.lan_ns, "link", "set", "br0", "up"])
        for host in self.all_hosts:
            self._add_host(host)
        for host in self.all_hosts:
            if host.has_avahi:
                host.wait_dbus()
        if self.ipv6:
            for host in self.all_hosts:
                eventually(host.link_local, 10, 0.1, f"IPv6 link-local address on {host.name}")
        for host in self.hosts:
            if host.has_avahi:
                host.start_avahi(wait=False)
        for host in self.hosts:
            if host.has_avahi:
                host.wait_avahi()

    def _add_namespace(self, name):
        sh(["ip", "netns", "add", name])
        self._namespaces.append(name)

    def _add_host(self, host):
        host.dir.mkdir(parents=True)
        os.chmod(host.dir, 0o700)
        (host.dir / "empty").mkdir()
        self._add_namespace(host.ns)
        sh(["ip", "link", "add", "eth0", "netns", host.ns, "type", "veth", "peer", "name", host.port_name,
            "netns", self.lan_ns])
        sh(["ip", "-n", self.lan_ns, "link", "set", host.port_name, "master", "br0"])
        sh(["ip", "-n", self.lan_ns, "link", "set", host.port_name, "up"])
        sh(["ip", "-n", host.ns, "addr", "add", f"{host.ip}/24", "dev", "eth0"])
        sh(["ip", "-n", host.ns, "link", "set", "eth0", "up"])
        sh(["ip", "-n", host.ns, "link", "set", "lo", "up"])
        ready = host.dir / "anchor.ready"
        script = (
            "set -e; mount -t tmpfs -o mode=0755 lab-run /run; mkdir -p /run/dbus /run/avahi-daemon /run/lock; "
            f"if [ -d /etc/avahi/services ]; then mount --bind {host.dir}/empty /etc/avahi/services; fi; "
            f"echo $$ > {ready}; exec sleep infinity"
        )
        host.anchor = spawn(
            ["ip", "netns", "exec", host.ns, "unshare", "-m", "--propagation", "private", "sh", "-c", script],
            host.dir / "anchor.log",
        )

        def anchored():
            if host.anchor.poll() is not None:
                raise LabError(f"the anchor of {host.name} exited: {tail(host.dir / 'anchor.log')}")
            return ready.exists() and ready.read_text().strip() == str(host.anchor.pid)

        eventually(anchored, 10, 0.02, f"mount namespace of {host.name}")
        if host.has_avahi:
            host.start_dbus()

    # MARK: using

    def start_observer(self, service_type=SERVICE_TYPE):
        """python-zeroconf on the observer host, browsing `service_type`."""
        if self.observer_host is None:
            raise LabError("this lab has no observer host (Lab(observer=True))")
        observer = Observer(self.observer_host, service_type)
        self._observers.append(observer)
        return observer

    def dump_logs(self, hosts=None, lines=40, out=sys.stderr):
        """Prints the tail of every daemon log of `hosts` (default: all)."""
        for host in hosts or self.all_hosts:
            for log in host.logs():
                print(f"----- {host.name}/{log.name} (last {lines} lines) -----", file=out)
                print(tail(log, lines), file=out)
        print(f"----- all logs: {self.run_dir}", file=out, flush=True)

    # MARK: teardown

    def close(self, failed=False):
        """Stops everything this run started and deletes its namespaces. Signals are held off
        meanwhile so a second Ctrl-C can't leave half a lab behind."""
        if self._closed:
            return
        self._closed = True
        self.failed = self.failed or failed
        main = threading.current_thread() is threading.main_thread()
        held = {}
        if main:
            for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
                held[sig] = signal.signal(sig, signal.SIG_IGN)
        try:
            for observer in self._observers:
                observer.stop()
            for host in self.all_hosts:
                host.stop_all()
            remove_namespaces(self._namespaces)
        finally:
            if self in _open_labs:
                _open_labs.remove(self)
            if self._lock_file:
                self._lock_file.close()
            if not self.failed and not self.keep_logs and self.run_dir.exists():
                shutil.rmtree(self.run_dir, ignore_errors=True)
            for sig, handler in held.items():
                signal.signal(sig, handler)


# MARK: namespaces


def list_namespaces():
    out = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    return [line.split()[0] for line in out.splitlines() if line.strip()]


def pids_in_namespace(name):
    """Pids of every process whose network namespace is /run/netns/NAME."""
    try:
        target = os.stat(f"/run/netns/{name}")
    except OSError:
        return []
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            st = os.stat(f"/proc/{entry}/ns/net")
        except OSError:
            continue
        if (st.st_ino, st.st_dev) == (target.st_ino, target.st_dev):
            pids.append(int(entry))
    return pids


def remove_namespaces(names):
    """Kills every process left inside `names` (by pid), then deletes the namespaces, hosts first."""
    for name in names:
        for pid in pids_in_namespace(name):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
    deadline = time.monotonic() + 5
    while any(pids_in_namespace(n) for n in names) and time.monotonic() < deadline:
        time.sleep(0.05)
    errors = []
    for name in sorted(names, key=lambda n: n.endswith("-lan")):
        if name in list_namespaces():
            result = subprocess.run(["ip", "netns", "del", name], capture_output=True, text=True)
            if result.returncode != 0:
                errors.append(f"{name}: {result.stderr.strip()}")
    if errors:
        print(f"lab: could not delete namespaces: {'; '.join(errors)}", file=sys.stderr)


def _run_alive(prefix):
    """True if the run that made `prefix` may still be alive (its pid lives or its lock is held)."""
    match = re.fullmatch(r"pdl(\d+)", prefix)
    if match and pathlib.Path(f"/proc/{match.group(1)}").exists():
        return True
    lock = RUN_ROOT / prefix / "lock"
    if lock.exists():
        with open(lock) as f:
            try:
                fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                return True
    return False


def cleanup_stale(verbose=True):
    """Removes what lab runs that are no longer alive left behind: their namespaces (and any
    process still in them) and their log directories. Only names this harness makes count:
    namespaces pdl<...>-<host> and directories pdl<...> in RUN_ROOT."""
    stale = {}
    for ns in list_namespaces():
        match = re.fullmatch(r"(pdl[A-Za-z0-9_.]*?)-(lan|obs|h\d+)", ns)
        if match and not _run_alive(match.group(1)):
            stale.setdefault(match.group(1), []).append(ns)
    for prefix, names in stale.items():
        if verbose:
            print(f"lab: removing namespaces of dead run {prefix}: {' '.join(sorted(names))}")
        remove_namespaces(names)
    dirs = [d for d in RUN_ROOT.glob("pdl*") if d.is_dir() and not _run_alive(d.name)] if RUN_ROOT.exists() else []
    for d in dirs:
        if verbose:
            print(f"lab: removing logs of dead run {d.name}: {d}")
        shutil.rmtree(d, ignore_errors=True)
    if verbose and not stale and not dirs:
        print("lab: no leftovers of dead runs")
    return stale


def main():
    import argparse

    parser = argparse.ArgumentParser(description="The peerd LAN lab. Import it, or use it from here.")
    parser.add_argument("--cleanup-stale", action="store_true", help="remove namespaces of dead runs, then exit")
    parser.add_argument("--up", type=int, metavar="N", help="build N hosts (+ observer) and keep them until Ctrl-C")
    args = parser.parse_args()
    if args.cleanup_stale:
        if os.geteuid() != 0:
            print("lab: --cleanup-stale needs root")
            return 1
        cleanup_stale()
        return 0
    if args.up:
        skip_unless_possible()
        with Lab(hosts=args.up, observer=True, keep_logs=True) as lab:
            for host in lab.all_hosts:
                print(f"{host.name} {host.ip}: nsenter -t {host.anchor.pid} -m -n bash")
            print(f"logs in {lab.run_dir}; Ctrl-C tears the lab down")
            try:
                while True:
                    time.sleep(3600)
            except KeyboardInterrupt:
                print("\ntearing down")
        return 0
    parser.print_help()
    return 0


if __name__ == "__main__":
    sys.exit(main())
