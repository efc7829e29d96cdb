#!/usr/bin/env python3
"""The Debian package (`make deb`), tested as a package (`make test`, stage `package`): lintian, what
it holds, and a clean Debian 12 with no Swift in it, made by debootstrap, where apt installs it,
upgrades it and purges it.

    python3 integration/package/test_package.py [--deb .build-deb/peerd_0.1.0_amd64.deb] [--keep] [--base-only]

The chroot's base (debootstrap --variant=minbase bookworm, from the mirror apt's sources name) is kept
in .build-deb/bookworm between runs; each run works on a copy of it. `--base-only` only makes it:
`make test` runs that in the background while it builds. apt inside the chroot fetches the
package's Depends from that mirror, as a user's apt would. peerd runs in the chroot inside a network
namespace of its own (loopback only), so it never listens on this machine's addresses.

Prints one PASS/FAIL line per check and ends with `package: N passed, M failed`; exit status 0 when
all passed, 1 otherwise, 77 with one line `package skipped: why` when the machine can't (not root, no
debootstrap, lintian or ip netns).
"""
import argparse
import fcntl
import gzip
import json
import os
import pathlib
import re
import shutil
import signal
import subprocess
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
import harness  # noqa: E402
from cgroups import cgroup_roots, make_cgroups, remove_cgroups  # noqa: E402
from harness import CheckFailed  # noqa: E402
from suite import Suite, exit_on_signals  # noqa: E402

ROOT = harness.ROOT
BASE = ROOT / ".build-deb" / "bookworm"
PATHS = ["usr/bin/peerd", "usr/bin/peerctl", "usr/lib/systemd/user/peerd.service",
         "usr/share/man/man1/peerd.1.gz", "usr/share/man/man1/peerctl.1.gz",
         "usr/share/bash-completion/completions/peerd", "usr/share/bash-completion/completions/peerctl",
         "usr/share/zsh/vendor-completions/_peerd", "usr/share/zsh/vendor-completions/_peerctl",
         "usr/share/fish/vendor_completions.d/peerd.fish", "usr/share/fish/vendor_completions.d/peerctl.fish",
         "usr/share/doc/peerd/copyright", "usr/share/doc/peerd/changelog.gz", "usr/share/doc/peerd/IMPORT.md",
         "usr/share/doc/peerd/USAGE.md"]
STATE = "/home/ada/.local/state/peerd"  # the user's state, inside the chroot
FIXTURE = ROOT / "Tests/EndToEndTests/Fixtures/state-0.1.0"  # a state folder 0.1.0 made (StateFixtureTests)
USER_UID = int(os.environ.get("PEERD_PACKAGE_TEST_UID", "61240"))
SOCKET = "/home/ada/peerd.sock"


def run(argv, check=True, timeout=300, **kwargs):
    result = subprocess.run([str(a) for a in argv], capture_output=True, text=True, timeout=timeout, **kwargs)
    if check and result.returncode != 0:
        raise CheckFailed(f"{' '.join(map(str, argv))} exited {result.returncode}:\n"
                          f"{harness.indent((result.stdout + result.stderr)[-2000:])}")
    return result


def mirror():
    """The Debian mirror apt's sources name (deb822 or one-line), else deb.debian.org."""
    for path in sorted(pathlib.Path("/etc/apt").glob("sources.list.d/*.sources")) + [pathlib.Path("/etc/apt/sources.list")]:
        text = path.read_text() if path.exists() else ""
        found = re.search(r"^URIs:\s*(\S+/debian)\s*$", text, re.M) or re.search(r"^deb\s+(?:\[[^]]*\]\s+)?(\S+/debian)\s", text, re.M)
        if found:
            return found.group(1)
    return "http://deb.debian.org/debian"


