#!/usr/bin/env python3
"""peerd under a real systemd user manager, installed the way users install it.

1. `make install PREFIX=<scratch>/prefix HOME=<scratch>/home`: the expected files, ExecStart
   pointing at the installed binary, `systemd-analyze verify --user` on the installed unit.
2. In a private PID + mount namespace (with its own /run and journald), a user manager running as an
   unprivileged uid starts the unit and the script checks: active only after READY=1, `peerctl`
   answers once active, the STATUS= line follows the counts, the sandbox is in force, the watchdog is
   fed, SIGHUP reloads the config file, `kill -9` is followed by a restart with no data lost,
   `systemctl --user stop` is clean and quick, and log lines reach journald with their priority.
3. `make uninstall` removes exactly what install put there.

Prints one line per check (../suite.py) and ends with `systemd: N passed, M failed`. Exit 0 when all
passed, 1 otherwise, 77 (one line, `systemd skipped: <reason>`) when this machine cannot run a user
manager. Needs root (namespaces, cgroups); everything it starts dies with its namespace, and its
cgroups and scratch directory are removed at the end, also on failure.
"""
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
from cgroups import cgroup_roots, enter_cgroups, make_cgroups, remove_cgroups  # noqa: E402
from harness import ROOT, free_port, indent, remove_scratch, scratch_dir, stop_process  # noqa: E402
from suite import Suite  # noqa: E402

UID = int(os.environ.get("PEERD_SYSTEMD_TEST_UID", "61234"))
MANAGERS = ["/lib/systemd/systemd", "/usr/lib/systemd/systemd"]
JOURNALDS = ["/lib/systemd/systemd-journald", "/usr/lib/systemd/systemd-journald"]
PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
WATCHDOG_SEC = 4  # a drop-in shortens the unit's 30 s so that pings are seen within seconds


def note(text):
    """A line under the last verdict, for what the next ones depend on."""
    print(indent(text), flush=True)


def skip(reason):
    """`systemd skipped: reason`, exit 77."""
    sys.exit(Suite("systemd").skip(reason))


def first_existing(paths):
    return next((p for p in paths if os.path.exists(p)), None)


def run(command, timeout=60, **kwargs):
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout, **kwargs)


# ---------------------------------------------------------------- outside the namespace (root)


def preflight():
    if os.geteuid() != 0:
        skip("needs root, for the private PID and mount namespaces and the cgroups of the user manager")
    if not first_existing(MANAGERS):
        skip("no systemd user manager binary (/lib/systemd/systemd); install systemd")
    if not first_existing(JOURNALDS):
        skip("no systemd-journald binary; install systemd")
    for tool in ("systemctl", "systemd-analyze", "journalctl", "unshare", "setpriv", "make"):
        if not shutil.which(tool):
            skip(f"'{tool}' is not installed")
    probe = run(["unshare", "-m", "-p", "-f", "--mount-proc", "--propagation", "private", "true"])
    if probe.returncode != 0:
        skip(f"cannot make a private PID + mount namespace here: {probe.stderr.strip()}")
    if not cgroup_roots():
        skip("no writable cgroup hierarchy at /sys/fs/cgroup for the user manager")


def install_env(home):
    env = {k: v for k, v in os.environ.items() if not k.startswith("XDG_")}
    env["HOME"] = str(home)
    return env


def installed_files(prefix, home):
    unit = home / ".config/systemd/user/peerd.service"
    files = {prefix / "bin/peerd", prefix / "bin/peerctl", unit}
    files |= {prefix / "share/man/man1" / f"{tool}.1" for tool in ("peerd", "peerctl")}
    files |= {home / ".local/share/bash-completion/completions" / tool for tool in ("peerd", "peerctl")}
    files |= {home / ".local/share/zsh/site-functions" / f"_{tool}" for tool in ("peerd", "peerctl")}
    files |= {home / ".config/fish/completions" / f"{tool}.fish" for tool in ("peerd", "peerctl")}
    return files


