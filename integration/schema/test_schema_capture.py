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

The scenario: alice and bob share a group secret (--group-secret-file) and alice dials bob; carol has
no secret and pairs with alice through `peerctl invite` / `peerctl join --address`. alice alone holds
a TMDB key, for integration/catalog/fake_tmdb.py on loopback: her describe operations must reach bob,
and search, show and refresh run on her (search on carol, who has no key, is `unavailable`). peerctl id, trust
and forget run too, so every control request and response type is captured. Peer `error` frames
come from `peerctl forget carol` on alice: alice closes its session with carol with an `error`
(code `revoked`, "revoked with peerctl forget"), which shows up in both traces. The error frames a
receiver sends for bad input (malformed-frame, unsupported-version, ...) can no longer be provoked
from here: a plain socket never gets past TLS and admission, so nothing it sends reaches the JSON
layer. Those are covered by proto/golden/peer-error*.bin and the invalid-peer-*.bin frames
(`proto/validate.py --golden`, Tests/PeerdWireTests/GoldenFrameTests.swift) and, for members'
bad frames over TLS, by Tests/EndToEndTests/BadInputTests.swift.

The relay tree (PEER.md, "Relay tree"; every peerd hello says `"tree":true`, which is checked): once
carol is in, she also dials bob (`peerctl connect`), closing a triangle. alice then adds movies one
at a time: each operation reaches bob and carol directly and again relayed by the other, and the
copy that arrives already held is pruned on the session it came by; alice adds until bob has sent
carol a `prune` naming alice, so carol's session to bob only announces alice's operations. Then
alice stops (gracefully) and starts again without `--peer`: bob has no address to dial her (she
dialed him), carol redials her (`join --address` kept her as a static peer), so alice's next adds
reach only carol. carol announces them to bob with `have`; bob, still lacking them a second later,
sends carol `graft`, and carol pushes them. The test waits until bob lists them.

Binaries come from $PEERD_BIN_DIR (default .build/debug). Exits non-zero on any invalid frame, on a
message type that was never seen (per stream; for peer frames, in each direction where the protocol
requires it), or on a trace that is missing or does not parse.
"""
import json
import os
import pathlib
import select
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
import harness  # noqa: E402

sys.path.insert(0, str(harness.ROOT / "proto"))
from validate import validate_body  # noqa: E402

sys.path.insert(0, str(harness.ROOT / "integration" / "catalog"))
from fake_tmdb import FakeTMDB  # noqa: E402

captured = []  # (stream, body bytes)
captured_lock = threading.Lock()


class FrameRecorder:
    """Splits one direction of a byte stream into frames and records their bodies."""

    def __init__(self, stream):
        self.stream = stream
        self.buffer = b""

    def feed(self, data):
        body, self.buffer = harness.split_frame(self.buffer + data)
        while body is not None:
            with captured_lock:
                captured.append((self.stream, body))
            body, self.buffer = harness.split_frame(self.buffer)


def pump(a, b, recorder_ab, recorder_ba):
    """Copies bytes both ways until either side closes."""
    sockets = [a, b]
    try:
        while True:
            ready, _, _ = select.select(sockets, [], [], 30)
            if not ready:
                return
            for s in ready:
                data = s.recv(65536)
                if not data:
                    return
                if s is a:
                    recorder_ab.feed(data)
                    b.sendall(data)
                else:
                    recorder_ba.feed(data)
                    a.sendall(data)
    except OSError:
        pass
    finally:
        a.close()
        b.close()


def serve_proxy(listener, connect_upstream, stream_ab, stream_ba):
    def accept_loop():
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            upstream = connect_upstream()
            threading.Thread(
                target=pump, args=(client, upstream, FrameRecorder(stream_ab), FrameRecorder(stream_ba)), daemon=True
            ).start()

    threading.Thread(target=accept_loop, daemon=True).start()


def peerctl(sock, *args, check=True):
    run = subprocess.run(harness.peerctl_argv(sock, *args), capture_output=True, text=True, timeout=30)
    if check and run.returncode != 0:
        sys.exit(f"peerctl {' '.join(args)} failed ({run.returncode}): {run.stderr}")
    return run


def read_trace(path):
    """The (direction, body) records of a PEERD_TRACE_FRAMES file; exits if it does not parse."""
    data = path.read_bytes()
    records, offset = [], 0
    while offset < len(data):
        if len(data) - offset < 5 or data[offset : offset + 1] not in (b">", b"<"):
            sys.exit(f"{path.name}: not a frame trace at byte {offset}")
        (length,) = struct.unpack_from(">I", data, offset + 1)
        if offset + 5 + length > len(data):
            sys.exit(f"{path.name}: trace ends inside a frame at byte {offset}")
        records.append((data[offset : offset + 1].decode(), data[offset + 5 : offset + 5 + length]))
        offset += 5 + length
    return records


def traced(path):
    """(direction, message) of the records of a PEERD_TRACE_FRAMES file so far, while its daemon
    still writes it: a record not whole yet, or a body that is not a JSON object, is left out."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return []
    records, offset = [], 0
    while len(data) - offset >= 5:
        (length,) = struct.unpack_from(">I", data, offset + 1)
        if offset + 5 + length > len(data):
            break
        try:
            message = json.loads(data[offset + 5 : offset + 5 + length])
        except ValueError:
            message = None
        if isinstance(message, dict):
            records.append((data[offset : offset + 1].decode(errors="replace"), message))
        offset += 5 + length
    return records