def make_base():
    """The debootstrapped base in BASE, made once and kept. Under a lock: `make test` starts making it
    in the background while it builds (Makefile), and this stage may begin before that is done. A
    marker beside it says the debootstrap finished; one that was cut short is made again."""
    BASE.parent.mkdir(parents=True, exist_ok=True)
    done = BASE.parent / "bookworm.done"
    with open(BASE.parent / "bookworm.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if done.exists() and (BASE / "usr/bin/apt-get").exists():
            return
        done.unlink(missing_ok=True)
        shutil.rmtree(BASE, ignore_errors=True)
        run(["debootstrap", "--variant=minbase", "bookworm", BASE, mirror()], timeout=900)
        done.touch()


class Chroot:
    """A copy of the debootstrapped base, with /proc mounted, and a network namespace to run peerd in."""

    def __init__(self, work):
        self.dir = work / "root"
        self.netns = f"pkg{os.getpid()}"
        self.mounted = False
        self.daemon = None

    def up(self):
        make_base()
        run(["cp", "-a", BASE, self.dir])
        shutil.copy("/etc/resolv.conf", self.dir / "etc/resolv.conf")
        run(["mount", "-t", "proc", "proc", self.dir / "proc"])
        self.mounted = True
        run(["ip", "netns", "add", self.netns])
        run(["ip", "-n", self.netns, "link", "set", "lo", "up"])

    def sh(self, command, check=True, timeout=300, netns=False):
        argv = (["ip", "netns", "exec", self.netns] if netns else []) + ["chroot", self.dir, "sh", "-c", command]
        env = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "DEBIAN_FRONTEND": "noninteractive", "LANG": "C.UTF-8"}
        return run(argv, check=check, timeout=timeout, env=env)

    def apt_install(self, *what):
        return self.sh("apt-get install -y -q " + " ".join(what), timeout=600)

    def start_peerd(self):
        """peerd as the user ada would run it, on loopback in the namespace; waits until it answers."""
        self.sh(f"mkdir -p /home/ada && chmod 700 /home/ada")
        argv = ["ip", "netns", "exec", self.netns, "chroot", self.dir, "env", "HOME=/home/ada",
                "XDG_RUNTIME_DIR=/home/ada", "/usr/bin/peerd", "--name", "ada", "--no-mdns", "--no-guests",
                "--listen-address", "127.0.0.1", "--socket", SOCKET]
        self.daemon = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)

        def answers():
            if self.daemon.poll() is not None:
                raise CheckFailed(f"peerd exited {self.daemon.returncode}: {self.daemon.stderr.read()[-1500:]}")
            return self.peerctl("status", check=False).returncode == 0
        harness.eventually(answers, 30, "peerd in the chroot answers peerctl")

    def stop_peerd(self):
        if self.daemon and self.daemon.poll() is None:
            self.daemon.send_signal(signal.SIGTERM)
            self.daemon.wait(timeout=15)
        self.daemon = None

    def peerctl(self, *args, check=True):
        return self.sh(f"HOME=/home/ada /usr/bin/peerctl --socket {SOCKET} " + " ".join(args), check=check,
                       netns=True)

    def down(self):
        self.stop_peerd()
        if self.mounted:
            subprocess.run(["umount", "-l", str(self.dir / "proc")])
        subprocess.run(["ip", "netns", "del", self.netns], stderr=subprocess.DEVNULL)


def bumped(deb, work, version):
    """The same package with another version: what an upgrade brings."""
    unpacked = work / "bumped"
    run(["dpkg-deb", "-R", deb, unpacked])
    control = unpacked / "DEBIAN/control"
    control.write_text(re.sub(r"^Version: .*$", f"Version: {version}", control.read_text(), flags=re.M))
    out = work / f"peerd_{version}_amd64.deb"
    run(["dpkg-deb", "--root-owner-group", "-b", unpacked, out])
    return out


# MARK: the checks


def check_lintian(w):
    result = run(["lintian", "--fail-on", "error,warning", w.deb], check=False)
    tags = [line for line in result.stdout.splitlines() if line[:2] in ("E:", "W:")]
    if result.returncode != 0 or tags:
        raise CheckFailed(f"lintian exited {result.returncode}: {tags[:10]}")
    return f"lintian --fail-on error,warning: clean ({w.deb.name}, {w.deb.stat().st_size / 1e6:.1f} MB)"


