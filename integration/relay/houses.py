#!/usr/bin/env python3
"""Two houses behind NAT and a relay between them (issue 42), built on the LAN lab (../lab).

    from houses import Houses
    with Houses() as houses:
        houses.alice.start_peerd("alice", group_secret=False)
        houses.alice.peerctl("relay", "add", houses.relay_url)

One run (prefix pdl<pid>, as the lab's) builds:
  netns <prefix>-lanA   house A's bridge br0: alice 10.77.1.11, carol 10.77.1.13, router rA 10.77.1.1
  netns <prefix>-lanB   house B's bridge br0: bob 10.77.2.12, router rB 10.77.2.1
  netns <prefix>-wan    the "internet", bridge br0 on 198.51.100.0/24 (a documentation range):
                        rA's wan0 198.51.100.1, rB's wan0 198.51.100.2, the relay host 198.51.100.10
Each router forwards, masquerades what leaves by wan0 and drops what comes in by wan0 unless it
belongs to a connection made from inside (LAB.md, "Two houses behind NAT"); each house host's
default route is its router. The routers also route the other house's subnet to the other router,
as if the internet carried it: so what keeps alice from bob is the NAT's drop of an unsolicited
inbound connection (a silent drop, counted on the router), not a missing route. alice, carol and
bob have their own D-Bus and avahi-daemon (use-ipv6=no), so mDNS works inside a house and never
crosses a router; the routers and the relay run neither. The relay host runs Debian's real
`strelaysrv` (private: -pools=""), keys in <run dir>/relay/keys, so a restart keeps its device id.

Hosts are the lab's Host (lab_host.py): `run`, `spawn`, `start_peerd`, `peerctl`, `peers`, ...
Cleanup is the lab's: every process by pid, then whatever is left in the run's namespaces, then the
namespaces, on success, failure, Ctrl-C, SIGTERM and SIGHUP; `python3 houses.py --cleanup-stale`
(or the lab's) removes namespaces of dead runs. Scripts exit 77 with "relay lab skipped: ..." when
the machine can't host it: no root or namespaces, no avahi-daemon, strelaysrv or iptables-legacy.

    sudo python3 integration/relay/houses.py --up     # build it and keep it until Ctrl-C
"""

import json
import pathlib
import re
import shutil
import signal
import sys
import urllib.parse

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent / "lab"))
from harness import HarnessError, eventually, stop_process, tail  # noqa: E402
from lab import SKIP_EXIT_CODE, Host, Lab, LabSkip, cleanup_stale, hold, sh  # noqa: E402, F401 (bench_relay reads SKIP_EXIT_CODE here)
from lab import preflight as lab_preflight  # noqa: E402
from lab_support import DEFAULT_WAIT  # noqa: E402
from lab_support import skip_unless_possible as lab_skip_unless_possible  # noqa: E402

WAN = "198.51.100"
RELAY_IP = f"{WAN}.10"
RELAY_PORT = 22067
RELAY_STATUS_PORT = 22070
# house -> (subnet, router's LAN address, router's wan address)
HOUSES = {"A": ("10.77.1", "10.77.1.1", f"{WAN}.1"), "B": ("10.77.2", "10.77.2.1", f"{WAN}.2")}
# person -> (house, last byte of the address)
PEOPLE = {"alice": ("A", 11), "carol": ("A", 13), "bob": ("B", 12)}
REQUIRED_BINARIES = {"strelaysrv": "syncthing-relaysrv", "iptables-legacy": "iptables"}
IPTABLES = "iptables-legacy"

# Runs inside a host: one TCP connect, its outcome and how long it took, as JSON.
_CONNECT = """
import json, socket, sys, time
started = time.monotonic()
try:
    socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=float(sys.argv[3])).close()
    outcome = "connected"
except socket.timeout:
    outcome = "timed out"
except ConnectionRefusedError:
    outcome = "refused"
except OSError as error:
    outcome = error.strerror or str(error)
print(json.dumps({"outcome": outcome, "seconds": time.monotonic() - started}))
"""

_STATUS = """
import sys, urllib.request
print(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode())
"""


def preflight():
    """Why this machine can't host the two houses, or None when it can."""
    reason = lab_preflight()
    if reason:
        return reason
    missing = sorted({pkg for binary, pkg in REQUIRED_BINARIES.items() if not shutil.which(binary)})
    if missing:
        return f"needs {', '.join(missing)} (apt-get install --no-install-recommends {' '.join(missing)})"
    return None


