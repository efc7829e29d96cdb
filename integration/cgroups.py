"""A delegated cgroup for a user manager the tests start (integration/systemd, integration/package):
made under every writable hierarchy, owned by the user, and removed once its processes are gone."""
import os
import pathlib
import time


def cgroup_roots():
    """The hierarchies a user manager needs a cgroup in: cgroup2 alone, or systemd's v1 one plus cgroup2."""
    base = pathlib.Path("/sys/fs/cgroup")
    if (base / "cgroup.controllers").exists():
        roots = [base]
    else:
        roots = [p for p in (base / "systemd", base / "unified") if (p / "cgroup.procs").exists()]
    return [r for r in roots if os.access(r, os.W_OK)]


def make_cgroups(name, uid):
    """A delegated cgroup per hierarchy, owned by `uid`, as user@.service gets one."""
    made = []
    for root in cgroup_roots():
        path = root / name
        path.mkdir()
        made.append(path)
        for entry in [path] + [path / f for f in ("cgroup.procs", "cgroup.subtree_control", "cgroup.threads")]:
            if entry.exists():
                os.chown(entry, uid, uid)
    return made


def enter_cgroups(paths):
    """Moves this process (and so whatever it starts next) into `paths`."""
    for path in paths:
        pathlib.Path(path, "cgroup.procs").write_text(str(os.getpid()))


def remove_cgroups(paths):
    for path in map(pathlib.Path, paths):
        for _ in range(50):
            try:
                for sub in sorted(path.rglob("*"), key=lambda p: len(p.parts), reverse=True):
                    if sub.is_dir():
                        sub.rmdir()
                path.rmdir()
                break
            except FileNotFoundError:
                break
            except OSError:
                time.sleep(0.1)  # the namespace's processes are still being reaped
