#!/usr/bin/env python3
"""`peerctl doctor` on the LAN lab (`make test`): faults injected on a virtual LAN, and doctor on the
affected host names the cause and the fix (issue 13).

One lab of three hosts, h1 (alice, "A"), h2 (bob, "B") and h3 (carol, "C"), each with its own D-Bus,
avahi-daemon and peerd, all members of the lab's group. First the healthy lab: every check passes or
is skipped, `ok` is true, the exit status 0. Then one fault at a time, restored before the next:

  - multicast off on A's eth0                     → A: `multicast` fails, the fix says `multicast on`
  - nftables on A dropping UDP 5353               → A: `firewall` fails, the fix names 5353
  - nftables on A dropping the peer port (TCP)    → A: `firewall` fails, the fix names the port; B
                                                    (restarted, so it dials A) can't reach A: a
                                                    `peer-reach` (or `inbound-only`) failure about A
                                                    that says firewall or timed out
  - avahi-daemon killed on A                      → A: `avahi` fails, the fix names avahi-daemon
  - client isolation on the bridge ports of A, B  → A (C's peerd stopped, so A sees no one):
                                                    `peers-seen` or `peer-reach` fails, fix: isolation
  - C started with another group secret           → C: `peer-reach` fails, the fix says invite
  - C removed from the group on A                 → C: `peer-reach` about A fails and says removed
    (`peerctl members remove`; last: a removed key never comes back)

Every wait for doctor's answer polls `peerctl doctor --json` (the daemon learns of a failed dial
some time after the fault) for up to $PEERD_DOCTOR_WAIT seconds (default 30); a timeout fails the
check and shows doctor's last answer. After each fault is restored, the lab must come back: the
peers connected again and doctor on the affected host passing again. Two recoveries are only noted,
not required: B's after the port fault, and A's after the outsider C left (doctor keeps reporting
an inbound refusal of a peer that is gone, see the detail line).

Prints one line per check and ends with exactly `doctor: N passed, M failed` (../suite.py runs the
checks). Exit status: 0 all passed, 1 something failed, 77 the machine can't host the lab (one line,
`doctor skipped: <reason>`).

    sudo python3 integration/lab/test_doctor.py [--keep-logs]

Binaries come from $PEERD_BIN_DIR (default .build/debug).
"""
import argparse
import json
import os
import shutil
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lab as labkit  # noqa: E402
from harness import CheckFailed, HarnessError, TimedOut, eventually, indent, write_group_secret  # noqa: E402
from lab import sh  # noqa: E402
from suite import Suite  # noqa: E402

WAIT = float(os.environ.get("PEERD_LAB_WAIT", "20"))
DOCTOR_WAIT = float(os.environ.get("PEERD_DOCTOR_WAIT", "30"))
NAMES = {"h1": "alice", "h2": "bob", "h3": "carol"}
# Every check id of the contract but `peer-reach`, which comes once per peer that needs it.
REQUIRED_IDS = ["daemon", "avahi", "registered", "mdns-names", "peers-seen", "inbound-only", "multicast",
                "firewall", "clock", "permissions", "systemd", "relay", "overlay"]
KNOWN_IDS = set(REQUIRED_IDS) | {"peer-reach"}
STATUSES = {"pass", "fail", "skip"}
MARKS = {"pass": "✓", "fail": "✗", "skip": "–"}
NFT_TABLE = "pdtest"


# MARK: running doctor


class Doctor:
    """One answer of `peerctl doctor --json` on a host."""

    def __init__(self, host, returncode, report, stderr=""):
        self.host = host
        self.returncode = returncode
        self.report = report
        self.stderr = stderr

    @property
    def checks(self):
        return self.report["checks"]

    @property
    def ok(self):
        return self.report["ok"]

    def failing(self):
        return [c for c in self.checks if c["status"] == "fail"]

    def problems(self):
        """Where this answer disagrees with itself: `ok` true exactly when no check failed, exit 0 exactly then."""
        found = []
        if self.ok != (not self.failing()):
            found.append(f"ok is {self.ok} but {len(self.failing())} check(s) failed")
        if self.returncode != (0 if not self.failing() else 1):
            found.append(f"exit status {self.returncode} with {len(self.failing())} failed check(s)")
        return found

    def healthy(self):
        return not self.failing() and self.ok is True and self.returncode == 0

    def describe(self):
        lines = [f"exit {self.returncode}, ok {self.ok}"]
        lines += [describe_check(c) for c in self.checks]
        if self.stderr.strip():
            lines.append(f"stderr: {self.stderr.strip()[:300]}")
        return "\n".join(lines)