def all_files(*roots, ignore=()):
    found = set()
    for root in roots:
        for path in root.rglob("*"):
            if path.is_file() and not any(path.is_relative_to(i) for i in ignore):
                found.add(path)
    return found


def test_install(suite, scratch):
    prefix, home = scratch / "prefix", scratch / "home"
    # Files of other programs in the same directories, which uninstall must leave alone.
    others = [home / ".config/systemd/user/other.service", home / ".local/share/bash-completion/completions/other"]
    for other in others:
        other.parent.mkdir(parents=True, exist_ok=True)
        other.write_text("not peerd's\n")
    started = time.monotonic()
    make = run(["make", "-C", str(ROOT), "install", f"PREFIX={prefix}", f"HOME={home}"], 1800, env=install_env(home))
    if not suite.verdict("make install PREFIX=<scratch> HOME=<scratch home>", make.returncode == 0,
                         f"{time.monotonic() - started:.0f} s"):
        print(make.stdout[-3000:] + make.stderr[-3000:])
        return False
    expected = installed_files(prefix, home)
    # SwiftPM and clang keep caches under $HOME/.cache while building; they are not installed files.
    present = all_files(prefix, home, ignore=[home / ".cache"]) - set(others)
    suite.verdict("install puts exactly the binaries, unit, completions and man pages in place",
                  present == expected,
                  f"missing {sorted(map(str, expected - present))}, extra {sorted(map(str, present - expected))}"
                  if present != expected else f"{len(expected)} files")
    unit = (home / ".config/systemd/user/peerd.service").read_text()
    suite.verdict("installed unit runs the installed binary", f"\nExecStart={prefix}/bin/peerd\n" in unit)
    version = run([str(prefix / "bin/peerd"), "--version"])
    suite.verdict("installed peerd runs", version.returncode == 0, version.stdout.strip())
    completions = {
        "bash": home / ".local/share/bash-completion/completions/peerctl",
        "zsh": home / ".local/share/zsh/site-functions/_peerctl",
        "fish": home / ".config/fish/completions/peerctl.fish",
    }
    suite.verdict("completions for bash, zsh and fish know peerctl's subcommands",
                  all("connect" in path.read_text() for path in completions.values()))
    page = (prefix / "share/man/man1/peerd.1").read_text()
    suite.verdict("man page peerd.1 documents --config", ".Dt PEERD 1" in page and "config" in page)

    runtime = scratch / "verify-run"
    runtime.mkdir(mode=0o700)
    env = install_env(home) | {"XDG_RUNTIME_DIR": str(runtime)}
    verify_command = ["systemd-analyze", "verify", "--user"]
    if shutil.which("man"):
        env["MANPATH"] = f"{prefix}/share/man:"  # Documentation=man:peerd(1) must resolve too
    else:
        verify_command.append("--man=no")
        note("man is not installed: systemd-analyze skips the Documentation= check")
    verify = run(verify_command + [str(home / ".config/systemd/user/peerd.service")], env=env)
    suite.verdict("systemd-analyze verify --user on the installed unit",
                  verify.returncode == 0 and not verify.stderr.strip(), (verify.stderr.strip() or "no warnings"))
    return True


