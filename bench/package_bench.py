#!/usr/bin/env python3
"""The Debian package's binaries, which carry the Swift runtime inside them (`--static-swift-stdlib`,
Makefile `RELEASE`), against a release build of the same sources linked to the runtime dynamically
(`make release-dynamic`: `RELEASE` without `--static-swift-stdlib`, in .build-dynamic), for
`make bench-package` (root).

    sudo python3 bench/package_bench.py --deb .build-deb/peerd_0.1.0_amd64.deb \
        [--dynamic-bin .build-dynamic/release] [--runs 20] [--movies 1000] [--results bench/results.json]

1. Size. The .deb file; peerd + peerctl as it installs them (`dpkg-deb -x`, stripped by dh_strip);
   the dynamic build's two binaries stripped as dh_strip strips executables, alone and with the
   Swift runtime libraries they load (`ldd`: libswift*, libFoundation*, lib_FoundationICU,
   libdispatch, libBlocksRuntime), stripped as dh_strip strips shared libraries, since a package of
   that build would have to ship them too. For the .deb's compressed size beside it, the files of
   each build are packed in one tar.xz at dpkg-deb's default level (xz -6).
2. Start-up: wall time from spawning peerd to its READY=1 on $NOTIFY_SOCKET (a unix datagram socket
   this script waits on, with a pidfd in case peerd exits instead), and its peak RSS then (VmHWM).
   Two cases: a first start on an empty state dir (a new identity is made), and a restart on a state
   dir holding --movies movies (added once by peerctl; each run starts on a fresh copy). --runs timed
   runs per case and build, after one untimed run each, the two builds taking turns. The binaries
   that run are the stripped ones of 1. (the dynamic ones find the runtime in the toolchain); peerd runs with
   `--port 0 --listen-address 127.0.0.1 --no-mdns --no-web --no-guests --no-tmdb`, in a network
   namespace of its own with only loopback (this process enters it, so `ip netns exec` adds nothing
   to the clock); the namespace is deleted at the end, also on failure.

Sizes in MB of 10^6 bytes, RSS in MB of 2^20 as peerd-bench counts it. Prints the rows; with
--results, merges them into that file's "results" (integration/lab/bench_discovery.py's
merge_results) and writes the file back as plain JSON with two-space indents. Exits 0 when it
measured, 1 when it could not, 77 with one "skipped:" line when this machine can't make a network
namespace (not root, no iproute2).
"""
import argparse
import ctypes
import json
import lzma
import os
import pathlib
import select
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "integration" / "lab"))
from bench_discovery import merge_results, percentile  # noqa: E402

SKIP = 77
RUNTIME_PREFIXES = ("libswift", "libFoundation", "lib_FoundationICU", "libdispatch", "libBlocksRuntime")
TOOLS = ("peerd", "peerctl")
CLONE_NEWNET = 0x40000000
READY_TIMEOUT = 30
MB = 1e6


def run(command, **kwargs):
    return subprocess.run(command, check=True, capture_output=True, text=True, **kwargs)


# MARK: size


def stripped_copy(path, target, shared):
    """A copy of `path` in `target`, stripped as dh_strip strips an executable or a shared library."""
    copy = target / path.name
    shutil.copyfile(path, copy)
    copy.chmod(0o755)
    extra = ["--strip-unneeded"] if shared else []
    run(["strip", "--remove-section=.comment", "--remove-section=.note", *extra, str(copy)])
    return copy


def runtime_libraries(binaries):
    """The Swift runtime libraries `binaries` load, by `ldd`: resolved path of each, once."""
    found = {}
    for binary in binaries:
        for line in run(["ldd", str(binary)]).stdout.splitlines():
            name, _, rest = line.strip().partition(" => ")
            if name.startswith(RUNTIME_PREFIXES):
                if not rest or rest.startswith("not found"):
                    raise RuntimeError(f"{binary.name}: {name} not found by ldd")
                found[name] = pathlib.Path(os.path.realpath(rest.split(" (")[0]))
    return [found[name] for name in sorted(found)]


