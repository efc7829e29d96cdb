"""The lab's foundations: paths and constants, errors, bounded waits, process spawning and
stopping, the preflight that decides whether this machine can host the lab, and the parser for
`avahi-browse -p` output. Import from `lab`, which re-exports all of it."""

import ctypes
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
PROTOCOL = "2"  # the peer protocol version peerd announces in TXT `proto` (proto/DISCOVERY.md)
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
