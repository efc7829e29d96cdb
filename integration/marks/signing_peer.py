"""A member of the group written in Python, for the marks suite: it is admitted with the group secret
(the handshake of proto/SECURITY.md, with integration/abuse/attacker.py's pieces), speaks the peer
protocol (proto/PEER.md), keeps the raw bytes of every frame it receives, and signs operations of
its own with its identity key ("Signed operations"): seq 1 carries the key, every later one `prev`.
It can also forge: an operation in another member's name, chained to that member's real last
operation, signed with its own key.

    member = Member("dave")
    session = Session.open(member, port, secret_file)
    session.wait_for(lambda s: s.held(origin) >= 3, 10, "alice's operations")
    session.send_ops([member.make("mark", {"id": 603}, lamport, mark={...})])
"""
import base64
import hashlib
import json
import os
import pathlib
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent / "abuse"))
import attacker  # noqa: E402
from harness import CheckFailed, HarnessError, frame  # noqa: E402
from cryptography.exceptions import InvalidSignature  # noqa: E402
from cryptography.hazmat.primitives import hashes, serialization  # noqa: E402
from cryptography.hazmat.primitives.asymmetric import ec  # noqa: E402
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature, encode_dss_signature  # noqa: E402

P256_ORDER = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
SIGNING_PREFIX = b"peerd-op-v1\n"


