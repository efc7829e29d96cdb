#!/usr/bin/env python3
"""A relay that lies about sessions (issue 42, "Bad relays"; relay check j), written from Syncthing's
relay protocol v1 (https://docs.syncthing.net/specs/relay-v1.html), not from peerd's code.

It speaks the protocol as strelaysrv does, in both modes, but never forwards one device to another:
  - protocol mode (TLS, ALPN bep-relay, its own self-signed certificate and the device id of it):
    a JoinRelayRequest is answered "success" and kept, a Ping gets a Pong, and a ConnectRequest for
    any device is answered with a SessionInvitation that says it is from that device;
  - session mode (plain TCP on --sessions): a JoinSessionRequest with a key it handed out is
    answered "success", and the bytes are then spliced into --splice-to, a stranger's peer port,
    both ways, until either end closes.
So a peer that asks for alice's session is put through to mallory. What the peer's TLS and
admission make of that is the test's business; this relay only says what it did, one JSON line per
event on stdout, after a first line `URI: relay://HOST:PORT/?id=ID` like strelaysrv's.

    lying_relay.py --listen 198.51.100.10:22077 --sessions 22078 --splice-to 127.0.0.1:7601

Written here: Debian's strelaysrv has no way to lie, and no Python package speaks relay v1.
"""

import argparse
import base64
import hashlib
import json
import os
import socket
import ssl
import struct
import sys
import threading

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "integration", "abuse"))
sys.path.insert(0, os.path.join(ROOT, "proto", "golden"))
from attacker import Identity  # noqa: E402
from make_golden import device_id  # noqa: E402 (Syncthing's text form of a device id)

MAGIC = 0x9E79BC40
PING, PONG, JOIN_RELAY, JOIN_SESSION, RESPONSE, CONNECT, INVITATION = range(7)
MAX_BODY = 1 << 16
_said = threading.Lock()


def say(event, **fields):
    with _said:
        print(json.dumps({"event": event, **fields}), flush=True)


# MARK: messages (a header of magic, type and length; an XDR body)


def opaque(data):
    return struct.pack(">I", len(data)) + data + b"\0" * (-len(data) % 4)


def message(kind, body=b""):
    return struct.pack(">III", MAGIC, kind, len(body)) + body


def response(code, text):
    return message(RESPONSE, struct.pack(">I", code) + opaque(text.encode()))


def invitation(device, key, port):
    """A SessionInvitation from `device` (the lie), at this relay's own address (empty) and `port`."""
    return message(INVITATION, opaque(device) + opaque(key) + opaque(b"") + struct.pack(">II", port, 0))


def read_exactly(conn, count):
    data = b""
    while len(data) < count:
        chunk = conn.recv(count - len(data))
        if not chunk:
            raise EOFError
        data += chunk
    return data


def read_message(conn):
    magic, kind, length = struct.unpack(">III", read_exactly(conn, 12))
    if magic != MAGIC or length > MAX_BODY:
        raise ValueError(f"no relay message (magic {magic:#x}, length {length})")
    return kind, read_exactly(conn, length)


def read_opaque(body):
    (length,) = struct.unpack(">I", body[:4])
    return body[4:4 + length]


# MARK: the two modes


class LyingRelay:
    def __init__(self, host, port, session_port, splice_to):
        self.host, self.port, self.session_port, self.splice_to = host, port, session_port, splice_to
        self.identity = Identity("lying relay")
        self.id = device_id(hashlib.sha256(self.identity.cert_der).digest())
        self.keys = {}  # session key -> the device the asker was promised
        self.lock = threading.Lock()
        self.tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        self.tls.load_cert_chain(self.identity.cert_file, self.identity.key_file)
        self.tls.set_alpn_protocols(["bep-relay"])

    def serve(self):
        protocol = socket.create_server((self.host, self.port))
        sessions = socket.create_server((self.host, self.session_port))
        print(f"URI: relay://{self.host}:{self.port}/?id={self.id}", flush=True)
        threading.Thread(target=self.accept, args=(sessions, self.session), daemon=True).start()
        self.accept(protocol, self.protocol_mode)

    @staticmethod
    def accept(server, handler):
        while True:
            conn, address = server.accept()
            threading.Thread(target=handler, args=(conn, f"{address[0]}:{address[1]}"), daemon=True).start()

    def protocol_mode(self, raw, source):
        try:
            with self.tls.wrap_socket(raw, server_side=True) as conn:
                while True:
                    kind, body = read_message(conn)
                    if kind == JOIN_RELAY:
                        conn.sendall(response(0, "success"))
                        say("joined", source=source)
                    elif kind == PING:
                        conn.sendall(message(PONG))
                    elif kind == CONNECT:
                        self.invite(conn, read_opaque(body), source)
        except (EOFError, OSError, ValueError, ssl.SSLError):
            pass

    def invite(self, conn, device, source):
        key = os.urandom(32)
        with self.lock:
            self.keys[key] = device
        conn.sendall(invitation(device, key, self.session_port))
        say("invited", source=source, promised=base64.b32encode(device).decode().rstrip("=")[:7])

    def session(self, conn, source):
        try:
            kind, body = read_message(conn)
            with self.lock:
                promised = self.keys.pop(read_opaque(body), None) if kind == JOIN_SESSION else None
            if promised is None:
                conn.sendall(response(1, "no such session"))
                conn.close()
                return
            stranger = socket.create_connection(self.splice_to, timeout=5)
            stranger.settimeout(None)
            conn.sendall(response(0, "success"))
        except (EOFError, OSError, ValueError) as error:
            say("session failed", source=source, error=str(error))
            conn.close()
            return
        say("spliced", source=source, into=f"{self.splice_to[0]}:{self.splice_to[1]}")
        threading.Thread(target=pipe, args=(stranger, conn), daemon=True).start()
        pipe(conn, stranger)


def pipe(source, sink):
    try:
        while data := source.recv(65536):
            sink.sendall(data)
    except OSError:
        pass
    for end in (source, sink):
        try:
            end.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--listen", required=True, help="HOST:PORT of protocol mode")
    parser.add_argument("--sessions", type=int, required=True, help="the port of session mode, on the same host")
    parser.add_argument("--splice-to", required=True, help="HOST:PORT every session is put through to")
    args = parser.parse_args()
    host, port = args.listen.rsplit(":", 1)
    target_host, target_port = args.splice_to.rsplit(":", 1)
    LyingRelay(host, int(port), args.sessions, (target_host, int(target_port))).serve()


if __name__ == "__main__":
    main()
