#!/usr/bin/env python3
"""A hostile peer for peerd's peer port, written from proto/SECURITY.md (not from peerd's code).

Each attack opens its own connection(s), sends its abuse, then waits for the *daemon* to close the
connection and reports how long that took (the attacker never closes first). Three kinds:

  plain-*     raw TCP, no TLS at all
  tls-*       TLS 1.3 with the attacker's own self-signed P-256 certificate, but no admission:
              bytes sent instead of (or in place of part of) the binary admission records
  ins-*       an INSIDER: knows the group secret, passes the admission handshake of SECURITY.md
              (offer, proof with HMAC-SHA256 under an HKDF-SHA256 key), exchanges hello, then
              abuses the JSON peer protocol
  idle-1000   1,000 plain TCP connections held open at once, sending nothing
  serve       (not an attack) a TLS listener with its own key that plays a prover with no secret:
              the impostor end for an mDNS spoofing test; logs one JSON line per connection

    attacker.py --port 7601 list
    attacker.py --port 7601 plain-4gib-header tls-json-flood
    attacker.py --port 7601 --group-secret-file secret ins-forged-op --forge-origin <peer id>
    attacker.py serve --listen 0.0.0.0:7601 --log spoofer.jsonl

Prints one JSON object per attack; exit status 0 when every attack saw the daemon close the
connection within --bound seconds (default 6), 1 otherwise, 2 on a usage or setup error.
"""

import argparse
import base64
import hashlib
import hmac
import json
import os
import pathlib
import resource
import selectors
import socket
import ssl
import sys
import threading
import time
import weakref

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
from harness import frame, remove_scratch, scratch_dir, split_frame  # noqa: E402

try:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID
except ImportError:  # reported by require_cryptography(), so `list` and --help still work
    x509 = None

MIB = 1 << 20
PEER_PROTOCOL_VERSION = 3  # proto/PEER.md: the hello's "version"
OFFER_MAGIC, PROOF_MAGIC, REFUSAL_MAGIC = b"WLO1", b"WLP1", b"WLR1"
METHOD_NONE, METHOD_GROUP, METHOD_INVITE = 0, 1, 2
REFUSAL_REASONS = {1: "not-a-member", 2: "revoked", 3: "key-mismatch", 4: "self-connection", 5: "busy",
                   6: "unsupported-key"}
MAC_LABEL = b"peerd admission v1"
GROUP_SALT, INVITE_SALT, KEY_INFO = b"peerd group v1", b"peerd invite v1", b"admission"
FORGED_MOVIE = 990_001  # an id nobody legitimate adds: seeing it on a list means a forgery merged


def require_cryptography():
    if x509 is None:
        sys.exit("attacker: the Python package 'cryptography' is missing: python3 -m pip install cryptography "
                 "(make test-deps installs it)")


# MARK: framing


class Closed(Exception):
    """The daemon closed the connection (EOF, reset, or a TLS alert)."""


def _recv(sock, n):
    try:
        data = sock.recv(n)
    except (ConnectionResetError, BrokenPipeError, ssl.SSLEOFError, ssl.SSLZeroReturnError) as error:
        raise Closed(type(error).__name__) from None
    except ssl.SSLError as error:  # a TLS alert from the daemon
        raise Closed(f"TLS: {error.reason or error}") from None
    if not data:
        raise Closed("EOF")
    return data


class Reader:
    """Frames from a (TLS) socket; remembers every JSON frame's type and any error code seen."""

    def __init__(self, sock):
        self.sock = sock
        self.buffer = b""
        self.types = []
        self.errors = []

    def frame(self, timeout):
        deadline = time.monotonic() + timeout
        while True:
            body, self.buffer = split_frame(self.buffer)
            if body is not None:
                self._note(body)
                return body
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no complete frame")
            self.sock.settimeout(left)
            try:
                self.buffer += _recv(self.sock, 1 << 16)
            except (socket.timeout, ssl.SSLWantReadError):
                raise TimeoutError("no complete frame") from None

    def json(self, timeout):
        return json.loads(self.frame(timeout))

    def _note(self, body):
        if body[:1] == b"{":
            try:
                message = json.loads(body)
            except ValueError:
                return
            self.types.append(message.get("type"))
            if message.get("type") == "error":
                self.errors.append(message.get("code"))

    def drain(self):
        """Reads whatever has arrived without waiting; raises Closed once the daemon closed."""
        while True:
            try:
                self.frame(0.001)
            except TimeoutError:
                return