def test_uninstall(suite, scratch):
    prefix, home = scratch / "prefix", scratch / "home"
    others = {home / ".config/systemd/user/other.service", home / ".local/share/bash-completion/completions/other"}
    make = run(["make", "-C", str(ROOT), "uninstall", f"PREFIX={prefix}", f"HOME={home}"], env=install_env(home))
    left = all_files(prefix, home, ignore=[home / ".cache", home / ".local/state", home / ".config/peerd",
                                           home / ".config/systemd/user/peerd.service.d", home / "stop-results"])
    suite.verdict("make uninstall removes every installed file and nothing else",
                  make.returncode == 0 and left == others,
                  f"left {sorted(map(str, left - others))}, removed others {sorted(map(str, others - left))}"
                  if left != others else "only other programs' files remain")


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--inner":
        return inner(pathlib.Path(sys.argv[2]))
    preflight()
    suite = Suite("systemd")
    scratch = scratch_dir("systemd")
    scratch.chmod(0o755)
    cgroups = []
    try:
        if test_install(suite, scratch):
            for path in [scratch / "home", scratch / "run"]:
                path.mkdir(exist_ok=True)
            (scratch / "run").chmod(0o700)
            for path in [scratch / "home", scratch / "run", *(scratch / "home").rglob("*")]:
                os.lchown(path, UID, UID)
            cgroups = make_cgroups(f"peerd-systemd-test-{os.getpid()}", UID)
            (scratch / "cgroups.json").write_text(json.dumps([str(c) for c in cgroups]))
            # --kill-child: if this script dies, the namespace and everything in it dies too.
            try:
                namespace = subprocess.run(
                    ["unshare", "-m", "-p", "-f", "--kill-child", "--mount-proc", "--propagation", "private",
                     sys.executable, __file__, "--inner", str(scratch)],
                    timeout=600,
                ).returncode
            except subprocess.TimeoutExpired:
                namespace = "killed after 10 minutes"
            if (scratch / "skip").exists():
                skip((scratch / "skip").read_text().strip())
            result = scratch / "inner.json"
            if suite.verdict("the user manager part ran to its end", result.exists(), f"exit status {namespace}"):
                counts = json.loads(result.read_text())
                suite.passed += counts["passed"]
                suite.failed += counts["failed"]
            test_uninstall(suite, scratch)
    finally:
        remove_cgroups(cgroups)
        remove_scratch(scratch)
    return suite.finish()


# ---------------------------------------------------------------- inside the namespace (PID 1, root)


class UserSession:
    """A user manager running as the test uid, and commands run as that user."""

    def __init__(self, scratch):
        self.home = scratch / "home"
        self.env = {"HOME": str(self.home), "XDG_RUNTIME_DIR": str(scratch / "run"), "PATH": PATH,
                    "LANG": "C.UTF-8"}
        self.as_user = ["setpriv", f"--reuid={UID}", f"--regid={UID}", "--clear-groups", "--"]
        self.bin = scratch / "prefix/bin"

    def run(self, *command, timeout=60):
        return run(self.as_user + list(command), timeout=timeout, env=self.env)

    def systemctl(self, *args, timeout=60):
        return self.run("systemctl", "--user", *args, timeout=timeout)

    def show(self, *properties):
        out = self.systemctl("show", "peerd.service", *[f"--property={p}" for p in properties]).stdout
        return dict(line.split("=", 1) for line in out.splitlines() if "=" in line)

    def status_text(self):
        return self.show("StatusText")["StatusText"]

    def peerctl(self, *args):
        return self.run(str(self.bin / "peerctl"), *args, timeout=20)

    def wait_for(self, predicate, timeout, interval=0.05):
        deadline = time.monotonic() + timeout
        while True:
            value = predicate()
            if value or time.monotonic() > deadline:
                return value
            time.sleep(interval)

    def write_config(self, text):
        path = self.home / ".config/peerd/config.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        os.chown(path.parent, UID, UID)
        os.chown(path, UID, UID)

    def drop_in(self, name, text):
        directory = self.home / ".config/systemd/user/peerd.service.d"
        directory.mkdir(exist_ok=True)
        os.chown(directory, UID, UID)
        if text is None:
            (directory / name).unlink(missing_ok=True)
        else:
            (directory / name).write_text(text)
        self.systemctl("daemon-reload")


