"""One machine on the lab LAN (see lab.py): its namespaces, D-Bus, avahi-daemon and peerd."""

import os
import pathlib
import re
import signal
import subprocess

from harness import BIN_DIR, HarnessError, PeerctlClient, eventually, peerctl_argv, spawn, stop_process, tail
from lab_support import BUS_SOCKET, DEFAULT_WAIT, PEERD_PORT, SERVICE_TYPE, SUBNET, parse_avahi_browse, sh


class Host(PeerctlClient):
    """One machine on the lab LAN. Everything it runs shares its network and mount namespaces."""

    def __init__(self, lab, name, index, avahi=True, ip=None, lan_ns=None):
        """`ip` (default SUBNET.index, a /24) and `lan_ns`, the namespace of the bridge eth0 is
        plugged into (default the lab's one LAN), let a lab of several bridges place it."""
        self.lab = lab
        self.name = name
        self.index = index
        self.has_avahi = avahi
        self.ns = f"{lab.prefix}-{name}"
        self.port_name = f"p{name}" if not name.startswith("h") else f"p{index}"
        self.ip = ip or f"{SUBNET}.{index}"
        self.lan_ns = lan_ns or lab.lan_ns
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
        # Each host has a config of its own, and no TMDB token from whoever runs the lab.
        env = {k: v for k, v in os.environ.items() if k != "TMDB_TOKEN"}
        env["XDG_CONFIG_HOME"] = str(self.dir / "config")
        if self.has_avahi:
            env["DBUS_SYSTEM_BUS_ADDRESS"] = f"unix:path={BUS_SOCKET}"
        else:
            env.pop("DBUS_SYSTEM_BUS_ADDRESS", None)
        return env

    def _enter(self, argv):
        if self.anchor is None or self.anchor.poll() is not None:
            raise HarnessError(f"{self.name} is not running (its anchor process is gone)")
        return ["nsenter", "-t", str(self.anchor.pid), "-m", "-n", "--", *[str(a) for a in argv]]

    def run(self, cmd, check=False, timeout=30, input=None):
        """Runs `cmd` (argv list, or a string for sh -c) inside this host; returns CompletedProcess."""
        argv = ["sh", "-c", cmd] if isinstance(cmd, str) else cmd
        result = subprocess.run(
            self._enter(argv), capture_output=True, text=True, timeout=timeout, env=self.env, input=input
        )
        if check and result.returncode != 0:
            raise HarnessError(f"{self.name}: {' '.join(map(str, argv))} failed ({result.returncode}): {result.stderr}")
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
                raise HarnessError(f"dbus-daemon on {self.name} exited ({self.dbus.returncode})")
            return self.path_inside(BUS_SOCKET).exists()

        try:
            eventually(ready, 10, f"D-Bus of {self.name}", 0.05)
        except HarnessError as error:
            raise HarnessError(f"{error}\n{tail(self.dir / 'dbus.log')}") from None

    def start_avahi(self, wait=True):
        """Starts this host's avahi-daemon in the foreground (log: avahi.log) and, with `wait`,
        returns once it says "Server startup complete"."""
        if not self.has_avahi:
            raise HarnessError(f"{self.name} is a host without avahi")
        if self.avahi is not None and self.avahi.poll() is None:
            raise HarnessError(f"avahi-daemon already runs on {self.name}")
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
                raise HarnessError(f"avahi-daemon on {self.name} exited ({self.avahi.returncode})")
            with open(log, "rb") as f:
                f.seek(self._avahi_log_offset)
                return b"Server startup complete" in f.read()

        try:
            eventually(ready, timeout, f"avahi-daemon on {self.name}", 0.05)
        except HarnessError as error:
            raise HarnessError(f"{error}\n{tail(log)}") from None

    def kill_avahi(self, sig=signal.SIGKILL):
        """Stops this host's avahi-daemon (default SIGKILL: no goodbye packets, like a crash)."""
        return stop_process(self.avahi, sig)

    def avahi_browse(self, service_type=SERVICE_TYPE, timeout=15):
        """Resolved services from `avahi-browse -rpt TYPE` on this host (both IPv4 and IPv6 rows)."""
        result = self.run(["avahi-browse", "-rpt", service_type], timeout=timeout)
        if result.returncode != 0:
            raise HarnessError(f"avahi-browse on {self.name} failed ({result.returncode}): {result.stderr.strip()}")
        return parse_avahi_browse(result.stdout)

    # MARK: peerd

    def start_peerd(self, name, extra_args=(), port=PEERD_PORT, fresh_state=False, wait=True, group_secret=None):
        """Starts peerd inside this host (log: peerd.log, --log-level debug), a member of the lab's group
        (--group-secret-file: the lab's one secret, so lab peers trust each other; `group_secret`, a path,
        gives it another file instead, so it is an outsider; False gives it none, so it trusts only whom
        it pairs with by invite, or pins). `fresh_state` gives it a new, empty state
        directory (so a new peer id). With `wait`, returns once the control socket answers; raises with
        the log's tail if peerd exits first."""
        if self.peerd is not None and self.peerd.poll() is None:
            raise HarnessError(f"peerd already runs on {self.name}")
        if fresh_state:
            self._fresh_states += 1
            self.state_dir = self.dir / f"state-{self._fresh_states}"
        peerd = BIN_DIR / "peerd"
        if not peerd.exists():
            raise HarnessError(f"no peerd binary at {peerd}; build with `swift build` or set PEERD_BIN_DIR")
        self.socket.unlink(missing_ok=True)
        self.peerd_port = port
        argv = [
            peerd, "--name", name, "--port", str(port), "--state-dir", self.state_dir,
            "--socket", self.socket, "--log-level", "debug",
            *self._secret_args(group_secret), *extra_args,
        ]
        self.peerd = spawn(self._enter(argv), self.dir / "peerd.log", env=self.env)
        if wait:
            self.wait_peerd()
        return self.peerd

    def _secret_args(self, group_secret):
        if group_secret is False:
            return []
        return ["--group-secret-file", self.lab.group_secret if group_secret is None else group_secret]

    def wait_peerd(self, timeout=DEFAULT_WAIT):
        def answers():
            if self.peerd.poll() is not None:
                raise HarnessError(f"peerd on {self.name} exited ({self.peerd.returncode})")
            return self.peerctl("status", "--json").returncode == 0

        try:
            eventually(answers, timeout, f"peerd on {self.name} answering on {self.socket}", 0.05)
        except HarnessError as error:
            raise HarnessError(f"{error}\n{tail(self.dir / 'peerd.log')}") from None

    def stop_peerd(self, sig=signal.SIGTERM, timeout=10.0):
        """Signals peerd (default SIGTERM, a clean stop with goodbye); SIGKILL after `timeout` s."""
        code = stop_process(self.peerd, sig, timeout)
        return code

    def peerd_running(self):
        return self.peerd is not None and self.peerd.poll() is None

    def peerctl(self, *args, timeout=15):
        """Runs `peerctl --socket SOCK ARGS...` inside this host."""
        return self.run(peerctl_argv(self.socket, *args), timeout=timeout)

    # MARK: network

    def partition(self):
        """Cuts this host off the bridge (its bridge port goes down)."""
        sh(["ip", "-n", self.lan_ns, "link", "set", self.port_name, "down"])

    def heal(self):
        sh(["ip", "-n", self.lan_ns, "link", "set", self.port_name, "up"])

    def filter_input(self, *rules, table="chaos"):
        """Adds nftables `rules` (e.g. "ip saddr 10.77.0.3 drop", "numgen random mod 100 < 40 drop")
        to the input hook of this host, in table inet `table`, in one `nft -f` transaction. Input,
        not output: a drop there is silent, as real loss is (on output the sender would get EPERM)."""
        script = [f"add table inet {table}",
                  f"add chain inet {table} input {{ type filter hook input priority 0; }}",
                  *(f"add rule inet {table} input {rule}" for rule in rules)]
        self.run(["nft", "-f", "-"], check=True, input="\n".join(script) + "\n")

    def unfilter_input(self, table="chaos"):
        """Deletes table inet `table` and its rules (filter_input's); nothing if there is none."""
        self.run(["nft", "delete", "table", "inet", table])

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