def describe_check(check, with_fix=True):
    about = ""
    if check.get("peer") or check.get("name"):
        about = " [" + " ".join(x for x in ((check.get("peer") or "")[:8], check.get("name") or "") if x) + "]"
    line = f"{MARKS.get(check.get('status'), '?')} {check.get('id')}{about} {check.get('status')}: {check.get('summary')}"
    if with_fix:
        if check.get("cause"):
            line += f"\n    cause: {check['cause']}"
        if check.get("fix"):
            line += f"\n    fix: {check['fix']}"
    return line


def run_doctor(host):
    """`peerctl doctor --json` on `host`, parsed and checked against the contract's shape."""
    result = host.peerctl("doctor", "--json", timeout=60)
    try:
        report = json.loads(result.stdout)
    except ValueError:
        raise HarnessError(
            f"`peerctl doctor --json` on {host.name} exited {result.returncode} without JSON: "
            f"stdout {result.stdout.strip()[:300]!r}, stderr {result.stderr.strip()[:300]!r}"
        ) from None
    shape = []
    if not isinstance(report, dict) or not isinstance(report.get("ok"), bool) or not isinstance(
            report.get("checks"), list):
        shape.append("not an object with a boolean `ok` and a `checks` array")
    else:
        for check in report["checks"]:
            if not isinstance(check, dict) or not isinstance(check.get("id"), str) \
                    or check.get("status") not in STATUSES or not isinstance(check.get("summary"), str):
                shape.append(f"a check without id, status pass|fail|skip and summary: {check}")
            elif check["id"] not in KNOWN_IDS:
                shape.append(f"a check id the contract doesn't name: {check['id']}")
            else:
                for field in ("cause", "fix", "peer", "name"):
                    if field in check and check[field] is not None and not isinstance(check[field], str):
                        shape.append(f"{check['id']}.{field} is not a string: {check[field]!r}")
    if shape:
        raise HarnessError(f"`peerctl doctor --json` on {host.name} is not the contract's shape: "
                           + "; ".join(shape) + f"\n{result.stdout.strip()[:1500]}")
    return Doctor(host, result.returncode, report, result.stderr)


def wait_doctor(host, accept, what, timeout=DOCTOR_WAIT):
    """Polls doctor on `host` until `accept(doctor)` is truthy; returns (that value, the Doctor). On a
    timeout the check fails and shows doctor's last answer."""
    last = {}

    def probe():
        doctor = run_doctor(host)
        last["doctor"] = doctor
        value = accept(doctor)
        return (value, doctor) if value else None

    try:
        return eventually(probe, timeout, what, 0.5)
    except TimedOut as error:
        doctor = last.get("doctor")
        shown = doctor.describe() if doctor else "(no answer from doctor)"
        raise CheckFailed(f"{error}\nlast `peerctl doctor --json` on {host.name}:\n{indent(shown, '  ')}") from None


def is_about(check, host, ctx):
    """True if a per-peer check names `host`'s peer (by id, a prefix of it, or the name)."""
    peer = (check.get("peer") or "").lower()
    ids = [i for k, i in ctx.ids.items() if k.split("/")[0] == host.name]
    if peer and any(i.startswith(peer) or peer.startswith(i[:8]) for i in ids):
        return True
    return check.get("name") == NAMES[host.name] or peer == NAMES[host.name]