def await_close(sock, started, bound, reader=None):
    """Reads (discarding, but noting frames) until the daemon closes; returns (closed, seconds since
    `started`, how). Never closes the socket itself before that."""
    reader = reader or Reader(sock)
    deadline = started + bound + 4  # look a little past the bound, to tell "late" from "never"
    while time.monotonic() < deadline:
        try:
            reader.frame(min(0.5, max(0.01, deadline - time.monotonic())))
        except TimeoutError:
            continue
        except Closed as how:
            return True, time.monotonic() - started, str(how)
        except OSError as error:
            return True, time.monotonic() - started, type(error).__name__
    return False, time.monotonic() - started, "still open"


def send_all(sock, data, reader=None, chunk=1 << 16, give_up=15.0):
    """Sends `data` as fast as the daemon takes it; returns None, or how the daemon closed meanwhile.

    Whenever a write would block (the daemon stopped reading), reads instead, so that a daemon that
    refused us and closed is noticed at once rather than when its own write side gives up."""
    reader = reader or Reader(sock)
    view, i, end = memoryview(data), 0, time.monotonic() + give_up
    while i < len(view):
        sock.settimeout(0.05)
        try:
            i += sock.send(view[i:i + chunk])  # after a timeout, retried with the same bytes (TLS needs it)
            continue
        except (socket.timeout, ssl.SSLWantWriteError, BlockingIOError):
            pass
        except (BrokenPipeError, ConnectionResetError, ssl.SSLEOFError, ssl.SSLZeroReturnError) as error:
            return type(error).__name__
        except ssl.SSLError as error:
            return f"TLS: {error.reason or error}"
        try:
            reader.drain()
        except Closed as how:
            return str(how)
        if time.monotonic() > end:
            return None  # the daemon neither reads nor closes: await_close decides
    return None


# MARK: identity and admission (SECURITY.md)


class Identity:
    """A self-signed certificate for a fresh key (P-256 unless `curve` says otherwise); `peer_id`
    is the first 16 bytes of SHA-256 over the DER SubjectPublicKeyInfo."""

    def __init__(self, name="mallory", curve=None):
        require_cryptography()
        key = ec.generate_private_key(curve or ec.SECP256R1())
        subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
        now = time.time()
        import datetime

        cert = (
            x509.CertificateBuilder().subject_name(subject).issuer_name(subject).public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(datetime.datetime.fromtimestamp(now - 3600, datetime.timezone.utc))
            .not_valid_after(datetime.datetime.fromtimestamp(now + 86400 * 30, datetime.timezone.utc))
            .sign(key, hashes.SHA256())
        )
        self.cert_der = cert.public_bytes(serialization.Encoding.DER)
        self.id_bytes = fingerprint(self.cert_der)
        self.peer_id = self.id_bytes.hex()
        directory = scratch_dir("attacker-id")
        weakref.finalize(self, remove_scratch, directory)  # with the identity, as the files' only user
        self.cert_file = str(directory / "cert.pem")
        self.key_file = str(directory / "key.pem")
        with open(self.cert_file, "wb") as f:
            f.write(cert.public_bytes(serialization.Encoding.PEM))
        with open(self.key_file, "wb") as f:
            f.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                      serialization.NoEncryption()))


def fingerprint(cert_der):
    spki = x509.load_der_x509_certificate(cert_der).public_key().public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    return hashlib.sha256(spki).digest()[:16]


def hkdf_sha256(ikm, salt, info, length=32):
    """RFC 5869 with HMAC-SHA256."""
    prk = hmac.new(salt, ikm, hashlib.sha256).digest()
    okm, block, counter = b"", b"", 1
    while len(okm) < length:
        block = hmac.new(prk, block + info + bytes([counter]), hashlib.sha256).digest()
        okm += block
        counter += 1
    return okm[:length]