def inner(scratch):
    suite = Suite("systemd")
    processes = []
    try:
        # A private /run: the manager's /run/systemd/system marker, journald's sockets and journal.
        subprocess.run(["mount", "-t", "tmpfs", "-o", "mode=755", "tmpfs", "/run"], check=True)
        pathlib.Path("/run/systemd/system").mkdir(parents=True)
        conf = pathlib.Path("/run/systemd/journald.conf.d")
        conf.mkdir()
        (conf / "test.conf").write_text("[Journal]\nStorage=volatile\nForwardToSyslog=no\nForwardToKMsg=no\n"
                                        "ForwardToConsole=no\nForwardToWall=no\nRateLimitBurst=0\nReadKMsg=no\n")
        enter_cgroups(json.loads((scratch / "cgroups.json").read_text()))
        journald = subprocess.Popen([first_existing(JOURNALDS)], stdout=subprocess.DEVNULL,
                                    stderr=open(scratch / "journald.log", "w"))
        processes.append(journald)
        if not wait_path(pathlib.Path("/run/systemd/journal/stdout"), 10):
            suite.verdict("journald starts in the namespace", False)
            return finish(suite, scratch)

        session = UserSession(scratch)
        # At debug level the manager logs every notification it receives, which the checks read back.
        manager = subprocess.Popen(session.as_user + [first_existing(MANAGERS), "--user", "--log-target=journal",
                                                      "--log-level=debug"], env=session.env,
                                   stdout=subprocess.DEVNULL, stderr=open(scratch / "manager.log", "w"))
        processes.append(manager)
        up = session.wait_for(
            lambda: session.systemctl("is-system-running").stdout.strip() in ("running", "degraded"), 20, 0.2)
        if not up:
            said = run(["journalctl", "--directory=/run/log/journal", "--output=cat", "-n", "3"]).stdout
            (scratch / "skip").write_text(f"the user manager did not come up here: {said.strip()!r}")
            return 2
        test_service(suite, session, scratch)
        session.systemctl("stop", "peerd.service", timeout=30)
        session.systemctl("exit", timeout=10)
        manager.wait(10)
    except Exception as error:  # report and count it; the namespace is torn down either way
        suite.verdict("no unexpected error", False, repr(error))
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
    return finish(suite, scratch)


def finish(suite, scratch):
    """The namespace's counts, for the outer run's closing line."""
    (scratch / "inner.json").write_text(json.dumps({"passed": suite.passed, "failed": suite.failed}))
    return 0


def wait_path(path, timeout):
    deadline = time.monotonic() + timeout
    while not path.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    return path.exists()


def movie_ids(session):
    listing = session.peerctl("list", "--json")
    return sorted(m["movieId"] for m in json.loads(listing.stdout)) if listing.returncode == 0 else None


def journal(*matches):
    """Journal entries as dicts, read from journald's own files."""
    out = run(["journalctl", "--directory=/run/log/journal", "--output=json", *matches]).stdout
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def peerd_lines(prefix):
    """peerd's log messages that start with `prefix`."""
    return [e["MESSAGE"] for e in journal("SYSLOG_IDENTIFIER=peerd") if str(e.get("MESSAGE", "")).startswith(prefix)]


def notifications():
    """(pid, monotonic seconds, message) of each sd_notify message the manager got for peerd."""
    found = []
    for entry in journal("SYSLOG_IDENTIFIER=systemd"):
        match = re.match(r"peerd\.service: Got notification message from PID (\d+) \((.*)\)$", entry.get("MESSAGE", ""))
        if match:
            found.append((int(match[1]), int(entry["__MONOTONIC_TIMESTAMP"]) / 1e6, match[2]))
    return found


def test_service(suite, session, scratch):
    """The unit started, fed, reloaded, killed, stopped, and started without READY=1, in that order."""
    main_pid = start_service(suite, session)
    follow_counts(suite, session, main_pid)
    other = reload_config(suite, session, scratch)
    journal_entries(suite)
    main_pid = crash(suite, session, main_pid)
    stop_service(suite, session, main_pid)
    stop_process(other["process"], timeout=10)
    start_without_ready(suite, session)