def expect_failure(ctx, host, ids, words, fields=("cause", "fix"), about=None, timeout=DOCTOR_WAIT):
    """Waits until doctor on `host` has a failed check with an id in `ids` (about the peer `about`,
    when given) whose `fields` contain one of `words` (case-insensitive). Returns (check, doctor, word).
    Also fails if that answer says `ok` or exits 0."""

    def match(doctor):
        for check in doctor.failing():
            if check["id"] not in ids or (about is not None and not is_about(check, about, ctx)):
                continue
            text = " ".join(str(check.get(f) or "") for f in fields).lower()
            for word in words:
                if word.lower() in text:
                    return check, word
        return None

    subject = f" about {about.name}" if about is not None else ""
    what = (f"doctor on {host.name} failing {' or '.join(ids)}{subject} with "
            f"{' or '.join(repr(w) for w in words)} in its {'/'.join(fields)}")
    (check, word), doctor = wait_doctor(host, match, what, timeout)
    problems = doctor.problems()
    if problems:
        raise CheckFailed(f"doctor on {host.name}: {'; '.join(problems)}\n{indent(doctor.describe(), '  ')}")
    return check, doctor, word


# MARK: the lab's peers


class Context:
    def __init__(self, lab):
        self.lab = lab
        self.a, self.b, self.c = lab.hosts[:3]
        self.ids = {}
        self.details = []
        self.doctor_missing = None
        self.other_secret = None

    @property
    def trio(self):
        return [self.a, self.b, self.c]

    def note(self, line):
        self.details.append(line)


def start(ctx, host, **kwargs):
    host.start_peerd(NAMES[host.name], **kwargs)
    ctx.ids[host.name] = host.status()["peer"]


def restart(ctx, host, **kwargs):
    host.stop_peerd()
    start(ctx, host, **kwargs)


def connected_ids(host):
    return {p.get("peer") for p in host.peers() if p.get("state") == "connected"}


def describe_peers(host):
    try:
        rows = host.peers()
    except HarnessError as error:
        return f"{host.name}: {error}"
    shown = ", ".join(f"{(p.get('peer') or '?')[:8]}/{p.get('name')} {p.get('source')} {p.get('state')}"
                      + (f" ({p.get('lastError')})" if p.get("lastError") else "") for p in rows)
    return f"{host.name} peers: [{shown}]"


def wait_connected(ctx, hosts, what, timeout=WAIT * 2):
    def all_connected():
        return all({ctx.ids[o.name] for o in hosts if o is not h} <= connected_ids(h) for h in hosts)

    try:
        eventually(all_connected, timeout, what, 0.25)
    except TimedOut as error:
        raise CheckFailed(f"{error}\n" + "\n".join(describe_peers(h) for h in hosts)) from None


def running(ctx):
    return [h for h in ctx.trio if h.peerd_running()]


def settle(ctx, strict=(), lenient=()):
    """After a fault is restored: the running peers connected again, doctor passing again on `strict`
    hosts (else the check fails) and on `lenient` ones (else a note)."""
    hosts = running(ctx)
    wait_connected(ctx, hosts, f"after restoring, {', '.join(h.name for h in hosts)} connected again")
    for host in strict:
        wait_doctor(host, Doctor.healthy, f"after restoring, doctor on {host.name} passing again")
    for host in lenient:
        try:
            wait_doctor(host, Doctor.healthy, f"after restoring, doctor on {host.name} passing again", 10)
        except CheckFailed as failure:
            ctx.note(f"note: {str(failure).splitlines()[0]}; it still says: "
                     + "; ".join(describe_check(c, False) for c in run_doctor(host).failing()))
    ctx.note("restored: " + ", ".join(h.name for h in hosts) + " connected"
             + (f"; doctor passes again on {', '.join(h.name for h in strict)}" if strict else ""))


def nft(host, *rules):
    """Runs each `nft` command (a string) inside `host`'s network namespace."""
    for rule in rules:
        host.run(f"nft {rule}", check=True)


def drop_on_input(host, match):
    """An nftables table of the test's on `host` that drops what matches `match` on input."""
    nft(host, f"add table inet {NFT_TABLE}",
        f"add chain inet {NFT_TABLE} input '{{ type filter hook input priority 0; }}'",
        f"add rule inet {NFT_TABLE} input {match} drop")


def remove_drop(host):
    host.run(f"nft delete table inet {NFT_TABLE}")