def group_key(secret):
    return hkdf_sha256(secret, GROUP_SALT, KEY_INFO)


def admission_mac(key, method, prover_id, verifier_id, prover_cert, verifier_cert, prover_nonce, verifier_nonce):
    message = (MAC_LABEL + bytes([method]) + prover_id + verifier_id + hashlib.sha256(prover_cert).digest()
               + hashlib.sha256(verifier_cert).digest() + prover_nonce + verifier_nonce)
    return hmac.new(key, message, hashlib.sha256).digest()


def group_secret(raw):
    """The secret's bytes, as SECURITY.md ("Group secret") defines them: the file's bytes with space,
    tab, line feed and carriage return removed from both ends; base64 is not decoded."""
    return raw.strip(b" \t\n\r")


def tls_context(identity, minimum=ssl.TLSVersion.TLSv1_3, maximum=ssl.TLSVersion.TLSv1_3, with_cert=True):
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE  # peers are pinned by fingerprint, never by a CA
    context.minimum_version, context.maximum_version = minimum, maximum
    if with_cert:
        context.load_cert_chain(identity.cert_file, identity.key_file)
    return context


def tls_connect(host, port, identity, timeout=6.0, **kw):
    raw = socket.create_connection((host, port), timeout=timeout)
    started = time.monotonic()
    try:
        sock = tls_context(identity, **kw).wrap_socket(raw, server_hostname=None)
    except BaseException:
        raw.close()
        raise
    return sock, started


class Refused(Exception):
    def __init__(self, reason):
        super().__init__(reason)
        self.reason = reason


class Session:
    """An admitted insider connection: TLS, offer, proof, hello both ways."""

    def __init__(self, sock, started, reader, identity, peer_id, peer_hello, secret_label, members):
        self.sock, self.started, self.reader = sock, started, reader
        self.identity, self.peer_id, self.peer_hello = identity, peer_id, peer_hello
        self.secret_label, self.members = secret_label, members
        self.received_ops = []


def admit(host, port, identity, secret_file, name="mallory"):
    """Runs SECURITY.md's handshake as a group member. Which reading of the secret file to prove
    with is taken from the daemon's own proof (the one under which its MAC verifies)."""
    raw_secret = open(secret_file, "rb").read()
    sock, started = tls_connect(host, port, identity)
    reader = Reader(sock)
    peer_cert = sock.getpeercert(binary_form=True)
    peer_id = fingerprint(peer_cert)
    nonce = os.urandom(32)
    sock.sendall(frame(OFFER_MAGIC + nonce))
    offer = reader.frame(5)
    if len(offer) != 36 or offer[:4] != OFFER_MAGIC:
        raise Refused(f"daemon's offer is not a 36-byte WLO1 record: {offer[:8]!r} ({len(offer)} bytes)")
    peer_nonce = offer[4:]
    try:
        peer_proof = reader.frame(1.5)  # SECURITY.md: each side proves as soon as it has the other's offer
    except TimeoutError:
        peer_proof = None
    secret = group_secret(raw_secret)
    if peer_proof is not None:
        if len(peer_proof) != 37 or peer_proof[:4] != PROOF_MAGIC:
            raise Refused(f"daemon's proof is not a 37-byte WLP1 record: {peer_proof[:8]!r}")
        expected = admission_mac(group_key(secret), peer_proof[4], peer_id, identity.id_bytes, peer_cert,
                                 identity.cert_der, peer_nonce, nonce)
        if not hmac.compare_digest(expected, peer_proof[5:]):
            raise Refused("the daemon's group proof does not verify under the secret as SECURITY.md defines it")
    mac = admission_mac(group_key(secret), METHOD_GROUP, identity.id_bytes, peer_id, identity.cert_der,
                        peer_cert, nonce, peer_nonce)
    sock.sendall(frame(PROOF_MAGIC + bytes([METHOD_GROUP]) + mac))
    if peer_proof is None:
        peer_proof = reader.frame(4)
    while True:
        body = reader.frame(5)
        if body[:4] == REFUSAL_MAGIC and len(body) == 5:
            raise Refused(REFUSAL_REASONS.get(body[4], f"reason {body[4]}"))
        message = json.loads(body)
        if message.get("type") == "hello":
            break
    hello = {"type": "hello", "version": PEER_PROTOCOL_VERSION, "peer": identity.peer_id, "name": name, "port": 9, "vector": {}}
    sock.sendall(frame(json.dumps(hello).encode()))
    session = Session(sock, started, reader, identity, peer_id.hex(), message, "SECURITY.md's bytes", None)
    # Collect what the daemon sends right after hello (members, catch-up ops) for a moment.
    end = time.monotonic() + 1.0
    while time.monotonic() < end:
        try:
            body = reader.frame(end - time.monotonic())
        except TimeoutError:
            break
        m = json.loads(body)
        if m.get("type") == "ops":
            session.received_ops.extend(m.get("ops", []))
        elif m.get("type") == "members":
            session.members = m
    return session