def check_contents(w):
    tree = w.work / "contents"
    run(["dpkg-deb", "-x", w.deb, tree])
    missing = [p for p in PATHS if not (tree / p).is_file()]
    if missing:
        raise CheckFailed(f"the package lacks {missing}")
    needed = {}
    for tool in ("peerd", "peerctl"):
        dynamic = run(["readelf", "-d", tree / "usr/bin" / tool]).stdout
        needed[tool] = re.findall(r"\(NEEDED\)\s+Shared library: \[([^]]+)\]", dynamic)
    swift = [lib for libs in needed.values() for lib in libs if lib.startswith("libswift")]
    unit = (tree / "usr/lib/systemd/user/peerd.service").read_text()
    # The options every subcommand takes are said once, not under each of them (make man).
    page = gzip.decompress((tree / "usr/share/man/man1/peerctl.1.gz").read_bytes()).decode()
    socket_items = page.count(".It Fl -socket")
    problems = ([f"links the Swift runtime: {swift}"] if swift else []) + \
        ([] if "\nExecStart=/usr/bin/peerd\n" in unit else ["the unit's ExecStart is not /usr/bin/peerd"]) + \
        ([] if socket_items == 1 else [f"peerctl.1 describes --socket {socket_items} times, not once"])
    if problems:
        raise CheckFailed("; ".join(problems))
    return (f"{len(PATHS)} files in place; readelf -d: no libswift* (peerd needs {', '.join(needed['peerd'])}); "
            f"peerctl.1 describes --socket once")


def check_install(w):
    w.chroot.up()
    if w.chroot.sh("command -v swift", check=False).returncode == 0:
        raise CheckFailed("the chroot has a Swift toolchain: it can't show what the package needs")
    shutil.copy(w.deb, w.chroot.dir / "tmp" / w.deb.name)
    w.chroot.sh("apt-get update -q")
    w.chroot.apt_install(f"/tmp/{w.deb.name}")
    version = w.chroot.sh("peerd --version").stdout.strip()
    helped = w.chroot.sh("peerctl --help").stdout
    enabled = w.chroot.sh("ls /etc/systemd/user/default.target.wants/ 2>/dev/null; true").stdout.split()
    if version != w.version or "USAGE: peerctl" not in helped or "peerd.service" in enabled:
        raise CheckFailed(f"peerd --version {version!r} (want {w.version}); peerctl --help: {helped[:80]!r}; "
                          f"enabled for every user: {enabled}")
    w.chroot.apt_install("systemd")
    # --man=no: the man pages it names are the package's own; man-db is not in a minimal system.
    verify = w.chroot.sh("systemd-analyze verify --man=no /usr/lib/systemd/user/peerd.service 2>&1", check=False)
    if verify.returncode != 0:
        raise CheckFailed(f"systemd-analyze verify: {verify.stdout[-800:]}")
    return (f"apt installed {w.deb.name} and its Depends in a debootstrapped Debian 12 with no Swift; "
            f"peerd --version {version}; peerctl --help; the unit verifies and is not enabled")


def check_upgrade(w):
    w.chroot.start_peerd()
    w.chroot.peerctl("add", "603", "--title", "'The Matrix'", "--year", "1999")
    w.chroot.peerctl("add", "550", "--title", "'Fight Club'", "--year", "1999")
    before = json.loads(w.chroot.peerctl("status", "--json").stdout)
    w.chroot.stop_peerd()
    newer = bumped(w.deb, w.work, w.version + "+upgrade1")
    shutil.copy(newer, w.chroot.dir / "tmp" / newer.name)
    w.chroot.apt_install(f"/tmp/{newer.name}")
    installed = w.chroot.sh("dpkg-query -W -f '${Version}' peerd").stdout
    w.chroot.start_peerd()
    listed = json.loads(w.chroot.peerctl("list", "--json").stdout)
    after = json.loads(w.chroot.peerctl("status", "--json").stdout)
    w.chroot.stop_peerd()
    rows = listed["movies"] if isinstance(listed, dict) else listed
    ids = sorted(m["movieId"] for m in rows)
    if installed != w.version + "+upgrade1" or ids != [550, 603] or after["peer"] != before["peer"]:
        raise CheckFailed(f"after the upgrade to {installed}: movies {ids}, peer {after['peer']} (was {before['peer']})")
    return f"upgraded {w.version} → {installed}: the state folder kept its 2 movies and its identity {after['peer'][:8]}"