def start_service(suite, session):
    """Active only after READY=1, serving once active, sandboxed; returns the main pid."""
    # The daemon under test must not take the machine's port 7601 or multicast on its LAN.
    session.write_config(json.dumps({"port": 0, "listenAddress": "127.0.0.1", "mdns": False}))
    # A stopped unit is unloaded at once, taking its exit status along: ExecStopPost= records it.
    session.drop_in("test.conf", f"[Service]\nWatchdogSec={WATCHDOG_SEC}s\nExecStopPost=/bin/sh -c "
                    "'echo $$SERVICE_RESULT $$EXIT_CODE $$EXIT_STATUS >> %h/stop-results'\n")
    note(f"test drop-in: WatchdogSec={WATCHDOG_SEC}s (the unit's 30 s would need a long wait), and an "
         "ExecStopPost= that records each exit")

    # --- start: active only after READY=1, and serving as soon as it is active
    requested = time.monotonic()
    session.systemctl("start", "--no-block", "peerd.service")
    seen = []

    def active():
        state = session.show("ActiveState", "SubState")
        label = f"{state.get('ActiveState')}/{state.get('SubState')}"
        if not seen or seen[-1] != label:
            seen.append(label)
        return state.get("ActiveState") in ("active", "failed")

    session.wait_for(active, 30, 0.005)
    to_active = time.monotonic() - requested
    status_right_away = session.peerctl("status", "--json")
    props = session.show("ActiveState", "SubState", "StatusText", "MainPID", "ExecMainStartTimestampMonotonic",
                         "ActiveEnterTimestampMonotonic", "NRestarts", "WatchdogUSec")
    exec_to_ready = (int(props.get("ActiveEnterTimestampMonotonic", 0))
                     - int(props.get("ExecMainStartTimestampMonotonic", 0))) / 1000
    suite.verdict("the unit starts and becomes active (running)",
                  props.get("ActiveState") == "active" and props.get("SubState") == "running",
                  f"{to_active * 1000:.0f} ms from start to active, exec to READY {exec_to_ready:.0f} ms; "
                  f"states seen: {' -> '.join(seen)}")
    suite.verdict("peerctl status answers the moment the unit is active", status_right_away.returncode == 0,
                  status_right_away.stderr.strip())
    main_pid = int(props.get("MainPID", "0"))
    first_message = next((message for pid, _, message in notifications() if pid == main_pid), None)
    suite.verdict("the main process's first message is READY=1 with its STATUS= line",
                  first_message == "READY=1, STATUS=0 peers, 0 movies"
                  and props.get("StatusText") == "0 peers, 0 movies",
                  f"systemd got ({first_message}), StatusText={props.get('StatusText')!r}")

    # --- the sandbox is in force, not silently skipped
    proc_status = pathlib.Path(f"/proc/{main_pid}/status").read_text() if main_pid else ""
    flags = dict(line.replace("\t", "").split(":", 1) for line in proc_status.splitlines() if ":" in line)
    suite.verdict("sandbox applied: no_new_privs and a seccomp filter on the main process",
                  flags.get("NoNewPrivs") == "1" and flags.get("Seccomp") == "2",
                  f"NoNewPrivs={flags.get('NoNewPrivs')} Seccomp={flags.get('Seccomp')}")
    return main_pid


def follow_counts(suite, session, main_pid):
    """STATUS= follows the movie count; the watchdog is fed."""
    # --- STATUS= follows the counts
    added = [session.peerctl("add", str(movie)).returncode for movie in (603, 550)]
    suite.verdict("peerctl add works against the service", added == [0, 0])
    counted = session.wait_for(lambda: session.status_text() == "0 peers, 2 movies", 10)
    suite.verdict("STATUS= follows the movie count", counted, f"StatusText={session.status_text()!r}")
    shown = session.systemctl("status", "--no-pager", "peerd.service").stdout
    status_line = next((line.strip() for line in shown.splitlines() if line.strip().startswith("Status:")), "")
    suite.verdict("systemctl --user status shows the status line", status_line == 'Status: "0 peers, 2 movies"',
                  status_line)

    # --- watchdog: fed at half the interval, so the service outlives several intervals
    first = int(session.show("WatchdogTimestampMonotonic")["WatchdogTimestampMonotonic"])
    # Nothing to wait for here: the check is that nothing happens (no watchdog restart). The window
    # outlasts one WatchdogSec, so a service not fed would have been restarted within it, and holds
    # two pings or more at the 2 s they should be apart.
    time.sleep(WATCHDOG_SEC * 1.25)
    later = session.show("WatchdogTimestampMonotonic", "NRestarts", "MainPID", "WatchdogUSec")
    fed = int(later["WatchdogTimestampMonotonic"]) > first
    pings = [at for pid, at, message in notifications() if pid == main_pid and "WATCHDOG=1" in message]
    gaps = [round(b - a, 2) for a, b in zip(pings, pings[1:])]
    suite.verdict("WATCHDOG=1 at half the interval keeps a 4 s watchdog fed",
                  fed and later["NRestarts"] == "0" and int(later["MainPID"]) == main_pid and gaps
                  and all(abs(gap - WATCHDOG_SEC / 2) < 0.5 for gap in gaps),
                  f"WatchdogUSec={later['WatchdogUSec']}, seconds between pings {gaps}, NRestarts={later['NRestarts']}")


