#!/usr/bin/env python3
"""Capture real traffic of a running peerd pair and of real peerctl runs, and validate every frame
against the JSON Schemas in proto/ with an independent validator (python-jsonschema).

Two proxies sit in the middle and copy bytes unchanged while recording frames:
  peerctl --socket proxy.sock  ->  [unix proxy]  ->  alice.sock
  alice --peer 127.0.0.1:X     ->  [tcp proxy X] ->  bob
Binaries come from $PEERD_BIN_DIR (default .build/debug). Exits non-zero on any invalid frame or
on a message type that was never seen.
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

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "proto"))
from validate import validate_body  # noqa: E402

BIN = pathlib.Path(os.environ.get("PEERD_BIN_DIR", ROOT / ".build" / "debug"))
captured = []  # (stream, body bytes)
captured_lock = threading.Lock()


class FrameRecorder:
    """Splits one direction of a byte stream into frames and records their bodies."""

    def __init__(self, stream):
        self.stream = stream
        self.buffer = b""

    def feed(self, data):
        self.buffer += data
        while len(self.buffer) >= 4:
            (length,) = struct.unpack(">I", self.buffer[:4])
            if len(self.buffer) < 4 + length:
                return
            with captured_lock:
                captured.append((self.stream, self.buffer[4 : 4 + length]))
            self.buffer = self.buffer[4 + length :]


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


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_socket(path, process, log):
    deadline = time.time() + 20
    while time.time() < deadline:
        if process.poll() is not None:
            sys.exit(f"peerd exited during start:\n{log.read_text()}")
        try:
            with socket.socket(socket.AF_UNIX) as s:
                s.connect(str(path))
                return
        except OSError:
            time.sleep(0.05)
    sys.exit(f"peerd did not start:\n{log.read_text()}")


def peerctl(sock, *args, check=True):
    run = subprocess.run([str(BIN / "peerctl"), "--socket", str(sock), *args], capture_output=True, text=True, timeout=30)
    if check and run.returncode != 0:
        sys.exit(f"peerctl {' '.join(args)} failed ({run.returncode}): {run.stderr}")
    return run


def main():
    work = pathlib.Path(tempfile.mkdtemp(prefix="peerd-schema-"))
    processes = []
    try:
        alice_port, bob_port = free_port(), free_port()
        relay = socket.socket()
        relay.bind(("127.0.0.1", 0))
        relay.listen()
        serve_proxy(relay, lambda: socket.create_connection(("127.0.0.1", bob_port)), "peer", "peer")

        def start(name, port, peers):
            log = work / f"{name}.log"
            args = [str(BIN / "peerd"), "--name", name, "--port", str(port), "--listen-address", "127.0.0.1",
                    "--state-dir", str(work / name), "--socket", str(work / f"{name}.sock"), "--no-mdns",
                    "--keepalive-interval", "0.3"]
            for p in peers:
                args += ["--peer", p]
            process = subprocess.Popen(args, stdout=log.open("w"), stderr=subprocess.STDOUT)
            processes.append(process)
            wait_for_socket(work / f"{name}.sock", process, log)

        start("bob", bob_port, [])
        start("alice", alice_port, [f"127.0.0.1:{relay.getsockname()[1]}"])

        control_proxy = socket.socket(socket.AF_UNIX)
        control_proxy.bind(str(work / "proxy.sock"))
        control_proxy.listen()

        def to_alice():
            s = socket.socket(socket.AF_UNIX)
            s.connect(str(work / "alice.sock"))
            return s

        serve_proxy(control_proxy, to_alice, "control-request", "control-response")
        sock = work / "proxy.sock"

        follower = subprocess.Popen([str(BIN / "peerctl"), "--socket", str(sock), "list", "--follow", "--json"],
                                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        time.sleep(0.3)
        peerctl(sock, "add", "603", "--title", "The Matrix", "--year", "1999")
        peerctl(work / "bob.sock", "add", "https://www.themoviedb.org/movie/550-fight-club")
        peerctl(work / "bob.sock", "add", "603")
        peerctl(sock, "add", "603")  # already listed
        peerctl(sock, "add", "13", "--title", "Forrest Gump")
        peerctl(sock, "remove", "13")
        peerctl(sock, "remove", "13", check=False)  # error: not listed
        deadline = time.time() + 15
        while time.time() < deadline:
            if 550 in [m["movieId"] for m in json.loads(peerctl(sock, "list", "--json").stdout)]:
                break
            time.sleep(0.1)
        peerctl(sock, "list")
        peerctl(sock, "list", "--limit", "1")
        peerctl(sock, "list", "--json", "--after", "1.0123456789abcdef0123456789abcdef.1", check=False)
        peerctl(sock, "peers")
        peerctl(sock, "status")
        peerctl(sock, "connect", f"127.0.0.1:{free_port()}")
        time.sleep(1.2)  # a few keepalive intervals, for ping and pong
        follower.send_signal(signal.SIGINT)
        follower.wait(timeout=10)

        # An error frame from a peer: a hello with an unsupported version, straight to bob.
        with socket.create_connection(("127.0.0.1", bob_port)) as raw:
            body = json.dumps({"type": "hello", "version": 99, "peer": "0123456789abcdef", "name": "x",
                               "port": 1, "vector": {}}).encode()
            raw.sendall(struct.pack(">I", len(body)) + body)
            recorder = FrameRecorder("peer")
            raw.settimeout(10)
            while True:
                data = raw.recv(65536)
                if not data:
                    break
                recorder.feed(data)

        invalid = 0
        seen = {}
        for stream, body in captured:
            errors = validate_body(stream, body)
            seen.setdefault(stream, set()).add(json.loads(body).get("type"))
            if errors:
                invalid += 1
                print(f"INVALID {stream} {body[:200]!r}: {errors}")
        expected = {
            "peer": {"hello", "ops", "ping", "pong", "error"},
            "control-request": {"add", "remove", "list", "follow", "peers", "status", "connect"},
            "control-response": {"added", "removed", "list", "following", "change", "peers", "status",
                                 "connecting", "error"},
        }
        unseen = 0
        for stream, types in expected.items():
            print(f"captured {stream}: {sorted(seen.get(stream, set()))}")
            missing = types - seen.get(stream, set())
            if missing:
                unseen += 1
                print(f"never captured on {stream}: {sorted(missing)}")
        print(f"schema: {len(captured) - invalid} passed, {invalid + unseen} failed")
        failures = invalid + unseen
        return 1 if failures else 0
    finally:
        for p in processes:
            p.terminate()
        for p in processes:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