def check_user_manager(w):
    """bea, a user of the chroot whose state folder 0.1.0 made, starts the installed unit with systemctl --user."""
    if not cgroup_roots():
        raise CheckFailed("no writable cgroup hierarchy at /sys/fs/cgroup for the user manager")
    w.chroot.sh(f"useradd --create-home --uid {USER_UID} --user-group bea")
    home = w.chroot.dir / "home/bea"
    shutil.copytree(FIXTURE, home / ".local/state/peerd", ignore=shutil.ignore_patterns("expected.json"))
    (home / ".config/peerd").mkdir(parents=True)
    # Off this machine's LAN: loopback of the namespace only, no mDNS, no guest door.
    (home / ".config/peerd/config.json").write_text(
        json.dumps({"port": 0, "listenAddress": "127.0.0.1", "mdns": False, "guests": False}))
    # git keeps no file modes but the executable bit: peerd's own are 0700 and 0600 (it refuses a
    # key others can read).
    w.chroot.sh("chown -R bea:bea /home/bea && chmod 700 /home/bea/.local/state/peerd && "
                "chmod 600 /home/bea/.local/state/peerd/*")
    seen = user_session(w)
    expected = json.loads((FIXTURE / "expected.json").read_text())
    unit, status = seen.get("unit", {}), seen.get("status", {})
    listed = sorted(m["movieId"] for m in seen.get("list", [])) if isinstance(seen.get("list"), list) else None
    wanted = {"error": None, "enabled": "disabled", "started": 0, "state": "active/running",
              "fragment": "/usr/lib/systemd/user/peerd.service", "exe": "/usr/bin/peerd",
              "peer": expected["peer"], "movies": sorted(m["movieId"] for m in expected["movies"]),
              "journal says serving": True, "stopped": (0, "inactive")}
    got = {"error": seen.get("error"), "enabled": seen.get("enabled"), "started": seen.get("start", {}).get("status"),
           "state": f"{unit.get('ActiveState')}/{unit.get('SubState')}", "fragment": unit.get("FragmentPath"),
           "exe": (seen.get("exe") or "").removeprefix(str(w.chroot.dir)), "peer": status.get("peer"),
           "movies": listed, "journal says serving": any(" serving " in f" {line} " for line in seen.get("journal", [])),
           "stopped": (seen.get("stop", {}).get("status"), seen.get("stop", {}).get("after", {}).get("ActiveState"))}
    wrong = {k: (got[k], wanted[k]) for k in wanted if got[k] != wanted[k]}
    wrong.update(doctor_on_the_unit(seen.get("doctor", {})))
    if wrong or "path=/usr/bin/peerd " not in unit.get("ExecStart", ""):
        raise CheckFailed(f"got, wanted: {wrong}; ExecStart {unit.get('ExecStart')!r}; start said "
                          f"{seen.get('start')}; journal: {seen.get('journal', [])[-5:]}")
    said = seen["doctor"]
    return (f"systemctl --user start peerd: {got['state']}, ExecStart /usr/bin/peerd from {got['fragment']}; "
            f"peerctl on the default socket: 0.1.0's folder, peer {status['peer'][:8]}, {len(listed)} movies; "
            "peerd's lines in the journal; stopped cleanly; doctor said, with no user manager: "
            f"{said['no manager']['summary']!r} (fix: {said['no manager']['fix']!r}); with one: "
            f"{said['manager, not enabled']['summary']!r}; once started: {said['started']['summary']!r}")


