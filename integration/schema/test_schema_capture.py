#!/usr/bin/env python3
"""Capture real traffic of three running peerds and of real peerctl runs, and validate every frame
against the JSON Schemas in proto/ with an independent validator (python-jsonschema).

Control traffic goes through Unix proxies that copy bytes unchanged while recording frames:
  peerctl --socket alice-proxy.sock  ->  [unix proxy]  ->  alice.sock
  peerctl --socket carol-proxy.sock  ->  [unix proxy]  ->  carol.sock
Peer traffic is TLS 1.3 (proto/SECURITY.md), so a TCP proxy would see only ciphertext. Instead every
daemon runs with PEERD_TRACE_FRAMES=<file>: peerd appends each JSON peer frame it sends or receives
after admission, as 1 byte direction (`>` sent, `<` received), a 4-byte big-endian length and the
body. Every traced frame of every daemon, both directions, is validated.

The scenario: alice and bob share a group secret (--group-secret-file) and alice dials bob; carol
has no secret and pairs with alice through `peerctl invite` / `peerctl join --address`. alice alone
holds a TMDB key, for integration/catalog/fake_tmdb.py on loopback: her describe operations must
reach bob, and search, show and refresh run on her (carol, who has no key, searches and browses
TMDB's lists through her: `query`, `answer`). peerctl id, trust and forget run too, so every control
request and response type is captured. Peer `error` frames come from `peerctl forget carol` on
alice: alice closes its session with carol with an `error` (code `revoked`, "revoked with peerctl
forget"), which shows up in both traces. The error frames a receiver sends for bad input
(malformed-frame, unsupported-version, ...) can no longer be provoked from here: a plain socket
never gets past TLS and admission, so nothing it sends reaches the JSON layer. Those are covered by
proto/golden/peer-error*.bin and the invalid-peer-*.bin frames (`proto/validate.py --golden`,
Tests/PeerdWireTests/GoldenFrameTests.swift) and, for members' bad frames over TLS, by
Tests/EndToEndTests/BadInputTests.swift.

Members' marks (PEER.md, "Marks and watches"): once carol is in, alice and carol mark movies and
carol logs a watch with alice through their proxies (`mark`, `watch`, `marked`), bob one with
alice; alice pages through her `history` and lists by the marks (`unseen`, `by`, `wantedBy`, `sort`,
paging by `+N`). carol's `mark` and `watch` operations must reach alice, and alice's marks bob.

News (CONTROL.md, "news"): alice and carol read the group's news of wanted movies, the page's count
of it is asked raw (`limit` 0, which peerctl never sends), and `peerctl news --follow --json` gets its
first batch; no check reports a change within the run, so the news is empty.

Picks (PEER.md, "Picks"): alice opens a majority pick of the list with everyone connected (bob and
carol); each votes on their next movie, alice once more on a movie she names (a raw `vote` with
`pick` and `movie`, which peerctl never sends), then she closes it (`pick`, `vote`, `pickClose`,
`pickState`). carol opens a ranked pick with alice, both rank, carol asks for it by its opening (a
raw `pickStatus` with `pick`) and closes it, and alice logs its result as watched. carol's pick
operations must reach alice, and alice's bob and carol.

The relay tree (PEER.md, "Relay tree"; every peerd hello says `"tree":true`, which is checked): once
carol is in, she also dials bob (`peerctl connect`), closing a triangle. alice then adds movies one
at a time: each operation reaches bob and carol directly and again relayed by the other, and the
copy that arrives already held is pruned on the session it came by; alice adds until bob has sent
carol a `prune` naming alice, so carol's session to bob only announces alice's operations. Then
alice stops (gracefully) and starts again without `--peer`: bob has no address to dial her (she
dialed him), carol redials her (`join --address` kept her as a static peer), so alice's next adds
reach only carol. carol announces them to bob with `have`; bob, still lacking them a second later,
sends carol `graft`, and carol pushes them. The test waits until bob lists them.

Each step of the scenario, and then each check of what was captured, prints one PASS or FAIL line
(../suite.py); the run ends with `schema: N passed, M failed`. It fails on any invalid frame, on a
message type that was never seen (per stream; for peer frames, in each direction where the protocol
requires it), or on a trace that is missing or does not parse. Binaries come from $PEERD_BIN_DIR
(default .build/debug); capture.py holds the proxies, the trace readers and the daemons.
"""
import json
import os
import select
import signal
import subprocess
import sys
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import harness  # noqa: E402
from harness import CheckFailed, expect_eventually  # noqa: E402
from suite import Suite, exit_on_signals  # noqa: E402
from capture import Capture, read_trace, traced  # noqa: E402

sys.path.insert(0, str(harness.ROOT / "proto"))
from validate import validate_body  # noqa: E402

RELAY_MOVIES = [(155, "The Dark Knight"), (278, "The Shawshank Redemption"), (238, "The Godfather"),
                (129, "Spirited Away"), (157336, "Interstellar"), (78, "Blade Runner"), (62, "2001: A Space Odyssey"),
                (105, "Back to the Future"), (862, "Toy Story"), (807, "Se7en")]