# MARK: the attacks


def result(name, closed, seconds, how, **extra):
    return {"attack": name, "closed_by_daemon": closed, "close_seconds": round(seconds, 3), "how": how, **extra}


def plain(host, port, payload_fn, name, bound):
    sock = socket.create_connection((host, port), timeout=5)
    started = time.monotonic()
    try:
        reader = Reader(sock)
        sent_error = send_all(sock, payload_fn(), reader)
        closed, seconds, how = await_close(sock, started, bound, reader)
        return result(name, closed, seconds, sent_error or how)
    finally:
        sock.close()


def over_tls(host, port, payload, name, bound, identity=None, offer_first=False):
    identity = identity or Identity()
    try:
        sock, started = tls_connect(host, port, identity)
    except (ssl.SSLError, OSError) as error:
        return result(name, True, 0.0, f"TLS handshake refused: {error}")
    try:
        reader = Reader(sock)
        if offer_first:
            sent_error = send_all(sock, frame(OFFER_MAGIC + os.urandom(32)), reader)
        sent_error = send_all(sock, payload, reader) if not offer_first or not sent_error else sent_error
        closed, seconds, how = await_close(sock, started, bound, reader)
        frames = [t for t in reader.types if t]
        return result(name, closed, seconds, sent_error or how, json_frames_received=frames)
    finally:
        sock.close()


