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

This module is the API (`from lab import Lab, Host, LabSkip, ...`); Host lives in lab_host.py,
the preflight and parsing helpers in lab_support.py. The bounded waits, process helpers and
HarnessError come from ../harness.py, which every suite shares; importing this module puts it on
sys.path.
"""

import atexit
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

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
from harness import HarnessError, eventually, indent, spawn, stop_process, tail, write_group_secret  # noqa: E402
from lab_host import Host  # noqa: E402
from lab_support import (  # noqa: E402
    DEFAULT_WAIT,
    HERE,
    OBSERVER_INDEX,
    PEERD_PORT,
    PROTOCOL,
    RUN_ROOT,
    SERVICE_TYPE,
    SKIP_EXIT_CODE,
    SUBNET,
    LabInterrupted,
    LabSkip,
    parse_avahi_browse,
    parse_txt,
    preflight,
    sh,
    skip_unless_possible,
)

__all__ = [
    "DEFAULT_WAIT", "HERE", "OBSERVER_INDEX", "PEERD_PORT", "PROTOCOL", "RUN_ROOT", "SERVICE_TYPE", "SKIP_EXIT_CODE",
    "SUBNET", "Host", "Lab", "LabInterrupted", "LabSkip", "Observer", "cleanup_stale", "install_signal_handlers",
    "list_namespaces", "parse_avahi_browse", "parse_txt", "preflight", "remove_namespaces", "run_suite", "sh",
    "skip_unless_possible",
]


# MARK: the zeroconf observer


class Observer:
    """python-zeroconf browsing one service type from inside a host (integration/lab/zeroconf_observer.py).

    `services()` is the current view: service name -> {name, server, port, addresses, txt}."""

    def __init__(self, host, service_type=SERVICE_TYPE):
        import importlib.util

        if importlib.util.find_spec("zeroconf") is None:
            raise HarnessError("python-zeroconf is not installed: python3 -m pip install zeroconf")
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
            raise HarnessError(f"the zeroconf observer exited ({self.proc.returncode}):\n"
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
        self.group_secret = None

    @property
    def all_hosts(self):
        return self.hosts + ([self.observer_host] if self.observer_host else [])

    def host(self, name):
        return next(h for h in self.all_hosts if h.name == name)

    def print_logs(self, involved, tails):
        """After a failed check: the last lines of each involved host's logs, `tails` naming each log
        and how many lines of it; every log stays whole in the run dir."""
        for name in involved:
            host = self.host(name)
            for log, lines in tails.items():
                if (host.dir / log).exists():
                    print(indent(f"--- {host.name}/{log}, last {lines} lines:"))
                    print(indent(tail(host.dir / log, lines), "          "), flush=True)
        print(indent(f"(every daemon's full log: {self.run_dir}/<host>/*.log)"), flush=True)

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
        self._begin_run()
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
                eventually(host.link_local, 10, f"IPv6 link-local address on {host.name}")
        for host in self.hosts:
            if host.has_avahi:
                host.start_avahi(wait=False)
        for host in self.hosts:
            if host.has_avahi:
                host.wait_avahi()

    def _begin_run(self):
        """The run's directory (emptied), its lock, the group secret, and a check that no namespace
        of this prefix exists yet: what every topology starts with (integration/relay/houses.py
        builds another on it)."""
        if self.run_dir.exists():
            shutil.rmtree(self.run_dir)
        self.run_dir.mkdir(parents=True)
        self._lock_file = open(self.run_dir / "lock", "w")
        fcntl.flock(self._lock_file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        self._lock_file.write(f"{os.getpid()}\n")
        self._lock_file.flush()
        # One secret for every peerd of the lab: SECURITY.md's members share a --group-secret-file.
        self.group_secret = write_group_secret(self.run_dir / "group.secret")
        existing = set(list_namespaces())
        clash = [ns for ns in existing if ns.startswith(f"{self.prefix}-")]
        if clash:
            raise HarnessError(f"namespaces {clash} already exist; another run uses prefix {self.prefix}?")

    def _add_namespace(self, name):
        sh(["ip", "netns", "add", name])
        self._namespaces.append(name)

    def _add_host(self, host):
        host.dir.mkdir(parents=True)
        os.chmod(host.dir, 0o700)
        (host.dir / "empty").mkdir()
        self._add_namespace(host.ns)
        sh(["ip", "link", "add", "eth0", "netns", host.ns, "type", "veth", "peer", "name", host.port_name,
            "netns", host.lan_ns])
        sh(["ip", "-n", host.lan_ns, "link", "set", host.port_name, "master", "br0"])
        sh(["ip", "-n", host.lan_ns, "link", "set", host.port_name, "up"])
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
                raise HarnessError(f"the anchor of {host.name} exited: {tail(host.dir / 'anchor.log')}")
            return ready.exists() and ready.read_text().strip() == str(host.anchor.pid)

        eventually(anchored, 10, f"mount namespace of {host.name}", 0.02)
        if host.has_avahi:
            host.start_dbus()

    # MARK: using

    def start_observer(self, service_type=SERVICE_TYPE):
        """python-zeroconf on the observer host, browsing `service_type`."""
        if self.observer_host is None:
            raise HarnessError("this lab has no observer host (Lab(observer=True))")
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
    namespaces pdl<...>-<host> (a host, bridge or router name: h1, lan, obs, and the two houses'
    alice, rA, lanA, wan, relay, ...) and directories pdl<...> in RUN_ROOT."""
    stale = {}
    for ns in list_namespaces():
        match = re.fullmatch(r"(pdl[A-Za-z0-9_.]*?)-([A-Za-z0-9]+)", ns)
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


# MARK: a suite's run


def run_suite(suite, lab_options, banner, run_checks, lab_class=Lab):
    """What every lab suite's main does with its `suite` (../suite.py): builds the lab with
    `lab_options`, prints `banner(lab)`, runs `run_checks(lab)` and finishes the suite. Returns the
    exit status: 77 when the lab can't be built here, 130 on Ctrl-C, else the suite's. The lab's
    logs are kept when a check failed. `lab_class` is what to build: Lab, or a subclass such as
    ../relay/houses.py's Houses."""
    try:
        with lab_class(**lab_options) as lab:
            print(banner(lab), flush=True)
            run_checks(lab)
            if suite.failed:
                lab.failed = True
                print(f"logs kept in {lab.run_dir}", flush=True)
    except LabSkip as skip:
        return suite.skip(skip)
    except KeyboardInterrupt as interrupt:
        print(f"\n{suite.name}: interrupted ({str(interrupt) or 'Ctrl-C'}); the lab was torn down", flush=True)
        suite.failed += 1
        suite.finish()
        return 130
    except HarnessError as error:
        suite.fail("building the lab", error)
    return suite.finish()


def hold(lab, hosts):
    """`--up`: how to enter each of `hosts`, then nothing until Ctrl-C (the caller's `with` tears
    the lab down)."""
    for host in hosts:
        print(f"{host.name} {host.ip}: nsenter -t {host.anchor.pid} -m -n bash")
    print(f"logs in {lab.run_dir}; Ctrl-C tears it down", flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        print("\ntearing down")


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
            hold(lab, lab.all_hosts)
        return 0
    parser.print_help()
    return 0


if __name__ == "__main__":
    sys.exit(main())