def xz_size(files, target):
    """Bytes of one tar.xz of `files` at xz's default level (6), as dpkg-deb packs data.tar.xz."""
    archive = target / "bundle.tar.xz"
    with tarfile.open(archive, "w:xz", preset=6) as tar:
        for path in files:
            tar.add(path, arcname=path.name)
    size = archive.stat().st_size
    archive.unlink()
    return size


def total(paths):
    return sum(path.stat().st_size for path in paths)


def measure_size(deb, dynamic_bin, work):
    """Sizes in bytes, and the binaries each build's start-ups run: {"static": [...], "dynamic": [...]}."""
    installed = work / "deb"
    run(["dpkg-deb", "-x", str(deb), str(installed)])
    static = [installed / "usr" / "bin" / tool for tool in TOOLS]
    shipped = work / "dynamic"
    shipped.mkdir()
    built = [dynamic_bin / tool for tool in TOOLS]
    dynamic = [stripped_copy(path, shipped, shared=False) for path in built]
    libraries = runtime_libraries(built)
    if not libraries:
        raise RuntimeError(f"{dynamic_bin}'s binaries load no Swift runtime library: not a dynamic build")
    runtime_dir = work / "runtime"
    runtime_dir.mkdir()
    runtime = [stripped_copy(path, runtime_dir, shared=True) for path in libraries]
    size = {
        "deb": deb.stat().st_size, "static": total(static), "static_xz": xz_size(static, work),
        "dynamic_unstripped": total(built), "dynamic": total(dynamic),
        "runtime_toolchain": total(libraries), "runtime": total(runtime),
        "dynamic_xz": xz_size(dynamic + runtime, work), "libraries": [path.name for path in libraries],
    }
    return size, {"static": static, "dynamic": dynamic}


# MARK: start-up


class Namespace:
    """A network namespace with only loopback, up, that this process (and so each child) is in
    while the `with` lasts; deleted on leaving it, whatever happened."""

    def __init__(self, name):
        self.name = name
        self.libc = ctypes.CDLL(None, use_errno=True)

    def _setns(self, path):
        with open(path) as handle:
            if self.libc.setns(handle.fileno(), CLONE_NEWNET) != 0:
                raise OSError(ctypes.get_errno(), f"setns {path}")

    def __enter__(self):
        run(["ip", "netns", "add", self.name])
        self.home = os.open("/proc/self/ns/net", os.O_RDONLY)
        try:
            run(["ip", "netns", "exec", self.name, "ip", "link", "set", "lo", "up"])
            self._setns(f"/run/netns/{self.name}")
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc):
        try:
            if self.libc.setns(self.home, CLONE_NEWNET) != 0:
                print(f"could not leave {self.name}: errno {ctypes.get_errno()}", file=sys.stderr)
        finally:
            os.close(self.home)
            subprocess.run(["ip", "netns", "del", self.name], capture_output=True)


def skip_reason():
    if os.geteuid() != 0:
        return "a network namespace needs root"
    if shutil.which("ip") is None:
        return "ip (iproute2) is needed"
    return None


def peak_rss_mb(pid):
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmHWM")