def isolate(ctx, hosts, on):
    for host in hosts:
        sh(["ip", "netns", "exec", ctx.lab.lan_ns, "bridge", "link", "set", "dev", host.port_name,
            "isolated", "on" if on else "off"])


def found(check, word, doctor):
    """The detail line for the check that showed the fault."""
    return f"{doctor.host.name}: {describe_check(check, False)}\n    cause: {check.get('cause')}\n    fix: {check.get('fix')}" \
           f"\n    ({word!r} found; exit {doctor.returncode}, ok {doctor.ok})"


# MARK: checks


def check_healthy(ctx):
    """On a healthy lab every check of every host passes or is skipped, ok is true, exit 0; the
    plain output has one ✓/– line per check."""
    for host in ctx.trio:
        if not host.peerd_running():
            start(ctx, host)
    wait_connected(ctx, ctx.trio, "h1, h2 and h3 connected to each other")
    try:
        run_doctor(ctx.a)
    except HarnessError as error:
        ctx.doctor_missing = str(error).splitlines()[0]
        raise
    for host in ctx.trio:
        _, doctor = wait_doctor(host, Doctor.healthy,
                                f"doctor on {host.name}: every check pass or skip, ok true, exit 0")
        ids = [c["id"] for c in doctor.checks]
        missing = [i for i in REQUIRED_IDS if i not in ids]
        if missing:
            raise CheckFailed(f"doctor on {host.name} has no check {', '.join(missing)}\n"
                              f"{indent(doctor.describe(), '  ')}")
        skipped = [c["id"] for c in doctor.checks if c["status"] == "skip"]
        if host is ctx.a:
            for check in doctor.checks:
                ctx.note(f"h1: {describe_check(check, False)}")
        else:
            ctx.note(f"{host.name}: ok, {len(doctor.checks)} checks, skipped: {', '.join(skipped) or 'none'}")
    plain = ctx.a.peerctl("doctor", timeout=60)
    doctor = run_doctor(ctx.a)
    marked = [line for line in plain.stdout.splitlines() if line.lstrip()[:1] in MARKS.values()]
    if plain.returncode != 0 or any(line.lstrip().startswith("✗") for line in marked) \
            or len(marked) != len(doctor.checks):
        raise CheckFailed(f"plain `peerctl doctor` on h1: exit {plain.returncode}, {len(marked)} lines with a mark "
                          f"for {len(doctor.checks)} checks:\n{indent(plain.stdout, '  ')}")
    ctx.note(f"plain `peerctl doctor` on h1: exit 0, {len(marked)} lines, each ✓ or –")


def check_multicast_off(ctx):
    """`ip link set dev eth0 multicast off` on A: doctor on A fails `multicast`, fix `multicast on`."""
    a = ctx.a
    a.run(["ip", "link", "set", "dev", "eth0", "multicast", "off"], check=True)
    try:
        check, doctor, word = expect_failure(ctx, a, ["multicast"], ["multicast on"])
        ctx.note(found(check, word, doctor))
        plain = a.peerctl("doctor", timeout=60)
        lines = [line for line in plain.stdout.splitlines() if line.lstrip().startswith("✗")]
        if plain.returncode != 1 or not lines or "multicast on" not in plain.stdout.lower():
            raise CheckFailed(f"plain `peerctl doctor` on h1: exit {plain.returncode}, expected 1, a ✗ line and "
                              f"the fix 'multicast on':\n{indent(plain.stdout, '  ')}")
        ctx.note(f"plain output: exit 1, {lines[0].strip()}")
    finally:
        a.run(["ip", "link", "set", "dev", "eth0", "multicast", "on"], check=True)
    settle(ctx, strict=[a])


def check_udp_5353(ctx):
    """nftables on A drops UDP 5353: doctor on A fails `firewall`, the fix names 5353."""
    a = ctx.a
    drop_on_input(a, "udp dport 5353")
    try:
        check, doctor, word = expect_failure(ctx, a, ["firewall"], ["5353"])
        ctx.note(found(check, word, doctor))
    finally:
        remove_drop(a)
    settle(ctx, strict=[a])