# The message types each stream must show.
EXPECTED = {
    "peer": {"hello", "ops", "ping", "pong", "error", "members", "have", "prune", "graft", "query", "answer", "list"},
    "control-request": {"add", "remove", "list", "mark", "watch", "history", "pick", "vote", "pickStatus", "pickClose",
                        "follow", "peers", "status", "connect", "invite", "join", "forget", "trust", "search",
                        "discover", "similar", "genres", "services", "show", "refresh", "page", "diagnose",
                        "members", "removeMember", "profiles", "addProfile", "deviceLink", "deviceList",
                        "deviceUnlink", "lists", "listCreate", "listMember", "news", "relay"},
    "control-response": {"added", "removed", "list", "marked", "history", "pickState", "following", "change", "peers",
                         "status", "connecting", "invite", "joined", "forgotten", "trusted", "error", "searchResults",
                         "movies", "genres", "services", "shown", "refreshing", "page", "diagnosis", "members",
                         "memberRemoved", "profileAdded", "deviceLink", "devices", "deviceUnlinked", "lists",
                         "listCreated", "listChanged", "news", "relays"},
}


def expected_directions(names):
    """The peer message types each daemon must have sent and received. Every session starts with
    hello and members each way; alice sends carol the error of `forget`. The relay tree: bob prunes
    alice's origin on his session with carol, carol announces alice's later operations to him with
    `have`, and he grafts the origin back. carol, without a token, searches and browses through alice:
    `query` and `answer`."""
    expected = {f"{name} {way}": {"hello", "members", "ops"} for name in names for way in ("sent", "received")}
    for key, types in {"alice sent": {"error", "answer"}, "carol received": {"error", "prune", "graft", "answer"},
                       "bob sent": {"prune", "graft"}, "carol sent": {"have", "query"}, "bob received": {"have"},
                       "alice received": {"query"}}.items():
        expected[key] |= types
    return expected


# MARK: the scenario