class Daemon:
    """One peerd on `state`, started by `start()` and timed to its READY=1."""

    def __init__(self, peerd, state, work):
        self.peerd, self.state, self.work = peerd, state, work
        self.socket = work / "control.sock"
        self.log = work / "peerd.log"
        self.proc = None

    def command(self):
        return [str(self.peerd), "--name", "bench", "--port", "0", "--listen-address", "127.0.0.1", "--no-mdns",
                "--no-web", "--no-guests", "--no-tmdb", "--state-dir", str(self.state), "--socket", str(self.socket)]

    def start(self):
        """Spawns peerd and waits for READY=1: (milliseconds from spawn to it, VmHWM then in MB)."""
        notify_path = self.work / "notify.sock"
        notify_path.unlink(missing_ok=True)
        environment = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(self.work),
                       "XDG_CONFIG_HOME": str(self.work / "config"), "NOTIFY_SOCKET": str(notify_path)}
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as notify, open(self.log, "w") as log:
            notify.bind(str(notify_path))
            started = time.perf_counter()
            self.proc = subprocess.Popen(self.command(), env=environment, stdout=log, stderr=log)
            exited = os.pidfd_open(self.proc.pid)
            try:
                while True:
                    readable, _, _ = select.select([notify, exited], [], [], READY_TIMEOUT)
                    if notify in readable:
                        message = notify.recv(4096)
                        if b"READY=1" in message.split(b"\n"):
                            elapsed = (time.perf_counter() - started) * 1000
                            return elapsed, peak_rss_mb(self.proc.pid)
                    elif exited in readable or not readable:
                        self.stop()
                        raise RuntimeError(f"{self.peerd} {'exited' if readable else 'sent no READY=1'}:\n"
                                           f"{self.log.read_text(errors='replace')[-2000:]}")
            finally:
                os.close(exited)

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def make_template(peerd, peerctl, work, movies):
    """A state dir holding `movies` movies, added one by one by peerctl to a peerd then stopped."""
    template = work / "template"
    daemon = Daemon(peerd, template, work)
    daemon.start()
    try:
        for n in range(1, movies + 1):
            run([str(peerctl), "--socket", str(daemon.socket), "add", str(10000 + n), "--title", f"Movie {n}"])
        listed = json.loads(run([str(peerctl), "--socket", str(daemon.socket), "--json", "list"]).stdout)
    finally:
        daemon.stop()
    if len(listed) != movies:
        raise RuntimeError(f"the template lists {len(listed)} movies, not {movies}")
    return template


def time_starts(builds, template, work, runs):
    """{build: ([ms...], [MB...])} over `runs` timed starts each after one untimed, builds taking
    turns (their order swapped every run); each start on a fresh copy of `template`, or empty."""
    times = {build: ([], []) for build in builds}
    for n in range(runs + 1):
        order = list(builds) if n % 2 == 0 else list(reversed(builds))
        for build in order:
            state = work / f"state-{build}-{n}"
            if template:
                shutil.copytree(template, state)
            daemon = Daemon(builds[build], state, work)
            try:
                elapsed, rss = daemon.start()
            finally:
                daemon.stop()
            shutil.rmtree(state, ignore_errors=True)
            if n > 0:
                times[build][0].append(elapsed)
                times[build][1].append(rss)
    return times


# MARK: rows


def size_rows(size):
    libraries = size["libraries"]
    return [
        {"measure": "package size: the .deb (Swift runtime inside the binaries)", "value": size["deb"] / MB,
         "unit": "MB", "target": "none", "met": True,
         "detail": f"its two binaries alone in one tar.xz (xz -6, as dpkg-deb): {size['static_xz'] / MB:.1f} MB; "
                   f"the dynamic build's binaries and Swift runtime the same way: {size['dynamic_xz'] / MB:.1f} MB"},
        {"measure": "package size: peerd + peerctl installed, static Swift runtime", "value": size["static"] / MB,
         "unit": "MB", "target": "none", "met": True,
         "detail": "/usr/bin/peerd + /usr/bin/peerctl from the .deb (stripped by dh_strip); needs no Swift runtime"},
        {"measure": "package size: peerd + peerctl, dynamic Swift runtime, binaries alone",
         "value": size["dynamic"] / MB, "unit": "MB", "target": "none", "met": True,
         "detail": f"the same sources and link, without --static-swift-stdlib, stripped as dh_strip does; "
                   f"{size['dynamic_unstripped'] / MB:.1f} MB as built"},
        {"measure": "package size: peerd + peerctl, dynamic Swift runtime, with the runtime",
         "value": (size["dynamic"] + size["runtime"]) / MB, "unit": "MB", "target": "none", "met": True,
         "detail": f"the binaries and the {len(libraries)} runtime libraries they load ({', '.join(libraries)}): "
                   f"{size['runtime'] / MB:.1f} MB stripped, {size['runtime_toolchain'] / MB:.1f} MB as the "
                   "toolchain has them"},
    ]


