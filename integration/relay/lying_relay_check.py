"""Relay check j (issue 42, "Bad relays"): a relay that lies about sessions admits nobody and loses
nothing. lying_relay.py, on the relay host, is a second relay of the group that puts every session
through to mallory, a stranger's peerd on the same host; strelaysrv is down meanwhile, so the liar
is the only way between the houses."""

import json
import os
import sys

from harness import CheckFailed, HarnessError, eventually
from houses import RELAY_IP
from lab import PEERD_PORT
from relay_context import BACK_WAIT, RELAY_VIA, WAIT, movie_ids, waited
from relay_support import RELAY_PATH, peer_rows, peerctl_json, relay_row, sessions_on

LIAR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "lying_relay.py")
# Below strelaysrv's 22067, so the liar's URL sorts first among the group's relays and is tried
# first: once strelaysrv is back, a dial must pass the liar over and go on to it.
LIAR_PORT, LIAR_SESSIONS = 22057, 22058
MALLORYS_MOVIE = (4242, "Mallory's own")
WHILE_LYING = (2003, "Added while the relay lied")


def check_lying_relay(ctx):
    """A relay of the group's that answers every ConnectRequest with an invitation "from" the device
    asked for and splices the session into mallory's peerd: bob's dials of alice reach mallory, whom
    TLS and admission refuse on both ends; no member or movie crosses either way; alice's add made
    meanwhile reaches bob once strelaysrv is back, and the lying relay is taken out again."""
    h = ctx.houses
    ctx.ensure_running()
    waited(ctx, lambda: sessions_on(ctx.bob, ctx.id(ctx.alice), RELAY_PATH, RELAY_VIA),
           "alice–bob through strelaysrv first", hosts=[ctx.alice, ctx.bob])
    h.relay.start_peerd("mallory", group_secret=False, fresh_state=True)
    h.relay.add(*MALLORYS_MOVIE)
    mallory = h.relay.status()["peer"]
    liar = h.relay.spawn([sys.executable, LIAR, "--listen", f"{RELAY_IP}:{LIAR_PORT}",
                          "--sessions", str(LIAR_SESSIONS), "--splice-to", f"127.0.0.1:{PEERD_PORT}"],
                         "lying_relay.log")
    url, liar_id = eventually(lambda: printed_uri(h.relay.dir / "lying_relay.log", liar), WAIT,
                              "the lying relay printing its URI: line", 0.05)
    members = {x.name: len(peerctl_json(x, "members").get("members", [])) for x in (ctx.alice, ctx.bob)}
    try:
        lied = lie_through(ctx, url, liar_id, mallory)
    finally:
        ctx.alice.peerctl("relay", "remove", url)
        if not h.relay_running():
            h.start_relay()
        h.relay.stop_peerd()
        liar.kill()
    if {x.name: len(peerctl_json(x, "members").get("members", [])) for x in (ctx.alice, ctx.bob)} != members:
        raise CheckFailed(f"the group changed while the relay lied: members before {members}")
    return lied


def lie_through(ctx, url, liar_id, mallory):
    """The liar added to the group and joined by alice and bob; strelaysrv down; bob's dials spliced
    into mallory and refused; strelaysrv back, and what alice added meanwhile on bob."""
    h = ctx.houses
    added = ctx.alice.peerctl("relay", "add", url)
    if added.returncode != 0:
        raise CheckFailed(f"peerctl relay add {url} on alice: {added.stderr.strip()}")
    waited(ctx, lambda: all((r := relay_row(x, liar_id)) and r.get("state") == "joined" for x in (ctx.alice, ctx.bob)),
           "alice and bob joined to the lying relay", hosts=[ctx.alice, ctx.bob])
    h.stop_relay()
    _, seconds = waited(ctx, lambda: splices_from(h, h.rB.wan_ip), "bob's session for alice spliced into mallory",
                        hosts=[ctx.alice, ctx.bob])
    ctx.alice.add(*WHILE_LYING)
    refused, _ = waited(ctx, lambda: refused_by_mallory(h.relay, [ctx.id(ctx.alice), ctx.id(ctx.bob)],
                                                           set(ctx.ids.values())),
                        "alice and bob each put through to mallory, and refused", hosts=[ctx.alice, ctx.bob])
    stranger = [p for x in (ctx.alice, ctx.bob) for p in peer_rows(x)
                if p.get("peer") == mallory and p.get("state") == "connected"]
    if stranger or MALLORYS_MOVIE[0] in movie_ids(ctx.bob) | movie_ids(ctx.alice):
        raise CheckFailed(f"mallory got in: sessions {stranger}, bob lists {sorted(movie_ids(ctx.bob))}")
    if movie_ids(h.relay) != {MALLORYS_MOVIE[0]}:
        raise CheckFailed(f"mallory's list took the group's movies: {sorted(movie_ids(h.relay))}")
    said, _ = waited(ctx, lambda: told_of_the_lie(ctx.bob, ctx.id(ctx.alice)), "bob's peers saying the relay lied "
                     "about his session with alice", hosts=[ctx.bob])
    spliced = {house: len(splices_from(h, router.wan_ip)) for house, router in (("A", h.rA), ("B", h.rB))}
    ctx.note(f"sessions spliced into mallory: {spliced['A']} from house A, {spliced['B']} from house B, bob's first "
             f"{seconds:.1f} s after strelaysrv went; bob's dial of alice says: {said}; mallory lists {refused}")
    h.start_relay()
    _, back = waited(ctx, lambda: sessions_on(ctx.bob, ctx.id(ctx.alice), RELAY_PATH, RELAY_VIA)
                     and WHILE_LYING[0] in movie_ids(ctx.bob), "alice–bob through strelaysrv again, with alice's "
                     "add made while the relay lied", timeout=BACK_WAIT, hosts=[ctx.alice, ctx.bob])
    return (f"{sum(spliced.values())} sessions put through to mallory, each refused; nothing crossed; strelaysrv "
            f"back and alice's add on bob {back:.1f} s later")


def told_of_the_lie(host, peer):
    """`host`'s lastError for `peer` once it says the relay lied about the session."""
    said = next((p.get("lastError") or "" for p in peer_rows(host) if p.get("peer") == peer), "")
    return said if "lied about the session" in said else None


def printed_uri(log, liar):
    if liar.poll() is not None:
        raise HarnessError(f"lying_relay.py exited ({liar.returncode}): {log.read_text(errors='replace')[-2000:]}")
    for line in log.read_text(errors="replace").splitlines() if log.exists() else []:
        if line.startswith("URI: "):
            url = line[len("URI: "):].strip()
            return url, url.split("id=", 1)[1]
    return None


def splices_from(h, source_ip):
    """The lying relay's `spliced` events for sessions joined from `source_ip` (a router's wan address)."""
    events = []
    for line in (h.relay.dir / "lying_relay.log").read_text(errors="replace").splitlines():
        if line.startswith("{"):
            events.append(json.loads(line))
    return [e for e in events if e.get("event") == "spliced" and e.get("source", "").startswith(source_ip + ":")]


def refused_by_mallory(host, dialers, members):
    """mallory's rows for the group's members once each of `dialers` has one (each dialed the other
    through the liar and reached her), none of them trusted or connected."""
    rows = {p.get("peer"): p for p in peer_rows(host) if p.get("peer") in members}
    if any(r.get("state") == "connected" or r.get("trust") not in (None, "untrusted") for r in rows.values()):
        raise CheckFailed(f"mallory lists a member as a peer: {rows}")
    return {p[:8]: r.get("lastError") or r.get("state") for p, r in rows.items()} if set(dialers) <= set(rows) else None