def check_tcp_port(ctx):
    """nftables on A drops its TCP peer port: doctor on A fails `firewall` naming the port; B,
    restarted so that it dials A, can't reach A and says firewall or timed out."""
    a, b = ctx.a, ctx.b
    port = a.peerd_port or labkit.PEERD_PORT
    drop_on_input(a, f"tcp dport {port}")
    try:
        check, doctor, word = expect_failure(ctx, a, ["firewall"], [str(port)])
        ctx.note(found(check, word, doctor))
        restart(ctx, b)
        check, doctor, word = expect_failure(ctx, b, ["peer-reach", "inbound-only"],
                                             ["firewall", "timed out", "timeout", "time out"], about=a)
        ctx.note(found(check, word, doctor))
        ctx.note(describe_peers(b))
    finally:
        remove_drop(a)
    settle(ctx, strict=[a], lenient=[b])


def check_avahi_stopped(ctx):
    """avahi-daemon on A killed: doctor on A fails `avahi`, the fix names avahi-daemon."""
    a = ctx.a
    a.kill_avahi(signal.SIGKILL)
    try:
        if not a.peerd_running():
            raise CheckFailed(f"peerd on h1 exited ({a.peerd.returncode}) when avahi-daemon was killed")
        check, doctor, word = expect_failure(ctx, a, ["avahi"], ["avahi-daemon"])
        ctx.note(found(check, word, doctor))
    finally:
        if a.avahi.poll() is not None:
            a.start_avahi()
    settle(ctx, strict=[a])


def check_isolation(ctx):
    """Client isolation on the bridge ports of A and B (C's peerd stopped; A's avahi-daemon and peerd
    restarted, so nothing A knew from before helps): doctor on A fails `peers-seen` or `peer-reach`
    with isolation in the fix."""
    a, b, c = ctx.a, ctx.b, ctx.c
    c.stop_peerd()
    isolate(ctx, [a, b], True)
    try:
        a.stop_peerd()
        a.kill_avahi(signal.SIGTERM)
        a.start_avahi()
        start(ctx, a)
        check, doctor, word = expect_failure(ctx, a, ["peers-seen", "peer-reach"], ["isolation", "isolated"])
        ctx.note(found(check, word, doctor))
        try:
            others = run_doctor(b).failing()
            ctx.note("h2 (not required) says: " + ("; ".join(describe_check(x, False) for x in others)
                                                  or "no failed check"))
        except HarnessError as error:
            ctx.note(f"h2: {error}")
    finally:
        isolate(ctx, [a, b], False)
        if a.avahi is None or a.avahi.poll() is not None:
            a.start_avahi()
        if not a.peerd_running():
            start(ctx, a)
    # B announces itself afresh, so A (whose browse found nothing) learns of it now, not at its next query.
    restart(ctx, b)
    settle(ctx, strict=[a])


def check_other_secret(ctx):
    """C (a new identity) started with another group secret: doctor on C fails `peer-reach` with
    invite in the fix. What A says about C is reported."""
    a, c = ctx.a, ctx.c
    if ctx.other_secret is None:
        ctx.other_secret = write_group_secret(ctx.lab.run_dir / "other.secret")
    if c.peerd_running():
        c.stop_peerd()
    c.start_peerd(NAMES["h3"], fresh_state=True, group_secret=ctx.other_secret)
    ctx.ids["h3/outsider"] = c.status()["peer"]
    try:
        check, doctor, word = expect_failure(ctx, c, ["peer-reach"], ["invite"])
        ctx.note(found(check, word, doctor))
        try:
            def about_c(doctor):
                return [x for x in doctor.failing() if x["id"] == "peer-reach" and is_about(x, c, ctx)]

            (seen, _) = wait_doctor(a, about_c, "doctor on h1 failing peer-reach about C", 10)
            says = seen[0]
            mentions = "invite" in f"{says.get('cause')} {says.get('fix')}".lower()
            ctx.note(f"h1 about C (not required): {describe_check(says, False)}; fix: {says.get('fix')}"
                     f" — {'mentions' if mentions else 'does not mention'} invite")
        except CheckFailed:
            ctx.note("h1 (not required) shows no peer-reach failure about C within 10 s")
    finally:
        c.stop_peerd()
        c.state_dir = c.dir / "state"  # back to C's own identity, a member, for what follows
    settle(ctx, lenient=[a])