def start_rows(case, label, times, runs):
    rows = []
    for build in ("static", "dynamic"):
        elapsed, rss = times[build]
        rows.append({"measure": f"start → READY=1, {label}, {build} Swift runtime, p50",
                     "value": statistics.median(elapsed), "unit": "ms", "target": "none", "met": True,
                     "detail": f"p90 {percentile(elapsed, 90):.1f} ms, {runs} runs after 1 untimed, the builds "
                               f"taking turns; spawn → READY=1 on NOTIFY_SOCKET; {case}"})
    for build in ("static", "dynamic"):
        elapsed, rss = times[build]
        rows.append({"measure": f"peak RSS at READY=1, {label}, {build} Swift runtime",
                     "value": statistics.median(rss), "unit": "MB", "target": "none", "met": True,
                     "detail": f"VmHWM when READY=1 arrives, median of {runs} runs (highest {max(rss):.1f} MB)"})
    return rows


def write_results(path, rows):
    """Merges `rows` with bench_discovery's merge_results, then rewrites the file as the repository
    keeps it: plain `json.dumps(indent=2)`, no escaped slashes, a final newline."""
    merge_results(path, rows)
    path = pathlib.Path(path)
    report = json.loads(path.read_text())
    path.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")


def print_rows(rows):
    for row in rows:
        print(f"{row['measure']}: {row['value']:.2f} {row['unit']} — {row['detail']}", flush=True)


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deb", type=pathlib.Path, required=True, help="the package, .build-deb/peerd_*.deb")
    parser.add_argument("--dynamic-bin", type=pathlib.Path, default=ROOT / ".build-dynamic" / "release",
                        help="where `make release-dynamic` put peerd and peerctl")
    parser.add_argument("--runs", type=int, default=20, help="timed starts per case and build (default 20)")
    parser.add_argument("--movies", type=int, default=1000, help="movies on the restart's state dir (default 1000)")
    parser.add_argument("--results", metavar="FILE", help="merge the rows into this results.json")
    parser.add_argument("--keep", action="store_true", help="keep the work directory")
    return parser.parse_args()


def main():
    args = parse_arguments()
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, lambda s, f: sys.exit(130))
    reason = skip_reason()
    if reason:
        print(f"skipped: {reason}")
        return SKIP
    missing = [str(p) for p in (args.deb, *(args.dynamic_bin / tool for tool in TOOLS)) if not p.exists()]
    if missing:
        print(f"package bench: missing {', '.join(missing)} (make deb release-dynamic)")
        return 1
    work = pathlib.Path(tempfile.mkdtemp(prefix="peerd-pkg-bench-"))
    try:
        size, binaries = measure_size(args.deb, args.dynamic_bin, work)
        rows = size_rows(size)
        print_rows(rows)
        peerds = {build: tools[0] for build, tools in binaries.items()}
        with Namespace(f"peerd-pkg-bench-{os.getpid()}"):
            empty = time_starts(peerds, None, work, args.runs)
            template = make_template(peerds["static"], binaries["static"][1], work, args.movies)
            restart = time_starts(peerds, template, work, args.runs)
        starts = (start_rows("a first start: the identity key made, an empty operation log", "empty state dir",
                             empty, args.runs)
                  + start_rows(f"a restart on a copy of a state dir with {args.movies:,} movies added by "
                               "peerctl", f"{args.movies:,} movies", restart, args.runs))
        print_rows(starts)
        rows += starts
    except (OSError, RuntimeError, subprocess.CalledProcessError) as error:
        detail = getattr(error, "stderr", "") or ""
        print(f"package bench failed: {error} {detail}".strip(), flush=True)
        print(f"package bench: work dir kept in {work}", flush=True)
        return 1
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    if args.results:
        write_results(args.results, rows)
        print(f"merged into {args.results}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