def step_control(c):
    """Adds, removes and lists through alice's proxy, while `list --follow` runs there too."""
    c.up()
    c.follower = subprocess.Popen(harness.peerctl_argv(c.sock, "list", "--follow", "--json"),
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    # The adds below are heard as changes once the follow is answered (`following`).
    expect_eventually(lambda: "following" in c.recorded.types("control-response"), 10, "the follow answered")
    bob = c.daemons["bob"].socket
    c.peerctl(c.sock, "add", "603", "--title", "The Matrix", "--year", "1999")
    c.peerctl(bob, "add", "https://www.themoviedb.org/movie/550-fight-club")
    c.peerctl(bob, "add", "603")
    c.peerctl(c.sock, "add", "603")  # already listed
    c.peerctl(c.sock, "add", "13", "--title", "Forrest Gump")
    c.peerctl(c.sock, "remove", "13")
    c.peerctl(c.sock, "remove", "13", check=False)  # error: not listed
    expect_eventually(lambda: 550 in c.listed(c.sock), 20, "bob's add reaching alice")
    return f"alice {c.ids['alice'][:8]}, bob {c.ids['bob'][:8]}, carol {c.ids['carol'][:8]}; fake TMDB {c.fake.url}"


def step_details(c):
    """Movie details (CONTROL.md "search", "show", "refresh"; PEER.md "Describing a movie"): alice
    describes 603 and 550 from the fake TMDB and her describes reach bob; then the other requests."""
    bob = c.daemons["bob"].socket
    expect_eventually(lambda: all("details" in c.shown(s, m) for s in (c.sock, bob) for m in (603, 550)), 30,
                      "describes of 603 and 550 on alice and bob")
    c.peerctl(c.sock, "show", "603")
    c.peerctl(c.sock, "show", "27205", check=False)  # error: not listed
    c.peerctl(c.sock, "search", "matrix")
    c.peerctl(c.sock, "search", "matrix", "--page", "2", "--year", "1999")
    c.peerctl(c.sock, "refresh", "603")
    c.peerctl(c.sock, "refresh")
    c.peerctl(c.sock, "list")
    c.peerctl(c.sock, "list", "--limit", "1")
    c.peerctl(c.sock, "list", "--json", "--after", "1.0123456789abcdef0123456789abcdef.1", check=False)
    c.peerctl(c.sock, "status")
    c.peerctl(c.sock, "open", "--no-browser")
    c.peerctl(c.sock, "connect", f"127.0.0.1:{harness.free_port()}")
    return f"the fake TMDB asked {sum(c.fake.counts().values())} times"


def step_pairing(c):
    """carol pairs with alice by invite code; alice's members message then introduces bob to carol."""
    code = json.loads(c.peerctl(c.sock, "--json", "invite").stdout)["code"]
    c.peerctl(c.carol_sock, "id")
    joined = json.loads(c.peerctl(c.carol_sock, "--json", "join", code, "--address",
                                  f"127.0.0.1:{c.ports['alice']}").stdout)
    if joined.get("peer") != c.ids["alice"]:
        raise CheckFailed(f"carol joined {joined}, not alice {c.ids['alice']}")
    expect_eventually(lambda: {603, 550} <= set(c.listed(c.carol_sock)), 20, "the list reaching carol")
    c.peerctl(c.carol_sock, "add", "27205")
    # carol holds no token: alice answers her search (PEER.md, "Catalog queries").
    searched = json.loads(c.peerctl(c.carol_sock, "search", "dune", "--json").stdout)
    if not searched.get("results"):
        raise CheckFailed(f"carol's search for dune through alice: {searched}")
    # ... and her discover, similar and genres (CONTROL.md, "discover"). The second `discover` is
    # answered from the page carol kept a moment ago, with its `fetchedAt`, and asks no one.
    browsed = {" ".join(args): json.loads(c.peerctl(c.carol_sock, *args, "--json").stdout)
               for args in (("discover",), ("discover", "--top-rated", "--genre", "18"), ("genres",),
                            ("similar", "603"))}
    kept = json.loads(c.peerctl(c.carol_sock, "discover", "--json").stdout)
    wrong = {args: answer for args, answer in browsed.items()
             if answer.get("type") != ("genres" if args == "genres" else "movies")}
    if wrong or not browsed["discover"].get("results") or not browsed["genres"].get("genres"):
        raise CheckFailed(f"carol browsing through alice: {wrong or browsed}")
    if "fetchedAt" not in kept or "stale" in kept or kept["results"] != browsed["discover"]["results"]:
        raise CheckFailed(f"carol's second discover, not the page she kept: {kept}")
    # ... and names the group's services, which alice looks up for her (a `providers` query); the
    # `settings` operation reaches alice (PEER.md, "Group settings").
    services = json.loads(c.peerctl(c.carol_sock, "services", "--region", "DE", "netflix", "--json").stdout)
    if [s.get("name") for s in services.get("services", [])] != ["Netflix"]:
        raise CheckFailed(f"carol's services --region DE netflix: {services}")
    streaming = c.peerctl(c.carol_sock, "list", "--streaming", "--json")
    if streaming.returncode != 0:
        raise CheckFailed(f"carol's list --streaming: {streaming.stderr}")
    expect_eventually(lambda: json.loads(c.peerctl(c.sock, "services", "--json").stdout).get("region") == "DE", 20,
                      "carol's settings reaching alice")
    expect_eventually(lambda: 27205 in c.listed(c.sock), 20, "carol's add reaching alice")
    return ("carol joined alice; the list reached carol, her add reached alice; she searched, browsed and set the "
            "group's services through alice")


def marks_of(c, sock, movie):
    """Each member's marks on a listed movie, by name, as `sock`'s daemon shows them."""
    rows = json.loads(c.peerctl(sock, "list", "--json").stdout)
    return {m["name"]: m for row in rows if row["movieId"] == movie for m in row.get("marks", [])}


def step_marks(c):
    """Members' marks and watches (PEER.md, "Marks and watches"; CONTROL.md, "mark", "watch", "history"):
    alice and carol mark movies, carol logs a watch with alice, bob one with alice; the `mark` and
    `watch` operations travel, and alice pages through the history and the list filtered and sorted
    by the marks."""
    c.peerctl(c.sock, "want", "603")
    c.peerctl(c.sock, "seen", "603", "--on", "2025-11-20", "--rating", "8")
    c.peerctl(c.sock, "want", "603")  # said so already: made 0
    c.peerctl(c.sock, "seen", "603", "--rating", "11", check=False)  # exits 64 before it asks
    added = json.loads(c.peerctl(c.carol_sock, "want", "680", "--json").stdout)  # not listed: added first
    if not added.get("added") or added.get("made") != 2:
        raise CheckFailed(f"carol's want of 680, not on the list: {added}")
    c.peerctl(c.carol_sock, "rate", "603", "7")
    c.peerctl(c.carol_sock, "veto", "27205")
    c.peerctl(c.carol_sock, "unmark", "27205")
    c.peerctl(c.carol_sock, "watched", "603", "--with", "alice", "--on", "yesterday")
    c.peerctl(c.carol_sock, "watched", "603", "--with", "nobody", check=False)  # error: no such member
    c.peerctl(c.daemons["bob"].socket, "watched", "550", "--with", "alice")
    expect_eventually(lambda: marks_of(c, c.sock, 603).get("carol", {}).get("rating") == 7, 20,
                      "carol's rating reaching alice")
    expect_eventually(lambda: marks_of(c, c.sock, 550).get("alice", {}).get("seen") is True, 20,
                      "bob's watch with alice reaching her")
    seen = marks_of(c, c.carol_sock, 603).get("alice", {})
    if seen.get("rating") != 8 or seen.get("seen") is not True:
        raise CheckFailed(f"alice's marks on 603 as carol shows them: {seen}")
    page = json.loads(c.peerctl(c.sock, "history", "--limit", "3", "--json").stdout)
    if len(page.get("entries", [])) != 3 or "next" not in page:
        raise CheckFailed(f"alice's history, 3 a page: {page}")
    c.peerctl(c.sock, "history", "--limit", "3", "--before", page["next"])
    c.peerctl(c.sock, "history", "603", "--since", "1d")
    # Lamport 0 is before every operation (the first has lamport 1), whatever the peers' random ids;
    # a cursor at lamport 1 fell after an operation whose origin id sorted below its own.
    first_cursor = "0.00000000000000000000000000000000.0"
    empty = json.loads(c.peerctl(c.sock, "history", "--before", first_cursor, "--json").stdout)
    if empty.get("entries") != [] or "next" in empty:
        raise CheckFailed(f"alice's history before the first lamport: {empty}")
    c.peerctl(c.sock, "list", "--unseen")
    c.peerctl(c.sock, "list", "--unseen", "--by", "me,carol", "--sort", "title")
    c.peerctl(c.sock, "list", "--wanted-by", "me", "--sort", "wants")
    first = c.peerctl(c.sock, "list", "--sort", "rating", "--limit", "1", "--json")
    rated = json.loads(first.stdout)
    if [row["movieId"] for row in rated] != [603]:
        raise CheckFailed(f"alice's best rated movie: {rated}")
    c.peerctl(c.sock, "list", "--sort", "rating", "--limit", "1", "--after", "+1")
    c.peerctl(c.sock, "list", "--wanted-by", "nobody", check=False)  # error: no such member
    return f"alice's marks on 603 as carol shows them: {seen}"


def step_relays(c):
    """The group's relays (CONTROL.md, "relay"), last: a relay makes every peerd announce its reach
    and dial the others directly, which the relay tree's steps must not meet. alice names a relay
    where none listens (she retries it), lists it, is refused a URL that is no relay's, and takes
    the relay out."""
    url = "relay://127.0.0.1:9/?id=LGUX5N2-VZDRFGK-MXHB3EH-G4ATS3X-FGJP5UD-NFS5LGC-AGVFQWW-S3HF4QG"
    added = json.loads(c.peerctl(c.sock, "relay", "add", url + "&pingInterval=45s", "--json").stdout)
    if added.get("type") != "relays" or [r["url"] for r in added["relays"]] != [url]:
        raise CheckFailed(f"alice's relay add: {added}")
    expect_eventually(
        lambda: [r["state"] for r in json.loads(c.peerctl(c.sock, "relay", "--json").stdout)["relays"]] == ["retrying"],
        20, "alice retrying the relay where none listens")
    c.peerctl(c.sock, "relay", "add", "https://example.org/", check=False)  # error: bad-request
    c.peerctl(c.sock, "relay", "remove", url)
    return "a relay added on alice, retried, a bad URL refused, the relay removed"


def step_news(c):
    """The news of wanted movies (CONTROL.md, "news"): read by peerctl on alice and carol (`looked`),
    the count alone as the page asks it, and the follow stream's first batch."""
    read = json.loads(c.peerctl(c.carol_sock, "news", "--limit", "5", "--json").stdout)
    if read.get("type") != "news" or "JustWatch" not in read.get("attribution", ""):
        raise CheckFailed(f"carol's news: {read}")
    c.peerctl(c.sock, "news")
    count = c.request(c.sock, {"type": "news", "version": 1, "limit": 0})
    if count.get("items") != [] or "unread" not in count:
        raise CheckFailed(f"alice's news count: {count}")
    follow = subprocess.Popen(harness.peerctl_argv(c.sock, "news", "--follow", "--json"),
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        ready, _, _ = select.select([follow.stdout], [], [], 10)
        first = json.loads(follow.stdout.readline()) if ready else None
    finally:
        follow.send_signal(signal.SIGINT)
        follow.wait(timeout=10)
    if not first or "type" in first or "items" not in first:
        raise CheckFailed(f"peerctl news --follow --json's first line: {first}")
    return f"{read['total']} reports; unread for alice: {count['unread']}"


def pick_json(c, sock, *args):
    """What `peerctl pick|vote ARGS --json` printed: a `pickState`, or the `error` it exited 1 with."""
    run = c.peerctl(sock, *args, "--json", check=False)
    if run.returncode not in (0, 1):
        raise CheckFailed(f"peerctl {' '.join(args)} exited {run.returncode}: {run.stderr}")
    return json.loads(run.stdout)


def expect_state(state, what, **wanted):
    """`state` is a `pickState` with the fields `wanted` gives."""
    wrong = {key: state.get(key) for key, value in wanted.items() if state.get(key) != value}
    if state.get("type") != "pickState" or wrong:
        raise CheckFailed(f"{what}: {json.dumps(state)[:600]}")
    return state


def step_picks(c):
    """Picks (PEER.md, "Picks"; CONTROL.md, "pick", "vote", "pickStatus", "pickClose"): a majority pick of
    alice's with everyone connected, voted on and closed; a ranked pick of carol's with alice, ranked by
    both and closed; alice logs its result as watched. Each pick's steps travel as operations."""
    bob = c.daemons["bob"].socket
    opened = expect_state(pick_json(c, c.sock, "pick"), "alice's pick", outcome="voting", open=True,
                          mode="majority", source="list")
    pick, deck = opened["pick"], [movie["movieId"] for movie in opened["deck"]]
    if {v.get("peer") for v in opened["voters"]} != set(c.ids.values()) or "yeses" in opened["deck"][0]:
        raise CheckFailed(f"alice's pick: not everyone connected votes, or yeses show: {opened}")
    for sock, name in ((c.carol_sock, "carol"), (bob, "bob")):
        expect_eventually(lambda s=sock: pick_json(c, s, "pick", "--status").get("pick") == pick, 20,
                          f"alice's opening reaching {name}")
    expect_state(pick_json(c, c.carol_sock, "vote", "yes"), "carol's vote", pick=pick)
    expect_state(pick_json(c, bob, "vote", "no"), "bob's vote", pick=pick)
    expect_state(pick_json(c, c.sock, "vote", "yes"), "alice's vote", pick=pick)
    named = c.request(c.sock, {"type": "vote", "version": 1, "pick": pick, "movie": deck[-1], "yes": len(deck) == 1})
    expect_state(named, "alice's vote on a movie she names", pick=pick)
    outside = pick_json(c, c.sock, "vote", "yes", "603")  # 603 is seen by alice: not in the deck
    c.peerctl(c.sock, "vote", "maybe", check=False)  # exits 64 before it asks
    expect_eventually(lambda: all(v["voted"] >= 1 for v in pick_json(c, c.sock, "pick", "--status")["voters"]), 20,
                      "carol's and bob's votes reaching alice")
    closed = expect_state(pick_json(c, c.sock, "pick", "--close"), "alice's close", open=False, outcome="chosen")
    if closed["result"]["movieId"] != deck[0] or "yeses" not in closed["result"]:
        raise CheckFailed(f"the majority pick's result is not {deck[0]}, with its yeses: {closed}")
    late = pick_json(c, c.sock, "vote", "yes")  # error: closed, its result stands
    trending = pick_json(c, c.carol_sock, "pick", "--deck", "trending", "--max-runtime", "100")
    ranked = expect_state(pick_json(c, c.carol_sock, "pick", "--mode", "ranked", "--finalists", "2", "--with",
                                    "alice"), "carol's ranked pick", outcome="voting", mode="ranked")
    ranked_pick, finalists = ranked["pick"], [movie["movieId"] for movie in ranked["deck"]]
    if len(finalists) > 2:
        raise CheckFailed(f"carol's ranked pick of 2 finalists: {ranked}")
    expect_state(pick_json(c, c.carol_sock, "vote", "--rank", ",".join(map(str, finalists))), "carol's ranking")
    expect_eventually(lambda: pick_json(c, c.sock, "pick", "--status").get("pick") == ranked_pick, 20,
                      "carol's opening reaching alice")
    expect_state(pick_json(c, c.sock, "vote", "--rank", ",".join(map(str, reversed(finalists)))), "alice's ranking")
    named_status = {"type": "pickStatus", "version": 1, "pick": ranked_pick}
    expect_eventually(lambda: c.request(c.carol_sock, named_status).get("outcome") == "chosen", 20,
                      "alice's ranking reaching carol: the ranked pick chosen")
    expect_state(pick_json(c, c.carol_sock, "pick", "--close"), "carol's close", open=False, outcome="chosen")
    expect_eventually(lambda: pick_json(c, c.sock, "pick", "--status").get("open") is False, 20,
                      "carol's close reaching alice")
    watched = json.loads(c.peerctl(c.sock, "pick", "--watched", "--json").stdout)
    if watched.get("type") != "marked" or watched.get("made") != 1:
        raise CheckFailed(f"alice's watch of the ranked pick's result: {watched}")
    errors = {what: (answer.get("code"), answer.get("message"))
              for what, answer in (("a movie outside the deck", outside), ("a vote after the close", late),
                                   ("a trending deck with --max-runtime", trending))}
    if any(code != "bad-request" for code, _ in errors.values()):
        raise CheckFailed(f"errors of the picks: {errors}")
    return (f"majority pick of {deck}: {closed['result']['movieId']} chosen; ranked pick of {finalists}: "
            f"{ranked['next']['movieId'] if 'next' in ranked else 'no'} `next` while voting\n"
            + "\n".join(f"{what}: {code}: {message}" for what, (code, message) in errors.items()))


def step_triangle(c):
    """The relay tree (see the top of this file), first half: carol dials bob, closing a triangle;
    alice adds one movie at a time until bob has pruned her origin on his session with carol."""
    c.peerctl(c.carol_sock, "connect", f"127.0.0.1:{c.ports['bob']}")
    expect_eventually(lambda: c.connected("carol", "bob") and c.connected("bob", "carol"), 20,
                      "carol's session with bob")

    def bob_pruned_alice():
        return any(c.ids["alice"] in m.get("origins", []) for m in c.sent("bob", "prune"))

    tries = 0
    for movie, title in RELAY_MOVIES[:8]:
        tries += 1
        c.peerctl(c.sock, "add", str(movie), "--title", title)
        expect_eventually(lambda m=movie: c.lists("bob", [m]) and c.lists("carol", [m]), 20,
                          f"alice's add of {movie} reaching bob and carol")
        try:
            harness.eventually(bob_pruned_alice, 2, "bob's prune of alice", interval=0.2)
            break
        except harness.TimedOut:
            pass
    return (f"{tries} adds on alice; bob {'pruned' if bob_pruned_alice() else 'did not prune'} alice's origin "
            "on his session with carol")


def step_graft(c):
    """The relay tree, second half: alice restarts without --peer; carol redials her, bob can't, so
    her next adds reach bob only through carol: `have`, then bob's `graft`."""
    c.daemons["alice"].stop()
    c.start("alice")  # without --peer: she dials no one; carol redials her
    expect_eventually(lambda: c.connected("carol", "alice"), 30, "carol's session with the restarted alice")
    late = [movie for movie, _ in RELAY_MOVIES[8:]]
    for movie, title in RELAY_MOVIES[8:]:
        c.peerctl(c.sock, "add", str(movie), "--title", title)
    expect_eventually(lambda: c.lists("carol", late), 20, "alice's adds after her restart reaching carol")
    direct = c.connected("bob", "alice")
    try:
        expect_eventually(lambda: c.lists("bob", late), 30, "alice's adds after her restart reaching bob through carol")
    except CheckFailed as error:
        raise CheckFailed(f"{error}\nrelay frames:\n{relay_frames(c)}\nbob's log:\n{c.daemons['bob'].tail()}\n"
                          f"carol's log:\n{c.daemons['carol'].tail()}") from None
    note = "\n(bob has a session with alice after her restart, so her adds may reach him directly)" if direct else ""
    return f"relay frames:\n{relay_frames(c)}{note}"


def relay_frames(c):
    """Each daemon's relay-tree frames so far, origins by name."""
    names = {peer: name for name, peer in c.ids.items()}
    lines = []
    for name in c.ports:
        for d, m in traced(c.trace(name)):
            if m.get("type") in ("have", "prune", "graft"):
                what = m.get("vector") if m["type"] == "have" else m.get("origins")
                what = {names.get(k, k): v for k, v in what.items()} if isinstance(what, dict) \
                    else [names.get(k, k) for k in what or []]
                lines.append(f"{name} {'sent' if d == '>' else 'received'} {m['type']} {what}")
    return "\n".join(lines) or "(none)"


def open_device_link(url):
    """Opens a device link as a phone would, without following its redirect: 303 and the cookie."""
    class Stay(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None
    try:
        urllib.request.build_opener(Stay).open(url, timeout=10)
    except urllib.error.HTTPError as answer:
        if answer.code != 303 or "peerd_device=" not in (answer.headers.get("Set-Cookie") or ""):
            raise CheckFailed(f"opening the device link answered {answer.code}, not 303 with a cookie")
        return
    raise CheckFailed("opening the device link did not answer 303")


def step_forget(c):
    """trust, peers and doctor; a device link, the devices, an unlink refused; keepalives; members; then
    `forget carol` on alice, which removes carol
    from the group and closes their session with an `error` (removed) in both traces."""
    c.peerctl(c.sock, "trust", "0123456789abcdef0123456789abcdef")  # pinned by hand; sends members again
    c.peerctl(c.sock, "trust", c.ids["alice"], check=False)  # error: bad-request (itself)
    c.peerctl(c.sock, "peers")  # with trust fields
    c.peerctl(c.sock, "members")  # the group's members: alice, bob, carol, admitted by invite
    c.peerctl(c.sock, "profile", "add", "sam")  # addProfile: profileAdded
    c.peerctl(c.sock, "profile", "list")  # profiles: members, alice and sam
    c.peerctl(c.sock, "--profile", "sam", "want", "603")  # a mark acting for sam
    c.peerctl(c.sock, "lists", "create", "friends", "--members", "carol,sam")  # listCreate: listCreated
    c.peerctl(c.sock, "lists", "add-member", "friends", "bob")  # listMember: listChanged
    c.peerctl(c.sock, "lists")  # lists: the group's, then friends
    c.peerctl(c.sock, "add", "550", "--list", "friends")  # an add in friends (inList)
    c.peerctl(c.sock, "list", "--list", "nothing-such", check=False)  # error: bad-request (no such list)
    c.peerctl(c.sock, "members", "remove", "nobody", check=False)  # error: bad-request
    c.peerctl(c.sock, "members", "remove", "0123456789abcdef0123456789abcdef")  # the key pinned above: memberRemoved
    c.peerctl(c.sock, "doctor", check=False)  # status, peers and diagnose on one connection; a check may fail
    link = json.loads(c.peerctl(c.sock, "device", "link", "--name", "kitchen", "--expires", "2m", "--json").stdout)
    c.peerctl(c.sock, "device", "unlink", "kitchen", check=False)  # error: bad-request (not opened yet)
    open_device_link(link["url"])  # the door on loopback: the device is linked
    c.peerctl(c.sock, "device", "list")  # devices
    c.peerctl(c.sock, "device", "unlink", "kitchen")  # deviceUnlinked
    # Keepalives go every second (--keepalive-interval 1): wait for a ping and a pong in the traces.
    expect_eventually(lambda: all(any(c.sent(name, kind) for name in c.ports) for kind in ("ping", "pong")), 10,
                      "a ping and a pong in the traces")
    # The forget below must find a live session to close: a loaded CI machine can have dropped it
    # (keepalive timeout) and be redialing.
    expect_eventually(lambda: c.connected("alice", "carol"), 20, "alice's session with carol")
    c.peerctl(c.sock, "forget", "carol")  # removes carol: her session with alice closes, an error in each trace
    c.peerctl(c.carol_sock, "forget", "nobody", check=False)  # error: bad-request
    expect_eventually(lambda: not c.connected("carol", "alice"), 20, "carol's session with alice closed")
    c.peerctl(c.sock, "peers")
    c.follower.send_signal(signal.SIGINT)
    c.follower.wait(timeout=10)
    return f"{len(c.recorded.frames())} control frames recorded through the proxies"


SCENARIO = [
    ("control: adds, removes and lists through alice's proxy, with a follow", step_control),
    ("details: describes on alice and bob; show, search, refresh, status, open, connect", step_details),
    ("pairing: carol joins alice by invite code; the lists reach each other; she searches and browses through alice",
     step_pairing),
    ("marks: alice and carol mark, carol and bob log watches; history and the list by marks", step_marks),
    ("news: read with peerctl, counted as the page counts it, followed", step_news),
    ("picks: a majority pick voted on and closed, a ranked pick ranked and closed; its result watched", step_picks),
    ("relay tree: a triangle; alice adds until bob prunes her origin toward carol", step_triangle),
    ("relay tree: alice restarted without --peer; her adds reach bob through carol (have, graft)", step_graft),
    ("trust, doctor, a device linked and unlinked, keepalives, members; forget removes carol and closes her session",
     step_forget),
    ("relays: one named on alice, retried where none listens, a bad URL refused, removed", step_relays),
]


# MARK: what was captured


class Traces:
    """Every daemon's frame trace read whole, both directions; the direction is part of each key
    ("alice sent", "bob received")."""

    def __init__(self, c):
        self.bodies = []  # every traced body, for the schemas
        self.types, self.op_kinds, self.error_codes, self.hellos, self.grafts = {}, {}, {}, [], []
        for name in c.ports:
            trace = c.trace(name)
            if not trace.exists():
                raise CheckFailed(f"{name} wrote no {trace.name}: does this peerd support PEERD_TRACE_FRAMES?")
            for direction, body in read_trace(trace):
                self.bodies.append(body)
                try:
                    message = json.loads(body)
                except ValueError:
                    continue  # the schema check reports it
                self.note(name, f"{name} {'sent' if direction == '>' else 'received'}", message)

    def note(self, name, key, message):
        kind = message.get("type") if isinstance(message, dict) else None
        self.types.setdefault(key, set()).add(kind)
        if kind == "error":
            self.error_codes.setdefault(key, set()).add(message.get("code"))
        if kind == "ops":
            self.op_kinds.setdefault(key, set()).update(op.get("op") for op in message.get("ops", [])
                                                        if isinstance(op, dict))
        if kind == "hello" and key.endswith(" sent"):
            self.hellos.append((name, message))
        if kind == "graft" and key == "bob sent":
            self.grafts.append(message)


def check_traces(c):
    c.traces = Traces(c)
    return f"{len(c.traces.bodies)} peer frames in the traces of {', '.join(c.ports)}"


def check_schemas(c):
    """Every control frame the proxies recorded and every traced peer frame, against proto/'s schemas."""
    frames = c.recorded.frames() + [("peer", body) for body in c.traces.bodies]
    invalid = [f"{stream} {body[:200]!r}: {errors}" for stream, body in frames
               for errors in [validate_body(stream, body)] if errors]
    if invalid:
        raise CheckFailed(f"{len(invalid)} of {len(frames)} frames invalid:\n" + "\n".join(invalid))
    counts = {stream: sum(1 for s, _ in frames if s == stream) for stream in EXPECTED}
    return f"all {len(frames)} frames valid: " + ", ".join(f"{n} {stream}" for stream, n in counts.items())


def check_hellos(c):
    """Every hello names its sender, and says "tree": true (PEER.md, "Relay tree") and "lists": true
    (PEER.md, "How a list travels"), and "catalog": true only alice's, who holds a TMDB token (PEER.md,
    "Catalog queries"); bob's grafts name alice, whose adds after her restart reached him only through carol."""
    problems = [f"{name} sent a hello for {m.get('peer')}, but its id is {c.ids[name]}"
                for name, m in c.traces.hellos if m.get("peer") != c.ids[name]]
    problems += [f"{name} sent a hello without \"tree\":true: {json.dumps(m)[:200]}"
                 for name, m in c.traces.hellos if m.get("tree") is not True]
    problems += [f"{name} sent a hello without \"lists\":true: {json.dumps(m)[:200]}"
                 for name, m in c.traces.hellos if m.get("lists") is not True]
    problems += [f"{name} sent a hello with catalog {m.get('catalog')}, but only alice holds a TMDB token"
                 for name, m in c.traces.hellos if m.get("catalog") is not (True if name == "alice" else None)]
    problems += [f"bob sent a graft that does not name alice: {json.dumps(m)[:200]}"
                 for m in c.traces.grafts if c.ids["alice"] not in m.get("origins", [])]
    if problems:
        raise CheckFailed("\n".join(problems))
    return f"{len(c.traces.hellos)} hellos, {len(c.traces.grafts)} grafts of bob's"


def check_revoked(c):
    """CONTROL.md, "forget": the forgotten peer is removed from the group, its session closed with `removed`."""
    codes = c.traces.error_codes
    if "removed" not in codes.get("carol received", set()):
        raise CheckFailed(f"carol received errors {codes.get('carol received')}, not `removed`, from forget")
    return "; ".join(f"{key} error {sorted(map(str, found))}" for key, found in sorted(codes.items()))


def check_describes(c):
    """PEER.md, "Describing a movie": alice's describes travel to bob."""
    kinds = {key: sorted(k for k in c.traces.op_kinds.get(key, set()) if isinstance(k, str))
             for key in ("alice sent", "bob received")}
    missing = [key for key, found in kinds.items() if "describe" not in found]
    if missing:
        raise CheckFailed(f"no describe operation {' or '.join(missing)}; operation kinds {kinds}")
    return "; ".join(f"operation kinds {key}: {found}" for key, found in kinds.items())


def check_types(c):
    """Every message type of each stream, and of each daemon's peer frames each way, was seen."""
    seen = {stream: c.recorded.types(stream) for stream in ("control-request", "control-response")}
    seen["peer"] = set().union(*c.traces.types.values())
    wanted = list(EXPECTED.items()) + list(expected_directions(c.ports).items())
    lines, unseen = [], []
    for stream, types in wanted:
        have = seen.get(stream, c.traces.types.get(stream, set()))
        lines.append(f"captured {stream}: {sorted(t for t in have if isinstance(t, str))}")
        if types - have:
            unseen.append(f"never captured on {stream}: {sorted(types - have)}")
    if unseen:
        raise CheckFailed("\n".join(unseen + lines))
    return "\n".join(lines)


def check_marks(c):
    """PEER.md, "Marks and watches": carol's marks and watch reach alice, alice's marks reach bob."""
    kinds = {key: sorted(k for k in c.traces.op_kinds.get(key, set()) if isinstance(k, str))
             for key in ("carol sent", "alice received", "bob received")}
    wanted = {"carol sent": ("mark", "watch"), "alice received": ("mark", "watch"), "bob received": ("mark",)}
    missing = [f"{kind} {key}" for key, needed in wanted.items() for kind in needed if kind not in kinds[key]]
    if missing:
        raise CheckFailed(f"no operation of kind {', '.join(missing)}; operation kinds {kinds}")
    return "; ".join(f"operation kinds {key}: {found}" for key, found in kinds.items())


def check_picks(c):
    """PEER.md, "Picks": carol's pick operations reach alice, alice's reach bob and carol."""
    kinds = {key: sorted(k for k in c.traces.op_kinds.get(key, set()) if isinstance(k, str))
             for key in ("alice sent", "carol sent", "alice received", "bob received", "carol received")}
    missing = [key for key, found in kinds.items() if "pick" not in found]
    if missing:
        raise CheckFailed(f"no pick operation {', '.join(missing)}; operation kinds {kinds}")
    return "; ".join(f"operation kinds {key}: {found}" for key, found in kinds.items())


CHECKS = [
    ("traces: every daemon wrote a frame trace that parses", check_traces),
    ("schemas: every captured frame is valid", check_schemas),
    ("hellos name their sender, say tree:true, lists:true and catalog:true alice's only; bob's grafts name alice", check_hellos),
    ("forget: carol's session closed with revoked", check_revoked),
    ("describes: alice's reach bob", check_describes),
    ("marks and watches: carol's reach alice, alice's reach bob", check_marks),
    ("picks: carol's steps reach alice, alice's reach bob and carol", check_picks),
    ("types: every message type on each stream, and each way on each daemon", check_types),
]


def main():
    exit_on_signals()
    suite = Suite("schema")
    if not suite.need_peerd():
        return suite.finish()
    with suite.work_dir() as work:
        c = Capture(work)
        try:
            finished = all(suite.check(title, step, c) for title, step in SCENARIO)
        finally:
            c.stop()
        # What was captured is checked once the scenario ran to its end; most of it in the traces.
        if finished and suite.check(*CHECKS[0], c):
            suite.run(CHECKS[1:], c)
    return suite.finish()


if __name__ == "__main__":
    sys.exit(main())