def check_removed(ctx):
    """C (a member again) removed from the group on A with `peerctl members remove`: doctor on C fails
    `peer-reach` about A, and says removed. Last: a removed key never comes back."""
    a, c = ctx.a, ctx.c
    if not c.peerd_running():
        start(ctx, c)
    wait_connected(ctx, running(ctx), "C connected again before it is removed")
    removed = a.peerctl("members", "remove", ctx.ids["h3"])
    if removed.returncode != 0:
        raise HarnessError(f"peerctl members remove on h1 failed ({removed.returncode}): {removed.stderr.strip()}")
    check, doctor, word = expect_failure(ctx, c, ["peer-reach"], ["removed"], fields=("summary", "cause"), about=a)
    ctx.note(found(check, word, doctor))


CHECKS = [
    ("healthy lab: every check passes or is skipped, ok, exit 0", check_healthy, ["h1", "h2", "h3"], None),
    ("multicast off on A's eth0 → multicast, 'multicast on'", check_multicast_off, ["h1"], None),
    ("nftables on A drops UDP 5353 → firewall, '5353'", check_udp_5353, ["h1"], "nft"),
    ("nftables on A drops the peer port → firewall on A; B can't reach A", check_tcp_port, ["h1", "h2"], "nft"),
    ("avahi-daemon stopped on A → avahi, 'avahi-daemon'", check_avahi_stopped, ["h1"], None),
    ("client isolation on the bridge (A, B) → peers-seen/peer-reach, 'isolation'", check_isolation, ["h1", "h2"],
     "bridge"),
    ("C with another group secret → peer-reach on C, 'invite'", check_other_secret, ["h1", "h3"], None),
    ("C removed from the group on A → peer-reach on C, 'removed'", check_removed, ["h1", "h3"], None),
]

LOG_TAILS = {"peerd.log": 12, "avahi.log": 4}





def recover(ctx):
    """After a failed check, best effort: no fault left behind, every peerd running and connected."""
    for host in ctx.trio:
        try:
            remove_drop(host)
            host.run(["ip", "link", "set", "dev", "eth0", "multicast", "on"])
            if host.avahi is None or host.avahi.poll() is not None:
                host.start_avahi()
        except HarnessError:
            pass
    try:
        isolate(ctx, ctx.trio, False)
        for host in ctx.trio:
            if not host.peerd_running():
                start(ctx, host)
        wait_connected(ctx, ctx.trio, "recovery after a failed check")
    except (CheckFailed, HarnessError) as error:
        print(indent(f"(recovery: {str(error).splitlines()[0]})"), flush=True)


def run_checks(lab, suite):
    ctx = Context(lab)
    for title, check, involved, needs in CHECKS:
        title = f"doctor: {title}"
        if ctx.doctor_missing:
            suite.skip_check(title, "peerctl doctor does not answer")
            continue
        if needs and not shutil.which(needs):
            hint = " (apt-get install nftables)" if needs == "nft" else ""
            suite.skip_check(title, f"`{needs}` is not installed{hint}")
            continue
        ctx.details = []
        if not suite.check(title, check, ctx, notes=ctx.details):
            lab.print_logs(involved, LOG_TAILS)
            recover(ctx)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--keep-logs", action="store_true", help="keep the run's logs even when all pass")
    args = parser.parse_args()
    suite = Suite("doctor")
    reason = labkit.preflight()
    if reason:
        return suite.skip(reason)

    def banner(lab):
        return (f"lab {lab.prefix}: h1 (A, alice), h2 (B, bob), h3 (C, carol) with their own D-Bus, avahi-daemon"
                f" and peerd; logs in {lab.run_dir}")
    return labkit.run_suite(suite, {"hosts": 3, "keep_logs": args.keep_logs or None}, banner,
                            lambda lab: run_checks(lab, suite))


if __name__ == "__main__":
    sys.exit(main())
