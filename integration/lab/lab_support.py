"""The lab's foundations: paths and constants, LabSkip and LabInterrupted, the preflight that
decides whether this machine can host the lab, and the parser for `avahi-browse -p` output. Import
from `lab`, which re-exports all of it. The bounded waits, process helpers and errors every suite
shares are in ../harness.py."""

import os
import pathlib
import re
import shutil
import subprocess
import sys

from harness import HarnessError

HERE = pathlib.Path(__file__).resolve().parent
RUN_ROOT = pathlib.Path(os.environ.get("PEERD_LAB_DIR", "/tmp/peerd-lab"))
SERVICE_TYPE = "_watchlist._tcp"
PROTOCOL = "3"  # the peer protocol version peerd announces in TXT `proto` (proto/DISCOVERY.md)
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


class LabSkip(Exception):
    """This machine can't host the lab (not root, no namespaces, missing binaries)."""


class LabInterrupted(KeyboardInterrupt):
    """SIGTERM or SIGHUP arrived; raised like Ctrl-C so every `finally` and `with` unwinds."""


# MARK: commands and preflight


def sh(argv, check=True, timeout=30):
    """Runs a command in the machine's own namespaces (only `ip` plumbing goes through here)."""
    result = subprocess.run([str(a) for a in argv], capture_output=True, text=True, timeout=timeout)
    if check and result.returncode != 0:
        raise HarnessError(f"{' '.join(map(str, argv))} failed ({result.returncode}): {result.stderr.strip()}")
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


def skip_unless_possible(check=None, what="lab"):
    """Exits 77 with one line, "<what> skipped: <why>", when `check` (this lab's `preflight` by
    default; a lab built on it passes its own) says the lab can't run here."""
    reason = (check or preflight)()
    if reason:
        print(f"{what} skipped: {reason}", flush=True)
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