def reload_config(suite, session, scratch):
    """SIGHUP applies the config file; returns the second peerd it made the unit dial."""
    # --- SIGHUP (systemctl reload): a new peer and the log level apply at once
    other = start_other_peerd(session, scratch)
    # Only paired peers are admitted (proto/SECURITY.md): each pins the other's id by hand first.
    other_socket = str(scratch / "other/control.sock")
    other_id = session.peerctl("--socket", other_socket, "id").stdout.strip()
    unit_id = session.peerctl("id").stdout.strip()
    pinned = [session.peerctl("trust", other_id), session.peerctl("--socket", other_socket, "trust", unit_id)]
    if any(p.returncode != 0 for p in pinned):
        note("pinning failed: " + " / ".join((p.stdout + p.stderr).strip() for p in pinned))
    session.write_config(json.dumps({"port": 0, "listenAddress": "127.0.0.1", "mdns": False,
                                     "logLevel": "debug", "peers": [f"127.0.0.1:{other['port']}"]}))
    reload = session.systemctl("reload", "peerd.service")
    connected = session.wait_for(lambda: session.status_text() == "1 peer, 2 movies", 15, 0.2)
    if not suite.verdict("reload dials the config file's new peer (STATUS= shows it connected)",
                         reload.returncode == 0 and connected, f"StatusText={session.status_text()!r}"):
        note(session.peerctl("peers").stdout)
        note((scratch / "other/peerd.log").read_text()[-2000:])
    reloaded = session.wait_for(lambda: peerd_lines("config reloaded"), 5)
    suite.verdict("the reload is logged with what changed", bool(reloaded) and "logLevel=debug" in reloaded[-1],
                  reloaded[-1] if reloaded else "no 'config reloaded' line")
    session.write_config("{\"port\": \"seventy\"}")
    session.systemctl("reload", "peerd.service")
    rejected = session.wait_for(lambda: peerd_lines("config file rejected"), 5)
    suite.verdict("a broken config file is rejected on reload and peerd keeps running",
                  bool(rejected) and session.show("ActiveState")["ActiveState"] == "active",
                  rejected[-1] if rejected else "no 'config file rejected' line")
    session.write_config(json.dumps({"port": 0, "listenAddress": "127.0.0.1", "mdns": False,
                                     "peers": [f"127.0.0.1:{other['port']}"]}))
    return other


def journal_entries(suite):
    # --- logs: journald parsed the <N> prefixes into priorities; no timestamps, no colour
    entries = journal("SYSLOG_IDENTIFIER=peerd")
    priorities = {e.get("PRIORITY") for e in entries}
    messages = [e.get("MESSAGE", "") for e in entries if isinstance(e.get("MESSAGE"), str)]
    clean = all(not m.startswith("<") and "\x1b[" not in m and not m[:4].isdigit() for m in messages)
    serving = next((m for m in messages if m.startswith("peerd serving")), "")
    suite.verdict("journald gets one entry per event with its priority, no prefix, time or colour left",
                  {"3", "5"} <= priorities and clean and "port=" in serving,
                  f"{len(entries)} entries, priorities {sorted(priorities)}; e.g. {serving[:90]!r}")


