#!/usr/bin/env python3
"""Checks the golden admission records in proto/golden/admission/ (part of validate.py --golden).

Each record is read here by SECURITY.md's rules ("The handshake"), written again in Python: it must
read as records.json says, and records.json and the folder's README must list every file.
"""

from __future__ import annotations

import json
import pathlib
import struct

FOLDER = pathlib.Path(__file__).resolve().parent / "golden" / "admission"
REASONS = {1: "not-a-member", 2: "revoked", 3: "key-mismatch", 4: "self-connection", 5: "busy",
           6: "unsupported-key", 7: "invite-used", 8: "invite-expired", 9: "removed"}
METHODS = {0: "none", 1: "group", 2: "invite"}
MAX_NAME = 64


def name_of(raw: bytes) -> str | None:
    """A spent invite's or a removal's name: left out when not UTF-8, empty, or holding a control character."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if not text or any(ord(c) < 0x20 or 0x7F <= ord(c) < 0xA0 for c in text):
        return None
    return text


def read(body: bytes) -> dict:
    """What a record holds by SECURITY.md, as records.json writes it (`record` null: none)."""
    if len(body) == 36 and body.startswith(b"WLO1"):
        return {"record": "offer", "nonce": body[4:].hex()}
    if len(body) == 37 and body.startswith(b"WLP1") and body[4] in METHODS:
        return {"record": "proof", "method": METHODS[body[4]], "mac": body[5:].hex()}
    if body.startswith(b"WLR1") and len(body) == 5:
        return {"record": "refusal", "reason": REASONS.get(body[4], "not-a-member")}
    if (body.startswith(b"WLR1") and 14 <= len(body) <= 14 + MAX_NAME and body[4] in (7, 8, 9)
            and body[13] == len(body) - 14):
        (at,) = struct.unpack(">Q", body[5:13])
        return {"record": "refusal", "reason": REASONS[body[4]], "at": at, "name": name_of(body[14:])}
    return {"record": None}


def check() -> tuple[list[str], int]:
    """Problems with the admission records, and how many were checked."""
    problems = []
    held = json.loads((FOLDER / "records.json").read_text(encoding="utf-8"))
    readme = (FOLDER / "README.md").read_text(encoding="utf-8")
    files = sorted(path.name for path in FOLDER.glob("*.bin"))
    if set(files) != set(held):
        problems.append(f"admission/records.json lists {sorted(held)}, the folder holds {files}")
    for name in files:
        data = (FOLDER / name).read_bytes()
        if f"| `{name}` | {len(data)} |" not in readme:
            problems.append(f"admission/{name}: README.md does not list it with its {len(data)} bytes")
        if len(data) < 4 or struct.unpack(">I", data[:4])[0] != len(data) - 4:
            problems.append(f"admission/{name}: not one frame")
            continue
        expected = {k: v for k, v in held.get(name, {}).items() if k != "canonical"}
        found = read(data[4:])
        if found != expected:
            problems.append(f"admission/{name}: reads as {found}, records.json says {expected}")
        if name.startswith("invalid-") != (found["record"] is None):
            problems.append(f"admission/{name}: its name and what it reads as disagree")
    return problems, len(files)


if __name__ == "__main__":
    found, count = check()
    print("\n".join(found) or f"checked {count} admission records: ok")
    raise SystemExit(1 if found else 0)
