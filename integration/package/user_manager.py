"""The installed unit, started by a real systemd user manager inside the package test's chroot.

test_package.py runs this file as the first process of new PID, mount and network namespaces
(`unshare --kill-child`, so everything it starts dies with it):

    unshare -m -p -n -f --kill-child --propagation private --mount-proc=ROOT/proc \\
        python3 user_manager.py ROOT UID RESULT.json CGROUP…

Inside, as root: loopback up (the namespace has nothing else), /sys bound into the chroot (the
cgroups are under it), a private /run, the chroot's own systemd-journald, then the chroot's
`systemd --user` as UID, in the delegated cgroups the outer test made. Then, as that user:
`systemctl --user start peerd` (the package's /usr/lib/systemd/user/peerd.service, ExecStart
/usr/bin/peerd), peerctl on the default socket, peerd's lines in the journal, and a stop; and
`peerctl doctor`'s word on the unit before the manager runs, once it runs, and once peerd has
started. Writes what it saw to RESULT.json for the outer test to judge.
"""
import json
import os
import pathlib
import subprocess
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
from cgroups import enter_cgroups  # noqa: E402

MANAGER = "/lib/systemd/systemd"
JOURNALD = "/lib/systemd/systemd-journald"


class Inside:
    """Commands in the chroot: as root, or as the user with their session's environment."""

    def __init__(self, root, uid):
        self.root, self.uid = pathlib.Path(root), uid
        self.runtime = f"/run/user/{uid}"
        self.user = ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--init-groups", "--", "env",
                     f"XDG_RUNTIME_DIR={self.runtime}", "PATH=/usr/bin:/bin", "LANG=C.UTF-8"]

    def argv(self, command, as_user):
        home = next(line.split(":")[5] for line in (self.root / "etc/passwd").read_text().splitlines()
                    if line.split(":")[2] == str(self.uid))
        return ["chroot", str(self.root)] + (self.user + [f"HOME={home}"] if as_user else []) + command

    def run(self, *command, as_user=True, timeout=60):
        return subprocess.run(self.argv(list(command), as_user), capture_output=True, text=True, timeout=timeout)

    def start(self, *command, as_user=True, log=None):
        return subprocess.Popen(self.argv(list(command), as_user), stdout=subprocess.DEVNULL,
                                stderr=open(log, "w") if log else subprocess.DEVNULL)

    def systemctl(self, *args, timeout=60):
        return self.run("systemctl", "--user", *args, timeout=timeout)

    def show(self, *properties):
        out = self.systemctl("show", "peerd.service", *[f"--property={p}" for p in properties]).stdout
        return dict(line.split("=", 1) for line in out.splitlines() if "=" in line)


def wait_for(probe, timeout, interval=0.1):
    deadline = time.monotonic() + timeout
    while not (value := probe()) and time.monotonic() < deadline:
        time.sleep(interval)
    return value


def prepare(inside, cgroups):
    """Loopback, /sys (and the cgroups under it), a private /run with the user's runtime directory."""
    root = inside.root
    for command in (["ip", "link", "set", "lo", "up"], ["mount", "--rbind", "/sys", root / "sys"],
                    ["mount", "-t", "tmpfs", "-o", "mode=755", "tmpfs", root / "run"]):
        subprocess.run(list(map(str, command)), check=True)
    (root / "run/systemd/system").mkdir(parents=True)
    # In memory, where `journalctl --directory=/run/log/journal` reads it, whatever the chroot's /var has.
    (root / "run/systemd/journald.conf.d").mkdir()
    (root / "run/systemd/journald.conf.d/test.conf").write_text("[Journal]\nStorage=volatile\nForwardToSyslog=no\n")
    runtime = root / inside.runtime.lstrip("/")
    runtime.mkdir(parents=True, mode=0o700)
    subprocess.run(["chown", f"{inside.uid}:{inside.uid}", str(runtime)], check=True)
    enter_cgroups(cgroups)


def session(inside, scratch):
    """journald and the user manager, up and running; returns their processes."""
    journald = inside.start(JOURNALD, as_user=False, log=scratch / "journald.log")
    if not wait_for(lambda: (inside.root / "run/systemd/journal/stdout").exists(), 10):
        raise RuntimeError("journald did not start in the chroot")
    manager = inside.start(MANAGER, "--user", "--log-target=journal", log=scratch / "manager.log")
    state = wait_for(lambda: inside.systemctl("is-system-running").stdout.strip() in ("running", "degraded"), 30)
    if not state:
        raise RuntimeError(f"the user manager did not come up: {inside.systemctl('is-system-running').stdout!r}")
    return [manager, journald]


def doctor(inside):
    """`peerctl doctor --json`'s systemd check, as the user."""
    result = inside.run("peerctl", "doctor", "--json")
    try:
        return next(c for c in json.loads(result.stdout)["checks"] if c["id"] == "systemd")
    except (ValueError, KeyError, StopIteration):
        return {"error": f"exit {result.returncode}: {result.stdout[-300:]} {result.stderr[-300:]}"}


def exercise(inside):
    """Start the installed unit, ask peerd through peerctl, read the journal, stop it."""
    seen = {"enabled": inside.systemctl("is-enabled", "peerd.service").stdout.strip(),
            "doctor": {"manager, not enabled": doctor(inside)}}
    started = inside.systemctl("start", "peerd.service", timeout=60)
    seen["start"] = {"status": started.returncode, "stderr": started.stderr.strip()}
    seen["unit"] = inside.show("ActiveState", "SubState", "FragmentPath", "ExecStart", "MainPID", "Type")
    pid = seen["unit"].get("MainPID", "0")
    # This namespace's /proc is the chroot's (--mount-proc=ROOT/proc); the link reads as seen from here.
    seen["exe"] = os.readlink(inside.root / f"proc/{pid}/exe") if pid != "0" else None
    for name, args in (("status", ["status", "--json"]), ("list", ["list", "--json"])):
        result = inside.run("peerctl", *args)
        seen[name] = json.loads(result.stdout) if result.returncode == 0 else {"error": result.stderr.strip()}
    journal = inside.run("journalctl", "--directory=/run/log/journal", "SYSLOG_IDENTIFIER=peerd", "--output=cat",
                         as_user=False)
    seen["journal"] = journal.stdout.splitlines()[-20:]
    seen["doctor"]["started"] = doctor(inside)
    stopped = inside.systemctl("stop", "peerd.service", timeout=30)
    seen["stop"] = {"status": stopped.returncode, "after": inside.show("ActiveState", "Result")}
    return seen


def main(root, uid, result, *cgroups):
    inside, result = Inside(root, int(uid)), pathlib.Path(result)
    processes, seen = [], {}
    try:
        prepare(inside, cgroups)
        before = doctor(inside)
        processes = session(inside, result.parent)
        seen = exercise(inside)
        seen["doctor"]["no manager"] = before
        inside.systemctl("exit", timeout=10)
    except Exception as error:  # reported to the outer test, which fails the check with it
        seen["error"] = repr(error)
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
    result.write_text(json.dumps(seen, indent=1))


if __name__ == "__main__":
    main(*sys.argv[1:])