def crash(suite, session, main_pid):
    """kill -9: systemd restarts it and nothing is lost; returns the new main pid."""
    # --- kill -9: restarted, nothing lost
    before = movie_ids(session)
    killed_at = time.monotonic()
    os.kill(main_pid, 9)
    def restarted():
        state = session.show("ActiveState", "MainPID", "NRestarts")
        return state["ActiveState"] == "active" and state["MainPID"] not in ("0", str(main_pid)) and state

    back = session.wait_for(restarted, 30)
    restart_time = time.monotonic() - killed_at
    restarts = int(back["NRestarts"]) if back else 0
    exits = stop_results(session)
    suite.verdict("kill -9 of the main process: systemd restarts it", restarts >= 1 and exits == ["signal killed KILL"],
                  f"NRestarts={restarts}, active again after {restart_time:.1f} s (RestartSec=1s); exit seen: {exits}")
    after = movie_ids(session)
    suite.verdict("no data lost across the crash", before == [550, 603] and after == before,
                  f"before {before}, after {after}")
    return int(session.show("MainPID")["MainPID"])


def stop_service(suite, session, main_pid):
    # --- stop: quick, clean exit, STOPPING=1 seen
    stop_started = time.monotonic()
    stop = session.systemctl("stop", "peerd.service", timeout=60)
    stop_time = time.monotonic() - stop_started
    final = session.show("ActiveState", "TimeoutStopUSec")
    exits = stop_results(session)[1:]
    suite.verdict("systemctl --user stop completes quickly with a clean exit",
                  stop.returncode == 0 and final["ActiveState"] == "inactive" and exits == ["success exited 0"]
                  and stop_time < 5,
                  f"{stop_time * 1000:.0f} ms, TimeoutStopSec={final['TimeoutStopUSec']}; exit seen: {exits}")
    suite.verdict("the stop was graceful: the store was flushed and peerd said so", bool(peerd_lines("peerd stopped")))
    told = [message for pid, _, message in notifications() if pid == main_pid]
    suite.verdict("STOPPING=1 reached systemd from the main process on stop",
                  any(m.startswith("STOPPING=1") for m in told), f"last messages: {told[-2:]}")


def start_without_ready(suite, session):
    # --- negative control: without READY=1 reaching systemd the unit never becomes active
    session.drop_in("no-ready.conf", "[Service]\nUnsetEnvironment=NOTIFY_SOCKET\nTimeoutStartSec=3s\n")
    blocked = session.systemctl("start", "peerd.service", timeout=30)
    result = session.show("ActiveState", "Result")
    suite.verdict("without NOTIFY_SOCKET, so no READY=1, the start times out instead of going active",
                  blocked.returncode != 0 and result["Result"] == "timeout", f"Result={result['Result']}")
    session.drop_in("no-ready.conf", None)
    session.systemctl("reset-failed", "peerd.service")


def stop_results(session):
    """`$SERVICE_RESULT $EXIT_CODE $EXIT_STATUS` of each exit so far, from the test's ExecStopPost=."""
    path = session.home / "stop-results"
    return path.read_text().splitlines() if path.exists() else []


def start_other_peerd(session, scratch):
    """A second peerd outside systemd, for the unit's peerd to dial after a reload."""
    port = free_port()
    directory = scratch / "other"
    directory.mkdir()
    os.chown(directory, UID, UID)
    log = open(directory / "peerd.log", "w")
    process = subprocess.Popen(
        session.as_user + [str(session.bin / "peerd"), "--name", "other", "--port", str(port),
                           "--listen-address", "127.0.0.1", "--no-mdns", "--web-port", "0",
                           "--state-dir", str(directory / "state"),
                           "--socket", str(directory / "control.sock")],
        env=session.env, stdout=log, stderr=log)
    wait_path(directory / "control.sock", 10)
    return {"process": process, "port": port}


if __name__ == "__main__":
    sys.exit(main())
