"""What the relay suite (test_relay.py) and its benchmark (bench_relay.py) share: reading a peerd's
sessions and relays through `peerctl --json`, and pairing two peerd by invite code.

The readers take either shape of a list answer: the bare array peerctl prints for `peers` today
(proto/PEERCTL-JSON.md) or the control response's object (`{"type":"peers","peers":[...]}`,
`{"type":"relays","relays":[...]}`).
"""

import json
import time

from harness import CheckFailed, HarnessError

RELAY_PATH = "relay"
DIRECT_PATH = "direct"


def peerctl_json(host, *args, timeout=30):
    """`peerctl ARGS --json` on `host`, parsed; a failure (a HarnessError, so a bounded wait counts it
    as "not yet" and names it if time runs out) says what peerctl printed."""
    result = host.peerctl(*args, "--json", timeout=timeout)
    if result.returncode != 0:
        raise HarnessError(f"{host.name}: peerctl {' '.join(map(str, args))} --json failed ({result.returncode}): "
                          f"{(result.stderr or result.stdout).strip()}")
    try:
        return json.loads(result.stdout)
    except ValueError:
        raise HarnessError(f"{host.name}: peerctl {' '.join(map(str, args))} --json printed no JSON: "
                          f"{result.stdout.strip()[:300]}") from None


def rows(answer, key):
    """The records of a list answer: the array itself, or the object's `key`."""
    if isinstance(answer, list):
        return answer
    if isinstance(answer, dict) and isinstance(answer.get(key), list):
        return answer[key]
    raise HarnessError(f"expected a list or an object with {key!r}, got {str(answer)[:300]}")


def peer_rows(host):
    return rows(peerctl_json(host, "peers"), "peers")


def relay_rows(host):
    """`peerctl relay --json`'s relays on `host`."""
    return rows(peerctl_json(host, "relay"), "relays")


def session(host, peer_id):
    """`host`'s row for `peer_id` when connected, else None."""
    return next((p for p in peer_rows(host) if p.get("peer") == peer_id and p.get("state") == "connected"), None)


def sessions_on(host, peer_id, path, via=None):
    """`host`'s connected row for `peer_id` when its path is `path` (and `via`, when given), else None."""
    row = session(host, peer_id)
    if row and row.get("path") == path and (via is None or row.get("via") == via):
        return row
    return None


def relay_row(host, relay_id):
    """`host`'s relay whose URL names `relay_id`, else None."""
    return next((r for r in relay_rows(host) if f"id={relay_id}" in str(r.get("url", ""))), None)


def describe_relays(host):
    try:
        shown = [f"{r.get('address')} {r.get('state')}"
                 + (f" {r['latencyMs']} ms" if "latencyMs" in r else "")
                 + (f" ({r['lastError']})" if r.get("lastError") else "")
                 + (f" retry in {r['retryIn']} s" if "retryIn" in r else "")
                 + f", {r.get('sessions', '?')} sessions" for r in relay_rows(host)]
    except HarnessError as error:
        return f"{host.name} relays: {error}"
    return f"{host.name} relays: [{'; '.join(shown) or 'none'}]"


def describe_peers(host, names):
    """One line: `host`'s peers as name state path via (lastError)."""
    try:
        shown = [f"{names.get(p.get('peer'), (p.get('peer') or '?')[:8])} {p.get('state')}"
                 + (f" {p['path']}" if p.get("path") else "") + (f" via {p['via']}" if p.get("via") else "")
                 + (f" ({p['lastError']})" if p.get("lastError") else "") for p in peer_rows(host)]
    except HarnessError as error:
        return f"{host.name} peers: {error}"
    return f"{host.name} peers: [{'; '.join(shown) or 'none'}]"


def invite(inviter):
    code = peerctl_json(inviter, "invite").get("code")
    if not code:
        raise CheckFailed(f"peerctl invite --json on {inviter.name} printed no code")
    return code


def join(joiner, code, inviter_id, *extra):
    """`peerctl join CODE` on `joiner` (it waits up to 20 s for the pairing); returns the seconds it
    took. Fails unless it says it joined `inviter_id`."""
    started = time.monotonic()
    joined = peerctl_json(joiner, "join", code, *extra, timeout=60)
    if joined.get("peer") != inviter_id:
        raise CheckFailed(f"{joiner.name} joined {joined}, not the inviter {inviter_id}")
    return time.monotonic() - started


def forged_code(code):
    """A wl2 code like `code` (the same inviter, its device id, the same relay) with a secret the
    inviter never made: what an outsider who learnt alice's relay id could bring. The encoding is
    proto/SECURITY.md's "Invite codes": base32 of id ‖ secret ‖ device ‖ relay, then 2 check bytes."""
    import base64
    import hashlib
    import os
    body = code.lower().replace("-", "")
    if not body.startswith("wl2"):
        raise CheckFailed(f"not a wl2 code: {code}")
    text = body[3:].upper()
    raw = base64.b32decode(text + "=" * (-len(text) % 8))
    payload = raw[:-2]
    forged = payload[:16] + os.urandom(16) + payload[32:]
    encoded = base64.b32encode(forged + hashlib.sha256(forged).digest()[:2]).decode().rstrip("=").lower()
    return "wl2-" + "-".join(encoded[i:i + 5] for i in range(0, len(encoded), 5))