def main():
    work = pathlib.Path(tempfile.mkdtemp(prefix="peerd-schema-"))
    daemons = {}
    fake_tmdb = None
    try:
        secret = harness.write_group_secret(work / "group.secret")
        ports = {"alice": harness.free_port(), "bob": harness.free_port(), "carol": harness.free_port()}

        # alice holds a TMDB key for a fake TMDB on loopback, so she describes movies; bob and carol
        # hold none (their config directory is empty and TMDB_TOKEN is unset).
        tmdb_key = "0123456789abcdef0123456789abcdef"
        fake_tmdb = FakeTMDB([tmdb_key]).start()
        key_file = work / "alice.tmdb"
        key_file.write_text(tmdb_key + "\n")
        key_file.chmod(0o600)

        def start(name, peers=(), group=True):
            args = ["--keepalive-interval", "1", "--tmdb-url", fake_tmdb.url]
            if group:
                args += ["--group-secret-file", secret]
            if name == "alice":
                args += ["--tmdb-token-file", key_file]
            for p in peers:
                args += ["--peer", p]
            env = {k: v for k, v in os.environ.items() if k != "TMDB_TOKEN"}
            env.update(PEERD_TRACE_FRAMES=str(work / f"{name}.trace"), XDG_CONFIG_HOME=str(work / "config"))
            daemons[name] = harness.Peerd(work, name, ports[name], args, env).start()

        start("bob")
        start("alice", [f"127.0.0.1:{ports['bob']}"])
        start("carol", group=False)  # joins with an invite code instead

        def proxy(name):
            listener = socket.socket(socket.AF_UNIX)
            listener.bind(str(work / f"{name}-proxy.sock"))
            listener.listen()

            def upstream():
                s = socket.socket(socket.AF_UNIX)
                s.connect(str(daemons[name].socket))
                return s

            serve_proxy(listener, upstream, "control-request", "control-response")
            return work / f"{name}-proxy.sock"

        sock = proxy("alice")
        carol_sock = proxy("carol")
        ids = {name: daemon.id for name, daemon in daemons.items()}

        follower = subprocess.Popen(harness.peerctl_argv(sock, "list", "--follow", "--json"),
                                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        time.sleep(0.3)
        peerctl(sock, "add", "603", "--title", "The Matrix", "--year", "1999")
        peerctl(daemons["bob"].socket, "add", "https://www.themoviedb.org/movie/550-fight-club")
        peerctl(daemons["bob"].socket, "add", "603")
        peerctl(sock, "add", "603")  # already listed
        peerctl(sock, "add", "13", "--title", "Forrest Gump")
        peerctl(sock, "remove", "13")
        peerctl(sock, "remove", "13", check=False)  # error: not listed
        listed = lambda s: [m["movieId"] for m in json.loads(peerctl(s, "list", "--json").stdout)]  # noqa: E731
        harness.eventually(lambda: 550 in listed(sock), 20, "bob's add reaching alice")

        # Movie details (CONTROL.md "search", "show", "refresh"; PEER.md "Describing a movie"): alice
        # describes 603 and 550 from the fake TMDB and her describe ops reach bob; bob can't search.
        shown = lambda s, m: json.loads(peerctl(s, "show", str(m), "--json").stdout)  # noqa: E731
        harness.eventually(lambda: all("details" in shown(s, m) for s in (sock, daemons["bob"].socket)
                                       for m in (603, 550)), 30, "describes of 603 and 550 on alice and bob")
        peerctl(sock, "show", "603")
        peerctl(sock, "show", "27205", check=False)  # error: not listed
        peerctl(sock, "search", "matrix")
        peerctl(sock, "search", "matrix", "--page", "2", "--year", "1999")
        peerctl(sock, "refresh", "603")
        peerctl(sock, "refresh")
        peerctl(sock, "list")
        peerctl(sock, "list", "--limit", "1")
        peerctl(sock, "list", "--json", "--after", "1.0123456789abcdef0123456789abcdef.1", check=False)
        peerctl(sock, "status")
        peerctl(sock, "open", "--no-browser")
        peerctl(sock, "connect", f"127.0.0.1:{harness.free_port()}")

        # carol pairs with alice by invite code; alice's members message then introduces bob to carol.
        code = json.loads(peerctl(sock, "--json", "invite").stdout)["code"]
        peerctl(carol_sock, "id")
        joined = json.loads(peerctl(carol_sock, "--json", "join", code, "--address",
                                    f"127.0.0.1:{ports['alice']}").stdout)
        if joined.get("peer") != ids["alice"]:
            sys.exit(f"carol joined {joined}, not alice {ids['alice']}")
        harness.eventually(lambda: {603, 550} <= set(listed(carol_sock)), 20, "the list reaching carol")
        peerctl(carol_sock, "add", "27205")
        peerctl(carol_sock, "search", "dune", check=False)  # error: unavailable (carol holds no token)
        harness.eventually(lambda: 27205 in listed(sock), 20, "carol's add reaching alice")

        # The relay tree (see the top of this file): a triangle, prunes, then have and graft.
        def sent(name, message_type):
            return [m for d, m in traced(work / f"{name}.trace") if d == ">" and m.get("type") == message_type]

        def connected(name, other):
            return any(p.get("state") == "connected" and p.get("peer") == ids[other] for p in daemons[name].peers())

        def lists(name, movies):
            return set(movies) <= daemons[name].movie_ids()

        def bob_pruned_alice():
            return any(ids["alice"] in m.get("origins", []) for m in sent("bob", "prune"))

        def relay_frames():
            """Each daemon's relay-tree frames so far, origins by name, for a failure's message."""
            names = {peer: name for name, peer in ids.items()}
            lines = []
            for name in ports:
                for d, m in traced(work / f"{name}.trace"):
                    if m.get("type") in ("have", "prune", "graft"):
                        what = m.get("vector") if m["type"] == "have" else m.get("origins")
                        what = {names.get(k, k): v for k, v in what.items()} if isinstance(what, dict) \
                            else [names.get(k, k) for k in what or []]
                        lines.append(f"{name} {'sent' if d == '>' else 'received'} {m['type']} {what}")
            return "\n".join(lines) or "(none)"

        relay_movies = [(155, "The Dark Knight"), (278, "The Shawshank Redemption"), (238, "The Godfather"),
                        (129, "Spirited Away"), (157336, "Interstellar"), (78, "Blade Runner"),
                        (62, "2001: A Space Odyssey"), (105, "Back to the Future"), (862, "Toy Story"),
                        (807, "Se7en")]
        peerctl(carol_sock, "connect", f"127.0.0.1:{ports['bob']}")
        harness.eventually(lambda: connected("carol", "bob") and connected("bob", "carol"), 20,
                           "carol's session with bob")
        tries = 0
        for movie, title in relay_movies[:8]:
            tries += 1
            peerctl(sock, "add", str(movie), "--title", title)
            harness.eventually(lambda m=movie: lists("bob", [m]) and lists("carol", [m]), 20,
                               f"alice's add of {movie} reaching bob and carol")
            try:
                harness.eventually(bob_pruned_alice, 2, "bob's prune of alice", interval=0.2)
                break
            except harness.TimedOut:
                pass
        print(f"relay: {tries} adds on alice; bob {'pruned' if bob_pruned_alice() else 'did not prune'} alice's "
              "origin on his session with carol")
        daemons["alice"].stop()
        start("alice")  # without --peer: she dials no one; carol redials her
        harness.eventually(lambda: connected("carol", "alice"), 30, "carol's session with the restarted alice")
        late = [movie for movie, _ in relay_movies[8:]]
        for movie, title in relay_movies[8:]:
            peerctl(sock, "add", str(movie), "--title", title)
        harness.eventually(lambda: lists("carol", late), 20, "alice's adds after her restart reaching carol")
        if connected("bob", "alice"):
            print("relay: bob has a session with alice after her restart, so her adds may reach him directly")
        try:
            harness.eventually(lambda: lists("bob", late), 30,
                               "alice's adds after her restart reaching bob through carol")
        except harness.TimedOut as error:
            raise harness.HarnessError(f"{error}\nrelay frames:\n{relay_frames()}\n"
                                       f"bob's log:\n{daemons['bob'].tail()}\ncarol's log:\n{daemons['carol'].tail()}")
        print(f"relay frames:\n{harness.indent(relay_frames(), '    ')}")
        peerctl(sock, "trust", "0123456789abcdef0123456789abcdef")  # pinned by hand; sends members again
        peerctl(sock, "trust", ids["alice"], check=False)  # error: bad-request (itself)
        peerctl(sock, "peers")  # with trust fields
        peerctl(sock, "doctor", check=False)  # status, peers and diagnose on one connection; a check may fail
        time.sleep(2.5)  # two keepalive intervals, for ping and pong
        # The forget below must find a live session to close: a loaded CI machine can have dropped it
        # (keepalive timeout) and be redialing.
        harness.eventually(lambda: any(
            p.get("state") == "connected" and p.get("peer") == ids["carol"]
            for p in json.loads(peerctl(sock, "--json", "peers").stdout)), 20, "alice's session with carol")
        peerctl(sock, "forget", "carol")  # closes alice's session with carol: an error frame each way's trace
        peerctl(carol_sock, "forget", "nobody", check=False)  # error: bad-request
        harness.eventually(lambda: all(p.get("state") != "connected" or p.get("peer") != ids["alice"]
                                       for p in json.loads(peerctl(carol_sock, "--json", "peers").stdout)),
                           20, "carol's session with alice closed")
        peerctl(sock, "peers")
        follower.send_signal(signal.SIGINT)
        follower.wait(timeout=10)

        # Peer frames from the traces, both directions; the direction is part of the stream's label.
        peer_seen = {}
        op_kinds = {}
        error_codes = {}
        relay_problems = []
        for name in ports:
            trace = work / f"{name}.trace"
            if not trace.exists():
                sys.exit(f"{name} wrote no {trace.name}: does this peerd support PEERD_TRACE_FRAMES?")
            for direction, body in read_trace(trace):
                with captured_lock:
                    captured.append(("peer", body))
                try:
                    message = json.loads(body)
                except ValueError:
                    continue  # validate_body reports it
                key = f"{name} {'sent' if direction == '>' else 'received'}"
                if isinstance(message, dict) and message.get("type") == "error":
                    print(f"{key} error {message.get('code')}: {message.get('message')}")
                    error_codes.setdefault(key, set()).add(message.get("code"))
                peer_seen.setdefault(key, set()).add(message.get("type") if isinstance(message, dict) else None)
                if isinstance(message, dict) and message.get("type") == "ops":
                    kinds = {op.get("op") for op in message.get("ops", []) if isinstance(op, dict)}
                    op_kinds.setdefault(key, set()).update(kinds)
                if direction == ">" and isinstance(message, dict) and message.get("type") == "hello" \
                        and message.get("peer") != ids[name]:
                    print(f"INVALID {name} sent a hello for {message.get('peer')}, but its id is {ids[name]}")
                    captured.append(("peer", b"{}"))  # counted as invalid below
                # PEER.md, "Relay tree": peerd takes part in it, and says so in every hello.
                if direction == ">" and isinstance(message, dict) and message.get("type") == "hello" \
                        and message.get("tree") is not True:
                    relay_problems.append(f"{name} sent a hello without \"tree\":true: {body[:200]!r}")
                # bob grafts alice's origin: her adds after her restart reached him only through carol.
                if direction == ">" and name == "bob" and isinstance(message, dict) \
                        and message.get("type") == "graft" and ids["alice"] not in message.get("origins", []):
                    relay_problems.append(f"bob sent a graft that does not name alice: {body[:200]!r}")

        invalid = len(relay_problems)
        for problem in relay_problems:
            print(f"INVALID {problem}")
        # CONTROL.md, "forget": the forgotten peer's session is closed with `revoked`.
        if "revoked" not in error_codes.get("carol received", set()):
            invalid += 1
            print(f"INVALID carol received errors {error_codes.get('carol received')}, not `revoked`, from forget")
        # PEER.md, "Describing a movie": alice's describes travel to bob.
        for key in ("alice sent", "bob received"):
            print(f"operation kinds {key}: {sorted(k for k in op_kinds.get(key, set()) if isinstance(k, str))}")
            if "describe" not in op_kinds.get(key, set()):
                invalid += 1
                print(f"INVALID no describe operation {key}")
        seen = {}
        for stream, body in captured:
            errors = validate_body(stream, body)
            try:
                seen.setdefault(stream, set()).add(json.loads(body).get("type"))
            except (ValueError, AttributeError):
                pass
            if errors:
                invalid += 1
                print(f"INVALID {stream} {body[:200]!r}: {errors}")
        expected = {
            "peer": {"hello", "ops", "ping", "pong", "error", "members", "have", "prune", "graft"},
            "control-request": {"add", "remove", "list", "follow", "peers", "status", "connect", "invite", "join",
                                "forget", "trust", "search", "show", "refresh", "page", "diagnose"},
            "control-response": {"added", "removed", "list", "following", "change", "peers", "status",
                                 "connecting", "invite", "joined", "forgotten", "trusted", "error", "searchResults", "shown", "refreshing", "page",
                                 "diagnosis"},
        }
        # Every session starts with hello and members each way; alice sends the error to carol.
        expected_directions = {
            f"{name} {way}": {"hello", "members", "ops"} for name in ports for way in ("sent", "received")
        }
        expected_directions["alice sent"] |= {"error"}
        expected_directions["carol received"] |= {"error"}
        # The relay tree: bob prunes alice's origin on his session with carol, carol announces alice's
        # later operations to him with `have`, and he grafts the origin back.
        expected_directions["bob sent"] |= {"prune", "graft"}
        expected_directions["carol received"] |= {"prune", "graft"}
        expected_directions["carol sent"] |= {"have"}
        expected_directions["bob received"] |= {"have"}
        unseen = 0
        for stream, types in list(expected.items()) + list(expected_directions.items()):
            have = peer_seen.get(stream, set()) if stream in expected_directions else seen.get(stream, set())
            print(f"captured {stream}: {sorted(t for t in have if isinstance(t, str))}")
            missing = types - have
            if missing:
                unseen += 1
                print(f"never captured on {stream}: {sorted(missing)}")
        print(f"schema: {len(captured) - invalid} passed, {invalid + unseen} failed")
        failures = invalid + unseen
        return 1 if failures else 0
    except harness.HarnessError as error:
        sys.exit(f"schema: {error}")
    finally:
        for daemon in daemons.values():
            daemon.stop()
        if fake_tmdb:
            fake_tmdb.stop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