def json_flood_frames(count, movie_base=FORGED_MOVIE + 100):
    """Valid-looking peer frames: a hello, then pings and small ops, as if admission were not there."""
    me = os.urandom(16).hex()
    out = [frame(json.dumps({"type": "hello", "version": PEER_PROTOCOL_VERSION, "peer": me, "name": "mallory", "port": 9,
                             "vector": {}}).encode())]
    for i in range(count):
        if i % 2:
            out.append(frame(b'{"type":"ping"}'))
        else:
            op = {"at": int(time.time() * 1000), "by": "mallory", "lamport": i + 1, "op": "add", "origin": me,
                  "seq": i // 2 + 1, "movie": {"id": movie_base + i // 2, "title": "flood"}}
            out.append(frame(json.dumps({"type": "ops", "ops": [op]}).encode()))
    return b"".join(out)


def nested(depth=100_000):
    return frame(b"[" * depth)


def invalid_utf8():
    return frame(b'{"type":"ping","x":"\xff\xfe\xc3\x28\xed\xa0\x80"}')


def _insider(host, port, secret_file, name, bound, abuse):
    """Admits an insider, then runs `abuse(session)` -> (sent_error, extra dict); waits for the close."""
    session = admit(host, port, Identity(), secret_file)
    try:
        sent_error, extra = abuse(session)
        t = extra.pop("_abuse_started")  # time from the abuse, not from the TCP connection
        if extra.pop("_stays_open", False):
            try:
                session.reader.drain()
                closed, seconds, how = False, time.monotonic() - t, "still open"
            except Closed as why:
                closed, seconds, how = True, time.monotonic() - t, str(why)
        elif sent_error:
            closed, seconds, how = True, time.monotonic() - t, sent_error
        else:
            closed, seconds, how = await_close(session.sock, t, bound, session.reader)
        return result(name, closed, seconds, how, error_codes=session.reader.errors, insider=session.identity.peer_id,
                      secret_reading=session.secret_label, **extra)
    finally:
        session.sock.close()


def _send_then(payload):
    def abuse(session):
        t = time.monotonic()
        return send_all(session.sock, payload, session.reader), {"_abuse_started": t}
    return abuse


def _flood(session):
    """200k pings as fast as possible, reading what comes back between batches."""
    t = time.monotonic()
    batch = frame(b'{"type":"ping"}') * 2000
    sent = 0
    for _ in range(100):
        error = send_all(session.sock, batch, session.reader)
        if error:
            return error, {"_abuse_started": t, "pings_sent_before_close": sent}
        sent += 2000
        try:
            session.reader.drain()
        except Closed as how:
            return str(how), {"_abuse_started": t, "pings_sent_before_close": sent}
    return None, {"_abuse_started": t, "pings_sent_before_close": sent}


def forged_op(session, origin):
    """An add in `origin`'s name (a member's id), with the next seq the daemon lacks from it and a
    signature that is not that member's. Shaped like a real operation the daemon sent us, so that
    only the signature (and chain) are wrong."""
    held = session.peer_hello.get("vector", {}).get(origin, 0)
    template = next((op for op in reversed(session.received_ops) if op.get("origin") == origin), None)
    op = dict(template or {})
    op.update({"origin": origin, "seq": held + 1, "op": "add", "by": "bob",
               "lamport": max([o.get("lamport", 0) for o in session.received_ops] + [0]) + 1,
               "at": int(time.time() * 1000), "movie": {"id": FORGED_MOVIE, "title": "Forged"}})
    op.pop("removes", None)
    op.pop("key", None)  # PEER.md "Signed operations": only seq 1 carries the key
    tampered = []
    if template is not None and template.get("seq") == held and ("sig" in template or "prev" in template):
        # A correct chain link to the member's real last operation, so that only the signature is wrong.
        op["prev"] = base64.b64encode(hashlib.sha256(canonical_json(template)).digest()).decode()
    # A well-formed signature (64 bytes, strict base64) that is not the member's.
    op["sig"] = base64.b64encode(os.urandom(64)).decode()
    tampered.append("sig: 64 random bytes" + ("" if template and "sig" in template
                                               else " (the daemon's operations carry no sig at all)"))
    return op, tampered


def canonical_json(op):
    """PEER.md "Signed operations": sorted keys, no whitespace, raw UTF-8, `/` not escaped."""
    return json.dumps(op, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def _forge(origin, own=False):
    """In a member's name (`origin`, default one from the daemon's hello vector); with `own`, in the
    name of the very daemon we talk to (PEER.md: refused as forged even without signatures)."""
    def abuse(session):
        who = session.peer_id if own else (
            origin or next((o for o in session.peer_hello.get("vector", {}) if o != session.peer_id), None))
        if who is None:
            raise RuntimeError("no member origin to forge: the daemon's hello vector names only itself")
        op, tampered = forged_op(session, who)
        t = time.monotonic()
        error = send_all(session.sock, frame(json.dumps({"type": "ops", "ops": [op]}).encode()), session.reader)
        return error, {"_abuse_started": t, "forged_origin": who, "forged_seq": op["seq"], "tampered": tampered,
                       "template_fields": sorted(op)}
    return abuse


def _control(session):
    """Not an attack: an admitted insider pings and must get a pong and stay connected."""
    t = time.monotonic()
    session.sock.sendall(frame(b'{"type":"ping"}'))
    end = t + 2.5
    while time.monotonic() < end:
        try:
            session.reader.frame(end - time.monotonic())
        except TimeoutError:
            break
    return None, {"_abuse_started": t, "_stays_open": True, "pong": "pong" in session.reader.types,
                  "daemon_hello": {k: session.peer_hello.get(k) for k in ("peer", "name", "version")},
                  "members_received": session.members is not None, "catch_up_ops": len(session.received_ops),
                  "op_fields": sorted(session.received_ops[0]) if session.received_ops else None}


def idle_connections(host, port, count=1000, bound=6.0):
    """`count` TCP connections opened at once, sending nothing; each must be closed by the daemon
    (by the handshake deadline, or at once over the cap of unadmitted connections)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < count + 100:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, count + 200), hard))
    selector = selectors.DefaultSelector()
    opened, connected_at, closed_at, failed = {}, {}, {}, 0
    started = time.monotonic()
    for _ in range(count):
        s = socket.socket()
        s.setblocking(False)
        s.connect_ex((host, port))
        opened[s.fileno()] = s
        selector.register(s, selectors.EVENT_WRITE)
    deadline = started + bound + 10
    while len(closed_at) + failed < count and time.monotonic() < deadline:
        for key, events in selector.select(0.2):
            s = key.fileobj
            if s.fileno() not in connected_at:
                if s.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR):
                    failed += 1
                    selector.unregister(s)
                    continue
                connected_at[s.fileno()] = time.monotonic()
                selector.modify(s, selectors.EVENT_READ)
                continue
            try:
                data = s.recv(4096)
            except (ConnectionResetError, BlockingIOError) as error:
                data = b"" if isinstance(error, ConnectionResetError) else None
            if data is None:
                continue
            if data == b"":
                closed_at[s.fileno()] = time.monotonic()
                selector.unregister(s)
    lifetimes = sorted(closed_at[f] - connected_at[f] for f in closed_at)
    still_open = count - len(closed_at) - failed
    for s in opened.values():
        s.close()
    selector.close()
    max_life = lifetimes[-1] if lifetimes else 0.0
    return {
        "attack": "idle-1000", "connections": count, "connected": len(connected_at), "connect_failed": failed,
        "closed_by_daemon_count": len(closed_at), "still_open": still_open,
        "closed_within_1s": sum(1 for x in lifetimes if x <= 1.0),
        "max_close_seconds": round(max_life, 3),
        "median_close_seconds": round(lifetimes[len(lifetimes) // 2], 3) if lifetimes else None,
        "closed_by_daemon": still_open == 0 and len(closed_at) > 0, "close_seconds": round(max_life, 3),
        "how": f"{len(closed_at)} closed by the daemon, {failed} refused, {still_open} still open",
    }


def tls_handshake_only(host, port, name, bound, **kw):
    """TLS variants that the TLS layer itself must refuse (or that must be closed by the deadline)."""
    identity = Identity(curve=kw.pop("curve", None))
    try:
        sock, started = tls_connect(host, port, identity, **kw)
    except (ssl.SSLError, OSError) as error:
        return result(name, True, 0.0, f"TLS handshake refused: {getattr(error, 'reason', None) or error}")
    try:
        closed, seconds, how = await_close(sock, started, bound)
        return result(name, closed, seconds, how)
    finally:
        sock.close()


ATTACKS = {
    # plain TCP
    "plain-4gib-header": lambda a: plain(a.host, a.port, lambda: b"\xff\xff\xff\xff", "plain-4gib-header", a.bound),
    "plain-garbage-16mib": lambda a: plain(a.host, a.port, lambda: os.urandom(16 * MIB), "plain-garbage-16mib", a.bound),
    "plain-json-flood": lambda a: plain(a.host, a.port, lambda: json_flood_frames(20_000), "plain-json-flood", a.bound),
    "idle-1000": lambda a: idle_connections(a.host, a.port, a.count, a.bound),
    # TLS, no admission
    "tls-idle": lambda a: over_tls(a.host, a.port, b"", "tls-idle", a.bound),
    "tls-4gib-header": lambda a: over_tls(a.host, a.port, b"\xff\xff\xff\xff", "tls-4gib-header", a.bound),
    "tls-garbage-16mib": lambda a: over_tls(a.host, a.port, os.urandom(16 * MIB), "tls-garbage-16mib", a.bound),
    "tls-nested-100k": lambda a: over_tls(a.host, a.port, nested(), "tls-nested-100k", a.bound),
    "tls-invalid-utf8": lambda a: over_tls(a.host, a.port, invalid_utf8(), "tls-invalid-utf8", a.bound),
    "tls-json-flood": lambda a: over_tls(a.host, a.port, json_flood_frames(20_000), "tls-json-flood", a.bound),
    "tls-json-36-bytes": lambda a: over_tls(a.host, a.port, frame(b'{"type":"ping","pad":"xxxxxxxxxxxxx"}'),
                                            "tls-json-36-bytes", a.bound),
    "tls-offer-then-hello": lambda a: over_tls(a.host, a.port, json_flood_frames(200), "tls-offer-then-hello",
                                               a.bound, offer_first=True),
    "tls-proof-none": lambda a: over_tls(a.host, a.port, frame(PROOF_MAGIC + bytes([METHOD_NONE]) + bytes(32)),
                                         "tls-proof-none", a.bound, offer_first=True),
    "tls-no-client-cert": lambda a: tls_handshake_only(a.host, a.port, "tls-no-client-cert", a.bound, with_cert=False),
    "tls-1.2-only": lambda a: tls_handshake_only(a.host, a.port, "tls-1.2-only", a.bound,
                                                 minimum=ssl.TLSVersion.TLSv1_2, maximum=ssl.TLSVersion.TLSv1_2),
    # insiders: admitted with the group secret
    "ins-control": lambda a: _insider(a.host, a.port, a.secret, "ins-control", a.bound, _control),
    "ins-4gib-header": lambda a: _insider(a.host, a.port, a.secret, "ins-4gib-header", a.bound,
                                          _send_then(b"\xff\xff\xff\xff")),
    "ins-garbage-16mib": lambda a: _insider(a.host, a.port, a.secret, "ins-garbage-16mib", a.bound,
                                            _send_then(frame(os.urandom(16 * MIB)))),
    "ins-garbage-1mib": lambda a: _insider(a.host, a.port, a.secret, "ins-garbage-1mib", a.bound,
                                           _send_then(frame(os.urandom(MIB)))),
    "ins-nested-100k": lambda a: _insider(a.host, a.port, a.secret, "ins-nested-100k", a.bound,
                                          _send_then(nested())),
    "ins-invalid-utf8": lambda a: _insider(a.host, a.port, a.secret, "ins-invalid-utf8", a.bound,
                                           _send_then(invalid_utf8())),
    "ins-ping-flood": lambda a: _insider(a.host, a.port, a.secret, "ins-ping-flood", a.bound, _flood),
    "ins-forged-own-op": lambda a: _insider(a.host, a.port, a.secret, "ins-forged-own-op", a.bound,
                                            _forge(a.forge_origin, own=True)),
    "ins-forged-op": lambda a: _insider(a.host, a.port, a.secret, "ins-forged-op", a.bound, _forge(a.forge_origin)),
}


# MARK: the impostor's listener


def serve(listen, log_path, stop=None):
    """A TLS 1.3 listener with its own key that answers like a peer with no secret: offer, then a
    `none` proof. Logs, per connection, how far the dialer went (JSON lines)."""
    identity = Identity("impostor")
    host, _, port = listen.rpartition(":")
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = context.maximum_version = ssl.TLSVersion.TLSv1_3
    context.load_cert_chain(identity.cert_file, identity.key_file)
    host = host.strip("[]") or "0.0.0.0"
    if host == "::":  # both IPv4 and IPv6, as a real peerd listens
        server = socket.create_server(("::", int(port)), family=socket.AF_INET6, dualstack_ipv6=True)
    else:
        server = socket.create_server((host, int(port)))
    log = open(log_path, "a", buffering=1) if log_path else sys.stdout
    log.write(json.dumps({"event": "listening", "listen": listen, "impostor_id": identity.peer_id}) + "\n")

    def handle(conn, addr):
        entry = {"event": "connection", "from": addr[0].removeprefix("::ffff:"), "stage": "tcp",
                 "at": round(time.time(), 3)}
        try:
            conn.settimeout(8)
            tls = context.wrap_socket(conn, server_side=True)
            entry["stage"] = "tls-done"
            reader = Reader(tls)
            tls.sendall(frame(OFFER_MAGIC + os.urandom(32)))
            offer = reader.frame(6)
            entry["stage"], entry["offer_len"] = "offer-received", len(offer)
            tls.sendall(frame(PROOF_MAGIC + bytes([METHOD_NONE]) + bytes(32)))
            while True:
                body = reader.frame(6)
                if body[:4] == REFUSAL_MAGIC and len(body) == 5:
                    entry["stage"], entry["refused"] = "refused", REFUSAL_REASONS.get(body[4], body[4])
                    break
                if body[:4] == PROOF_MAGIC:
                    entry["stage"] = "proof-received"
                    continue
                entry["stage"] = "json-received"  # the dialer went on with the peer protocol: admitted us
                entry["first_json"] = body[:200].decode(errors="replace")
                op = {"at": int(time.time() * 1000), "by": "impostor", "lamport": 1, "op": "add",
                      "origin": identity.peer_id, "seq": 1, "movie": {"id": FORGED_MOVIE + 7, "title": "Spoofed"}}
                tls.sendall(frame(json.dumps({"type": "hello", "version": PEER_PROTOCOL_VERSION, "peer": identity.peer_id,
                                              "name": "impostor", "port": int(port), "vector": {}}).encode()))
                tls.sendall(frame(json.dumps({"type": "ops", "ops": [op]}).encode()))
                break
        except ssl.SSLError as error:
            entry["error"] = f"TLS: {error.reason or error}"
        except (Closed, TimeoutError, OSError) as error:
            entry["error"] = f"{type(error).__name__}: {error}"
        finally:
            log.write(json.dumps(entry) + "\n")
            conn.close()

    server.settimeout(0.5)
    while stop is None or not stop.is_set():
        try:
            conn, addr = server.accept()
        except socket.timeout:
            continue
        threading.Thread(target=handle, args=(conn, addr), daemon=True).start()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int)
    parser.add_argument("--group-secret-file", dest="secret", help="the group secret (ins-* attacks)")
    parser.add_argument("--forge-origin", help="peer id whose name ins-forged-op forges (default: a member's)")
    parser.add_argument("--bound", type=float, default=6.0, help="seconds the daemon has to close (default 6)")
    parser.add_argument("--count", type=int, default=1000, help="connections for idle-1000")
    parser.add_argument("--listen", default="0.0.0.0:7601", help="serve: address:port")
    parser.add_argument("--log", help="serve: JSON-lines log file (default stdout)")
    parser.add_argument("attacks", nargs="+", help="'list', 'serve', 'all', or attack names")
    args = parser.parse_args(argv)
    if args.attacks == ["list"]:
        print("\n".join(ATTACKS))
        return 0
    require_cryptography()
    if args.attacks == ["serve"]:
        try:
            serve(args.listen, args.log)
        except KeyboardInterrupt:
            pass
        return 0
    names = list(ATTACKS) if args.attacks == ["all"] else args.attacks
    unknown = [n for n in names if n not in ATTACKS]
    if unknown or args.port is None:
        parser.error(f"unknown attacks {unknown} (see 'list')" if unknown else "--port is required")
    if any(n.startswith("ins-") for n in names) and not args.secret:
        parser.error("ins-* attacks need --group-secret-file")
    ok = True
    for name in names:
        try:
            outcome = ATTACKS[name](args)
        except (Refused, OSError, ValueError, RuntimeError) as error:
            outcome = {"attack": name, "closed_by_daemon": False, "error": f"{type(error).__name__}: {error}"}
        good = outcome.get("closed_by_daemon") and outcome.get("close_seconds", 0) <= args.bound
        if name == "ins-control":
            good = not outcome.get("closed_by_daemon") and outcome.get("pong")
        ok = ok and bool(good)
        print(json.dumps(outcome), flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