def doctor_on_the_unit(said):
    """What is wrong with `peerctl doctor`'s systemd check at each step of the user session: the unit
    is named installed where the package put it, with what keeps it from running."""
    unit = "peerd.service is installed (/usr/lib/systemd/user/peerd.service)"
    wanted = {"no manager": ("fail", unit + ", but no systemd user manager answers", "loginctl enable-linger"),
              "manager, not enabled": ("fail", unit + ", but not enabled", "systemctl --user enable --now peerd"),
              "started": ("pass", unit + ": active (running), not enabled", "")}
    wrong = {}
    for step, (status, summary, fix) in wanted.items():
        check = said.get(step, {})
        if check.get("status") != status or not check.get("summary", "").startswith(summary) \
                or fix not in check.get("fix", ""):
            wrong[f"doctor, {step}"] = (check, (status, summary, fix))
    return wrong


def user_session(w):
    """Runs user_manager.py in new PID, mount and network namespaces; returns what it saw."""
    cgroups = make_cgroups(f"peerd-package-test-{os.getpid()}", USER_UID)
    result = w.work / "user-manager.json"
    try:
        run(["unshare", "-m", "-p", "-n", "-f", "--kill-child", "--propagation", "private",
             f"--mount-proc={w.chroot.dir}/proc", sys.executable, HERE / "user_manager.py", w.chroot.dir, USER_UID,
             result, *cgroups], timeout=240)
    finally:
        remove_cgroups(cgroups)
    if not result.exists():
        raise CheckFailed("the user manager's namespace ended without a result")
    return json.loads(result.read_text())


def check_purge(w):
    w.chroot.sh("apt-get purge -y -q peerd")
    left = [p for p in PATHS if (w.chroot.dir / p).exists()]
    status = w.chroot.sh("dpkg-query -W -f '${db:Status-Abbrev}' peerd 2>/dev/null; true").stdout.strip()
    kept = (w.chroot.dir / STATE.lstrip("/")).is_dir()
    if left or status.startswith("ii") or not kept:
        raise CheckFailed(f"after purge: left {left}, dpkg status {status!r}, the user's state kept: {kept}")
    return f"purge left none of the package's {len(PATHS)} files; the user's state ({STATE}) stays, as Debian does"


CHECKS = [
    ("lintian is clean with --fail-on error,warning", check_lintian),
    ("the package holds the binaries (no libswift*), the user unit, man pages, completions, docs, copyright",
     check_contents),
    ("apt installs it in a clean Debian 12 with no Swift; --version, --help, the unit verifies", check_install),
    ("an upgrade keeps the state folder's list and identity", check_upgrade),
    ("a real user manager starts the installed unit, on a state folder 0.1.0 made", check_user_manager),
    ("purge leaves nothing of the package; the user's state stays", check_purge),
]


class World:
    def __init__(self, work, deb):
        self.work, self.deb = work, deb
        self.version = run(["dpkg-deb", "-f", deb, "Version"]).stdout.strip()
        self.chroot = Chroot(work)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deb", type=pathlib.Path)
    parser.add_argument("--keep", action="store_true")
    parser.add_argument("--base-only", action="store_true", help="only make the debootstrapped base, then exit")
    args = parser.parse_args()
    exit_on_signals()
    suite = Suite("package")
    if os.geteuid() != 0:
        return suite.skip("needs root (debootstrap, chroot, ip netns)")
    for tool in ("debootstrap", "lintian", "dpkg-deb", "ip"):
        if not shutil.which(tool):
            return suite.skip(f"needs {tool} (make test-deps installs it)")
    if args.base_only:
        make_base()
        print(f"package: the base is ready in {BASE}")
        return 0
    debs = sorted((ROOT / ".build-deb").glob("peerd_*.deb"), key=lambda p: p.stat().st_mtime)
    deb = args.deb or (debs[-1] if debs else None)
    if not deb or not deb.exists():
        suite.fail("no package: run `make deb` first")
        return suite.finish()
    work = harness.scratch_dir("package")
    w = World(work, deb)
    try:
        suite.run(CHECKS, w)
    finally:
        w.chroot.down()
        if not args.keep:
            harness.remove_scratch(work)
    return suite.finish()


if __name__ == "__main__":
    sys.exit(main())