def skip_unless_possible():
    """Exits 77 with one line when the two houses can't be built here."""
    lab_skip_unless_possible(preflight, "relay lab")


def parse_relay_uri(line):
    """strelaysrv's `URI: relay://IP:PORT/?id=ID&pingInterval=...` line -> (url, id), the url as a
    user passes it on: `relay://RELAY_IP:PORT/?id=ID` (an empty or wildcard host made RELAY_IP)."""
    match = re.search(r"URI: (relay://\S+)", line)
    if not match:
        return None
    uri = urllib.parse.urlsplit(match.group(1))
    device = urllib.parse.parse_qs(uri.query).get("id", [None])[0]
    if not device:
        raise HarnessError(f"strelaysrv printed a URI without id=: {match.group(1)}")
    host = uri.hostname if uri.hostname not in (None, "", "0.0.0.0", "::") else RELAY_IP
    return f"relay://{host}:{uri.port or RELAY_PORT}/?id={device}", device


class Houses(Lab):
    """House A (alice, carol, router rA), house B (bob, router rB) and a relay host on a wan bridge.
    `alice`, `carol`, `bob`, `rA`, `rB` and `relay` are lab Hosts; `people` the three with avahi.
    Use as a context manager, as Lab."""

    def __init__(self, prefix=None, keep_logs=None, cross_routes=True, relay_status=True):
        super().__init__(hosts=0, prefix=prefix, observer=False, ipv6=False, keep_logs=keep_logs)
        self.bridges = {house: f"{self.prefix}-lan{house}" for house in HOUSES}
        self.bridges["wan"] = f"{self.prefix}-wan"
        self.cross_routes = cross_routes
        self.routers = {}
        for house, (subnet, lan_ip, wan_ip) in HOUSES.items():
            router = Host(self, f"r{house}", 1, avahi=False, ip=lan_ip, lan_ns=self.bridges[house])
            router.wan_ip, router.subnet = wan_ip, subnet
            self.routers[house] = router
        self.people = []
        for name, (house, last) in PEOPLE.items():
            person = Host(self, name, last, ip=f"{HOUSES[house][0]}.{last}", lan_ns=self.bridges[house])
            person.house = house
            self.people.append(person)
        self.relay = Host(self, "relay", 10, avahi=False, ip=RELAY_IP, lan_ns=self.bridges["wan"])
        self.hosts = self.people + list(self.routers.values()) + [self.relay]
        self.relay_keys = self.relay.dir / "keys"
        self.relay_status_address = f"{RELAY_IP}:{RELAY_STATUS_PORT}" if relay_status else ""
        self.relay_proc = None
        self.relay_url = None
        self.relay_id = None
        self.relay_uri_printed = None
        self.relay_starts = 0

    alice = property(lambda self: self.host("alice"))
    carol = property(lambda self: self.host("carol"))
    bob = property(lambda self: self.host("bob"))
    rA = property(lambda self: self.routers["A"])
    rB = property(lambda self: self.routers["B"])

    def router_of(self, person):
        return self.routers[person.house]

    def __enter__(self):
        reason = preflight()
        if reason:
            raise LabSkip(reason)
        return super().__enter__()

    # MARK: building

    def _build(self):
        self._begin_run()
        for ns in self.bridges.values():
            self._add_namespace(ns)
            sh(["ip", "-n", ns, "link", "add", "br0", "type", "bridge", "mcast_snooping", "0"])
            sh(["ip", "-n", ns, "link", "set", "br0", "up"])
        for host in self.hosts:
            self._add_host(host)
        for router in self.routers.values():
            self._wire_router(router)
        for person in self.people:
            sh(["ip", "-n", person.ns, "route", "add", "default", "via", self.router_of(person).ip])
        for person in self.people:
            person.wait_dbus()
        for person in self.people:
            person.start_avahi(wait=False)
        for person in self.people:
            person.wait_avahi()
        self.start_relay()

    def _wire_router(self, router):
        """wan0 on the wan bridge, forwarding, and LAB.md's masquerade and drop-inbound."""
        wan, port = self.bridges["wan"], f"w{router.name}"
        sh(["ip", "link", "add", "wan0", "netns", router.ns, "type", "veth", "peer", "name", port, "netns", wan])
        sh(["ip", "-n", wan, "link", "set", port, "master", "br0"])
        sh(["ip", "-n", wan, "link", "set", port, "up"])
        sh(["ip", "-n", router.ns, "addr", "add", f"{router.wan_ip}/24", "dev", "wan0"])
        sh(["ip", "-n", router.ns, "link", "set", "wan0", "up"])
        router.run(["sysctl", "-qw", "net.ipv4.ip_forward=1"], check=True)
        self.iptables(router, "-t", "nat", "-A", "POSTROUTING", "-o", "wan0", "-j", "MASQUERADE")
        for chain in ("FORWARD", "INPUT"):
            self.iptables(router, "-A", chain, "-i", "wan0", "-m", "conntrack", "--ctstate", "ESTABLISHED,RELATED",
                          "-j", "ACCEPT")
            self.iptables(router, "-A", chain, "-i", "wan0", "-j", "DROP")
        if self.cross_routes:
            for other in self.routers.values():
                if other is not router:
                    sh(["ip", "-n", router.ns, "route", "add", f"{other.subnet}.0/24", "via", other.wan_ip])

    def iptables(self, router, *args):
        return router.run([IPTABLES, *args], check=True)

    # MARK: the network

    def connect(self, host, ip, port, timeout=3.0):
        """One TCP connect from inside `host`: {"outcome": "connected" | "refused" | "timed out" |
        the OS's words, "seconds": how long it took}."""
        result = host.run([sys.executable, "-c", _CONNECT, ip, str(port), str(timeout)], timeout=timeout + 15)
        if result.returncode != 0:
            raise HarnessError(f"the connect probe on {host.name} failed: {result.stderr.strip()}")
        return json.loads(result.stdout)

    def dropped(self, router):
        """Packets the router's FORWARD chain dropped coming in by wan0 so far (the NAT's drop rule)."""
        out = self.iptables(router, "-L", "FORWARD", "-v", "-n", "-x").stdout
        for line in out.splitlines():
            fields = line.split()
            if len(fields) >= 6 and fields[2] == "DROP" and fields[5] == "wan0":
                return int(fields[0])
        raise HarnessError(f"no DROP rule for wan0 in {router.name}'s FORWARD chain:\n{out}")

    def forward_port(self, router, port, host):
        """A port forward, as a user sets one up on a home router: TCP to the router's wan address
        and `port` goes to `host`:`port`, and FORWARD lets it in ahead of the drop."""
        for rule in self._forward_rules(router, port, host):
            self.iptables(router, "-I" if rule[0] == "FORWARD" else "-A", *rule)

    def forwarded(self, router, port, host):
        """Packets the port forward to `host`:`port` let in so far (its FORWARD rule's counter)."""
        out = self.iptables(router, "-L", "FORWARD", "-v", "-n", "-x").stdout
        for line in out.splitlines():
            fields = line.split()
            if len(fields) > 8 and fields[2] == "ACCEPT" and fields[8] == host.ip and f"dpt:{port}" in fields:
                return int(fields[0])
        raise HarnessError(f"no port forward to {host.ip}:{port} in {router.name}'s FORWARD chain:\n{out}")

    def unforward_port(self, router, port, host):
        for rule in self._forward_rules(router, port, host):
            self.iptables(router, "-D", *rule)

    @staticmethod
    def _forward_rules(router, port, host):
        return [
            ("PREROUTING", "-t", "nat", "-i", "wan0", "-p", "tcp", "-d", router.wan_ip, "--dport", str(port),
             "-j", "DNAT", "--to-destination", f"{host.ip}:{port}"),
            # Only what the forward rewrote, as a home router lets in: a SYN from the other house
            # to alice's LAN address itself (the routers route the houses' subnets) stays dropped.
            ("FORWARD", "-i", "wan0", "-p", "tcp", "-d", host.ip, "--dport", str(port), "-m", "conntrack", "--ctstate",
             "DNAT", "-j", "ACCEPT"),
        ]

    # MARK: the relay

    @property
    def relay_log(self):
        return self.relay.dir / "strelaysrv.log"

    def relay_running(self):
        return self.relay_proc is not None and self.relay_proc.poll() is None

    def start_relay(self, timeout=DEFAULT_WAIT):
        """Starts strelaysrv on the relay host and returns once it printed its `URI:` line and
        accepts connections. Sets `relay_url` (relay://198.51.100.10:22067/?id=...) and `relay_id`;
        a restart must give the same id (same keys), else HarnessError."""
        if self.relay_running():
            raise HarnessError("strelaysrv already runs on the relay host")
        self.relay_keys.mkdir(parents=True, exist_ok=True)
        log = self.relay_log
        offset = log.stat().st_size if log.exists() else 0
        argv = ["strelaysrv", "-keys", self.relay_keys, "-pools=", f"-listen={RELAY_IP}:{RELAY_PORT}",
                f"-status-srv={self.relay_status_address}", "-protocol=tcp4"]
        self.relay_proc = self.relay.spawn(argv, log.name)
        self.relay_starts += 1

        def printed_uri():
            if self.relay_proc.poll() is not None:
                raise HarnessError(f"strelaysrv exited ({self.relay_proc.returncode}):\n{tail(log)}")
            with open(log, "rb") as f:
                f.seek(offset)
                for line in f.read().decode(errors="replace").splitlines():
                    parsed = parse_relay_uri(line)
                    if parsed:
                        return line, parsed
            return None

        try:
            line, (url, device) = eventually(printed_uri, timeout, "strelaysrv printing its URI: line", 0.02)
            eventually(lambda: self.connect(self.relay, RELAY_IP, RELAY_PORT, 2)["outcome"] == "connected",
                       timeout, f"strelaysrv accepting on {RELAY_IP}:{RELAY_PORT}", 0.05)
        except HarnessError as error:
            raise HarnessError(f"{error}\n{tail(log)}") from None
        if self.relay_id is not None and device != self.relay_id:
            raise HarnessError(f"strelaysrv came back with id {device}, not {self.relay_id}, from the same keys")
        self.relay_uri_printed = line.split("URI: ", 1)[1].strip()
        self.relay_url, self.relay_id = url, device
        return self.relay_proc

    def stop_relay(self, sig=signal.SIGKILL):
        """Stops strelaysrv (default SIGKILL: the relay vanishes as a crashed or unplugged one does,
        with no goodbye); returns its exit status."""
        return stop_process(self.relay_proc, sig, 5)

    def relay_status(self):
        """strelaysrv's status page as JSON (numActiveSessions, numConnections, bytesProxied, ...),
        read from the relay host itself."""
        if not self.relay_status_address:
            raise HarnessError("this run's strelaysrv has no status server (Houses(relay_status=False))")
        url = f"http://{self.relay_status_address}/status"
        result = self.relay.run([sys.executable, "-c", _STATUS, url], timeout=15)
        if result.returncode != 0:
            raise HarnessError(f"GET {url} on the relay host failed: {result.stderr.strip()}")
        return json.loads(result.stdout)

    def relay_peers(self):
        """The remote addresses of the connections strelaysrv holds now (`ss` on the relay host)."""
        out = self.relay.run(["ss", "-tnH", "state", "established", f"( sport = :{RELAY_PORT} )"],
                             check=True).stdout
        return sorted(line.split()[-1] for line in out.splitlines() if line.strip())

    def describe(self):
        lines = [f"house A (10.77.1.0/24, router rA {self.rA.wan_ip}): alice {self.alice.ip}, carol {self.carol.ip}",
                 f"house B (10.77.2.0/24, router rB {self.rB.wan_ip}): bob {self.bob.ip}",
                 f"relay {RELAY_IP}: strelaysrv {self.relay_url}"]
        return "\n".join(lines)


def main():
    import argparse

    parser = argparse.ArgumentParser(description="Two houses behind NAT and a strelaysrv relay between them.")
    parser.add_argument("--up", action="store_true", help="build them and keep them until Ctrl-C")
    parser.add_argument("--cleanup-stale", action="store_true", help="remove namespaces of dead runs, then exit")
    args = parser.parse_args()
    if args.cleanup_stale:
        skip_unless_possible()
        cleanup_stale()
        return 0
    if not args.up:
        parser.print_help()
        return 0
    skip_unless_possible()
    with Houses(keep_logs=True) as houses:
        print(houses.describe())
        hold(houses, houses.hosts)
    return 0


if __name__ == "__main__":
    sys.exit(main())