def canonical(op):
    """PEER.md "Canonical JSON": keys sorted, no whitespace, raw UTF-8, `/` not escaped."""
    return json.dumps(op, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def b64(data):
    return base64.b64encode(data).decode()


def digest(op):
    """`prev` of the operation after `op`: base64 of SHA-256 over its canonical JSON, `sig` included."""
    return b64(hashlib.sha256(canonical(op)).digest())


def verify(op_bytes, spki_der):
    """Whether the operation written as `op_bytes` carries a signature its origin's key verifies."""
    op = json.loads(op_bytes)
    raw = base64.b64decode(op.pop("sig"))
    signature = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    try:
        serialization.load_der_public_key(spki_der).verify(signature, SIGNING_PREFIX + canonical(op),
                                                           ec.ECDSA(hashes.SHA256()))
        return True
    except InvalidSignature:
        return False


class Member:
    """An identity with its own log: `make` appends the next operation, signed."""

    def __init__(self, name):
        self.name = name
        self.identity = attacker.Identity(name)
        self.peer_id = self.identity.peer_id
        with open(self.identity.key_file, "rb") as f:
            self.key = serialization.load_pem_private_key(f.read(), None)
        self.spki = self.key.public_key().public_bytes(serialization.Encoding.DER,
                                                       serialization.PublicFormat.SubjectPublicKeyInfo)
        self.log = []

    def sign(self, op):
        """`sig` for `op` (without one): raw r‖s, s in its low form."""
        r, s = decode_dss_signature(self.key.sign(SIGNING_PREFIX + canonical(op), ec.ECDSA(hashes.SHA256())))
        return b64(r.to_bytes(32, "big") + min(s, P256_ORDER - s).to_bytes(32, "big"))

    def make(self, kind, movie, lamport, keep=True, **fields):
        """The next operation of this member's log, signed; `fields` are added as they are (a later
        version's included). Its lamport is at least one above the previous operation's. Without
        `keep` it is not appended to the log (for one that is to be refused)."""
        seq = len(self.log) + 1
        if self.log:
            lamport = max(lamport, self.log[-1]["lamport"] + 1)
        op = {"origin": self.peer_id, "seq": seq, "lamport": lamport, "at": int(time.time() * 1000),
              "by": self.name, "op": kind, "movie": movie, **fields}
        if seq == 1:
            op["key"] = b64(self.spki)
        else:
            op["prev"] = digest(self.log[-1])
        op["sig"] = self.sign(op)
        if keep:
            self.log.append(op)
        return op

    def forge(self, victim_last, lamport, by, kind, movie, **fields):
        """An operation in the name of `victim_last`'s origin, its next seq, chained to `victim_last`
        (that member's real last operation) so that only the signature is not theirs: it is this
        member's, made with this member's key."""
        op = {"origin": victim_last["origin"], "seq": victim_last["seq"] + 1, "lamport": lamport,
              "at": int(time.time() * 1000), "by": by, "op": kind, "movie": movie,
              "prev": digest(victim_last), **fields}
        op["sig"] = self.sign(op)
        return op


class Session:
    """One admitted connection to a peerd: TLS, admission, both hellos; then frames as they come,
    each kept raw (`bodies`) and parsed (`messages`), pings answered."""

    def __init__(self, member, sock, reader, hello):
        self.member, self.sock, self.reader, self.hello = member, sock, reader, hello
        self.bodies, self.messages = [], []
        self.ops = []  # every operation received, parsed, in order
        self.closed = None  # how the daemon closed, once it did

    @classmethod
    def open(cls, member, port, secret_file, host="127.0.0.1"):
        """Admitted as a group member (SECURITY.md, "The handshake"), hellos exchanged. Raises
        HarnessError when the daemon refuses."""
        identity = member.identity
        sock, _ = attacker.tls_connect(host, port, identity)
        try:
            reader = attacker.Reader(sock)
            peer_cert = sock.getpeercert(binary_form=True)
            peer_id = attacker.fingerprint(peer_cert)
            nonce = os.urandom(32)
            sock.sendall(frame(attacker.OFFER_MAGIC + nonce))
            offer = reader.frame(5)
            if len(offer) != 36 or offer[:4] != attacker.OFFER_MAGIC:
                raise HarnessError(f"peerd's offer is not a WLO1 record: {offer[:8]!r}")
            key = attacker.group_key(attacker.group_secret(open(secret_file, "rb").read()))
            mac = attacker.admission_mac(key, attacker.METHOD_GROUP, identity.id_bytes, peer_id, identity.cert_der,
                                         peer_cert, nonce, offer[4:])
            sock.sendall(frame(attacker.PROOF_MAGIC + bytes([attacker.METHOD_GROUP]) + mac))
            while True:  # the daemon's proof, then its hello
                body = reader.frame(5)
                if body[:4] == attacker.REFUSAL_MAGIC and len(body) == 5:
                    raise HarnessError(f"{member.name} refused at admission: "
                                       f"{attacker.REFUSAL_REASONS.get(body[4], body[4])}")
                if body[:1] == b"{":
                    hello = json.loads(body)
                    if hello.get("type") == "hello":
                        break
            mine = {"type": "hello", "version": attacker.PEER_PROTOCOL_VERSION, "peer": identity.peer_id,
                    "name": member.name, "port": 0, "vector": {}}
            sock.sendall(frame(json.dumps(mine).encode()))
        except (attacker.Closed, TimeoutError, OSError) as error:
            sock.close()
            raise HarnessError(f"{member.name} could not join the peerd on port {port}: {error}") from None
        except BaseException:
            sock.close()
            raise
        return cls(member, sock, reader, hello)

    @property
    def vector(self):
        """What the daemon held when it said hello: origin -> seq."""
        return self.hello.get("vector", {})

    def pump(self, timeout):
        """Reads one frame within `timeout` s (False when none came); answers a ping; notes a close."""
        if self.closed:
            return False
        try:
            body = self.reader.frame(timeout)
        except TimeoutError:
            return False
        except attacker.Closed as how:
            self.closed = str(how) or "closed"
            return False
        self.bodies.append(body)
        message = json.loads(body)
        self.messages.append(message)
        if message.get("type") == "ops":
            self.ops.extend(message["ops"])
        elif message.get("type") == "ping":
            self.sock.sendall(frame(b'{"type":"pong"}'))
        return True

    def wait_for(self, done, timeout, what):
        """Reads frames until `done(self)` holds; CheckFailed after `timeout` s or once the daemon closed."""
        deadline = time.monotonic() + timeout
        while not done(self):
            left = deadline - time.monotonic()
            if self.closed or left <= 0:
                why = f"the daemon closed the session ({self.closed}; errors {self.errors})" if self.closed else \
                    f"not within {timeout:g} s"
                raise CheckFailed(f"{self.member.name}: {what}: {why}")
            self.pump(min(left, 0.2))

    def caught_up(self):
        """Whether every operation the daemon's hello said it held has arrived."""
        return all(self.held(origin) >= seq for origin, seq in self.vector.items())

    def held(self, origin):
        """The highest seq received from `origin` on this session (0: none)."""
        return max((op["seq"] for op in self.ops if op["origin"] == origin), default=0)

    def last_of(self, origin):
        """The operation of `origin` with the highest seq received."""
        return max((op for op in self.ops if op["origin"] == origin), key=lambda op: op["seq"])

    def max_lamport(self):
        return max((op["lamport"] for op in self.ops), default=0)

    def raw_contains(self, data):
        """Whether `data` is, byte for byte, inside one of the `ops` frames received."""
        return any(data in body for body in self.bodies if b'"type":"ops"' in body)

    def send_ops(self, ops):
        """One `ops` message with `ops` written canonically, as a peer sends them."""
        body = b'{"ops":[' + b",".join(canonical(op) for op in ops) + b'],"type":"ops"}'
        self.sock.sendall(frame(body))

    @property
    def errors(self):
        return [m.get("code") for m in self.messages if m.get("type") == "error"]

    def error_messages(self):
        return [f"{m.get('code')}: {m.get('message')}" for m in self.messages if m.get("type") == "error"]

    def still_open(self):
        """Reads what has arrived; whether the daemon has not closed the session."""
        while self.pump(0.01):
            pass
        return not self.closed

    def await_close(self, bound):
        """Seconds until the daemon closed the session, reading (and keeping) what it sent first;
        None if it still hadn't after `bound` s."""
        started = time.monotonic()
        while time.monotonic() - started < bound:
            self.pump(min(0.2, bound))
            if self.closed:
                return time.monotonic() - started
        return None

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass
