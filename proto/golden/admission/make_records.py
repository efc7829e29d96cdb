#!/usr/bin/env python3
"""Writes the golden admission records in this folder: README.md lists them, records.json says
what each holds. They are binary, not JSON (SECURITY.md, "The handshake"); each file is one frame,
the u32 big-endian length and then the record.

    python3 proto/golden/admission/make_records.py
"""

from __future__ import annotations

import json
import pathlib
import struct

HERE = pathlib.Path(__file__).resolve().parent

REASONS = {
    "not-a-member": 1,
    "revoked": 2,
    "key-mismatch": 3,
    "self-connection": 4,
    "busy": 5,
    "unsupported-key": 6,
    "invite-used": 7,
    "invite-expired": 8,
    "removed": 9,
}
METHODS = {"none": 0, "group": 1, "invite": 2}
NONCE = bytes(range(1, 33))
MAC = bytes(range(0xA0, 0xC0))
USED_AT = 1764902820000  # 2025-12-05T02:47:00Z
EXPIRED_AT = 1764903433000  # 2025-12-05T02:57:13Z
REMOVED_AT = 1764968640000  # 2025-12-05T21:04:00Z


def frame(body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + body


def refusal(reason: str, at: int | None = None, name: bytes | None = None) -> bytes:
    body = b"WLR1" + bytes([REASONS[reason]])
    if at is None:
        return body
    return body + struct.pack(">Q", at) + bytes([len(name)]) + name


# name → (record body, what it holds, what it shows). `canonical`: peerd writes these exact bytes
# for what it holds; the rest are read as said, or refused (`record` null).
RECORDS: list[tuple[str, bytes, dict, str]] = [
    ("offer", b"WLO1" + NONCE, {"record": "offer", "nonce": NONCE.hex(), "canonical": True},
     "an offer: its 32-byte nonce"),
]
for method in METHODS:
    RECORDS.append((f"proof-{method}", b"WLP1" + bytes([METHODS[method]]) + (MAC if method != "none" else bytes(32)),
                    {"record": "proof", "method": method, "mac": (MAC if method != "none" else bytes(32)).hex(),
                     "canonical": True},
                    f"a proof by method `{method}` (the MAC is made up: it is bound to certificates)"))
for reason in list(REASONS)[:6]:
    RECORDS.append((f"refusal-{reason}", refusal(reason), {"record": "refusal", "reason": reason, "canonical": True},
                    f"a refusal: `{reason}`"))
RECORDS += [
    ("refusal-invite-used", refusal("invite-used", USED_AT, b"alice"),
     {"record": "refusal", "reason": "invite-used", "at": USED_AT, "name": "alice", "canonical": True},
     "a code used already: when, and the inviter's name"),
    ("refusal-invite-expired", refusal("invite-expired", EXPIRED_AT, "zoë".encode()),
     {"record": "refusal", "reason": "invite-expired", "at": EXPIRED_AT, "name": "zoë", "canonical": True},
     "a code expired: when, and a name in UTF-8"),
    ("refusal-invite-expired-no-name", refusal("invite-expired", EXPIRED_AT, b""),
     {"record": "refusal", "reason": "invite-expired", "at": EXPIRED_AT, "name": None, "canonical": True},
     "a code expired, from an inviter without a name"),
    ("refusal-invite-used-longest-name", refusal("invite-used", USED_AT, "é".encode() * 32),
     {"record": "refusal", "reason": "invite-used", "at": USED_AT, "name": "é" * 32, "canonical": True},
     "the longest refusal: a name of 64 bytes"),
    ("refusal-removed", refusal("removed", REMOVED_AT, b"alice"),
     {"record": "refusal", "reason": "removed", "at": REMOVED_AT, "name": "alice", "canonical": True},
     "a key removed from the group: when, and the remover's name (\"removed from the group by alice at 21:04\")"),
    ("refusal-unknown-reason", b"WLR1" + bytes([200]),
     {"record": "refusal", "reason": "not-a-member", "canonical": False},
     "a reason the receiver does not know reads as `not-a-member`"),
    ("refusal-invite-used-control-name", refusal("invite-used", USED_AT, b"al\x1b[2Jice"),
     {"record": "refusal", "reason": "invite-used", "at": USED_AT, "name": None, "canonical": False},
     "a name with a control character is left out; the refusal holds"),
    ("refusal-invite-used-latin1-name", refusal("invite-used", USED_AT, "zoë".encode("latin-1")),
     {"record": "refusal", "reason": "invite-used", "at": USED_AT, "name": None, "canonical": False},
     "a name that is not UTF-8 is left out; the refusal holds"),
    ("invalid-refusal-name-longer-than-said", refusal("invite-used", USED_AT, b"alice") + b"x",
     {"record": None}, "more name bytes than its length says: no refusal"),
    ("invalid-refusal-name-65-bytes", refusal("invite-used", USED_AT, b"a" * 65),
     {"record": None}, "a name over 64 bytes: no refusal"),
    ("invalid-refusal-revoked-with-a-time", refusal("revoked", USED_AT, b""),
     {"record": None}, "only reasons 7, 8 and 9 go on past 5 bytes: no refusal"),
    ("invalid-refusal-truncated-time", refusal("invite-expired")[:5] + b"\x00\x00\x01",
     {"record": None}, "a spent invite's refusal cut inside its time: no refusal"),
    ("invalid-offer-35-bytes", b"WLO1" + NONCE[:31], {"record": None}, "an offer a byte short"),
    ("invalid-proof-unknown-method", b"WLP1" + bytes([3]) + MAC, {"record": None}, "a proof of method 3"),
]

README = """# Golden admission records

The binary records of the admission handshake ([SECURITY.md](../../SECURITY.md#the-handshake)): an
offer, a proof and a refusal, sent before a peer is admitted, so never JSON. Each `.bin` file is one
frame: the 4-byte big-endian length, then the record. [`records.json`](records.json) says what each
holds: `record` (`offer`, `proof`, `refusal`, or null when it is none of them and is refused), its
fields, and `canonical` when peerd writes exactly these bytes for them.

They are made by [`make_records.py`](make_records.py), which also writes this file; never edit a
`.bin`, records.json or this README by hand. To change one, change the script and run it:

```sh
python3 proto/golden/admission/make_records.py
python3 proto/validate.py --golden        # each record reads as records.json says, by SECURITY.md's rules
swift test --filter GoldenAdmissionRecordTests   # peerd reads each so, and writes the canonical ones byte for byte
```

| file | bytes | what it shows |
|---|---|---|
{rows}
"""


def main() -> None:
    for old in HERE.glob("*.bin"):
        old.unlink()
    held = {}
    rows = []
    for name, body, holds, shows in RECORDS:
        data = frame(body)
        (HERE / f"{name}.bin").write_bytes(data)
        held[f"{name}.bin"] = holds
        rows.append(f"| `{name}.bin` | {len(data)} | {shows} |")
    (HERE / "records.json").write_text(json.dumps(held, indent=2, ensure_ascii=False, sort_keys=True) + "\n")
    (HERE / "README.md").write_text(README.format(rows="\n".join(rows)))


if __name__ == "__main__":
    main()
