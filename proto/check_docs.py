#!/usr/bin/env python3
"""Checks that the documents in proto/ say what the schemas and the code say.

    python3 proto/check_docs.py          (or: python3 proto/validate.py --docs)

Prints one line per problem and exits 1 if there was any. What it checks:

- **Examples.** Every ```json block of proto/*.md is split into its top-level values. A value that
  names a `"type"` is a message: it must be JSON as written (no `…` in place of fields) and valid
  against its schema. Its stream is the arrow before it (`→` a control request, `←` a control
  response), else the document's (PEER.md: peer), else any stream that has that type. A block right
  after an `<!-- schema: PATH -->` comment is checked against that schema (`PATH[]`: each element
  of an array), whether or not it has a `type`.
- **Versions.** proto/README.md's "Versioning" gives the peer and control protocol versions; they
  must be `ProtocolVersion`'s in Sources/PeerdWire/ProtocolVersion.swift (when the sources are
  there), and every example's hello `version`, status `protocolVersion` and request `version`
  must be them.
- **The table of messages.** proto/README.md's first table names, per stream, exactly the message
  types schemas/index.json has.
- **Golden replicas.** golden/README.md's replica ids are the fingerprints of the keys it says they
  are made from (P-256 computed here, so no package is needed beyond jsonschema).
- **The page's HTTP statuses.** WEB.md's table of statuses names every error code.
- **peerctl --json.** PEERCTL-JSON.md has a section for every peerctl subcommand (when the sources
  are there).
"""

from __future__ import annotations

import hashlib
import json
import pathlib
import re
import sys

PROTO = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(PROTO))

from jsonschema import Draft202012Validator  # noqa: E402

import validate  # noqa: E402

ROOT = PROTO.parent
ARROWS = {"→": "control-request", "←": "control-response"}
DOCUMENT_STREAMS = {"PEER.md": "peer"}


# --- examples -------------------------------------------------------------------------------------


class Example:
    def __init__(self, document: str, line: int, text: str, stream: str | None, schema: str | None):
        self.document, self.line, self.text, self.stream, self.schema = document, line, text, stream, schema

    @property
    def where(self) -> str:
        return f"proto/{self.document}:{self.line}"


def top_level_values(block: str) -> list[tuple[int, str, str | None]]:
    """The top-level `{…}` and `[…]` values of a block, each with its line offset in the block and
    the arrow stream written before it (None without one). Strings are skipped as JSON writes them."""
    values = []
    depth = 0
    start = 0
    stream = None
    in_string = escaped = False
    for index, ch in enumerate(block):
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in ARROWS and depth == 0:
            stream = ARROWS[ch]
        elif ch in "{[":
            if depth == 0:
                start = index
            depth += 1
        elif ch in "}]":
            depth -= 1
            if depth == 0:
                values.append((block.count("\n", 0, start), block[start : index + 1], stream))
                stream = None
    return values


def examples(document: pathlib.Path) -> list[Example]:
    text = document.read_text(encoding="utf-8")
    found = []
    for block in re.finditer(r"^```json\n(.*?)^```", text, re.S | re.M):
        first_line = text.count("\n", 0, block.start()) + 2
        before = text[: block.start()].rstrip().rsplit("\n", 1)[-1]
        marker = re.fullmatch(r"<!-- schema: (\S+) -->", before.strip())
        for offset, value, stream in top_level_values(block.group(1)):
            found.append(Example(document.name, first_line + offset, value, stream, marker and marker.group(1)))
    return found


def schema_validator(path: str) -> tuple[Draft202012Validator, bool]:
    each = path.endswith("[]")
    schema = json.loads((validate.SCHEMAS / path.removesuffix("[]")).read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema, registry=validate._registry()), each


def problems_with(example: Example) -> list[str]:
    if example.schema is None and '"type"' not in example.text:
        return []  # an operation, a record or an excerpt: not a message
    try:
        value = json.loads(example.text)
    except json.JSONDecodeError as error:
        return [f"{example.where}: not JSON as written ({error.msg}); write the example out in full"]
    if example.schema:
        checker, each = schema_validator(example.schema)
        values = value if each else [value]
        if each and not isinstance(value, list):
            return [f"{example.where}: {example.schema} says an array, and this is not one"]
        return [
            f"{example.where}: {'/'.join(map(str, ([n] if each else []) + list(e.absolute_path))) or '(top level)'}: "
            f"{e.message}"
            for n, item in enumerate(values)
            for e in checker.iter_errors(item)
        ]
    message_type = value.get("type") if isinstance(value, dict) else None
    index = validate._index()
    stream = example.stream or DOCUMENT_STREAMS.get(example.document)
    streams = [stream] if stream else [s for s in validate.STREAMS if message_type in index[s]]
    if not streams:
        return [f"{example.where}: no stream has a message of type {message_type!r}"]
    attempts = [validate.validate_body(s, value) for s in streams]
    if any(not problems for problems in attempts):
        return []
    return [f"{example.where}: {p}" for p in attempts[0]]


# --- versions -------------------------------------------------------------------------------------


def documented_versions() -> dict[str, int]:
    text = (PROTO / "README.md").read_text(encoding="utf-8")
    match = re.search(r"the peer protocol is at\s+\*\*(\d+)\*\*,\s+the control protocol at\s+\*\*(\d+)\*\*", text)
    if not match:
        raise SystemExit("proto/README.md no longer says 'the peer protocol is at **N**, the control protocol at **M**'")
    return {"peer": int(match.group(1)), "control": int(match.group(2))}


def version_problems(versions: dict[str, int], found: list[Example]) -> list[str]:
    problems = []
    source = ROOT / "Sources" / "PeerdWire" / "ProtocolVersion.swift"
    if source.exists():
        code = source.read_text(encoding="utf-8")
        for name, version in versions.items():
            match = re.search(rf"static let {name} = (\d+)", code)
            if match and int(match.group(1)) != version:
                problems.append(f"proto/README.md: the {name} protocol is {version}, but ProtocolVersion.{name} is {match.group(1)}")
    for example in found:
        try:
            value = json.loads(example.text)
        except json.JSONDecodeError:
            continue
        if not isinstance(value, dict):
            continue
        expected = {
            ("hello", "version"): versions["peer"],
            ("status", "protocolVersion"): versions["peer"],
        }
        if example.stream == "control-request":
            expected[(value.get("type"), "version")] = versions["control"]
        for (message_type, field), version in expected.items():
            if value.get("type") == message_type and field in value and value[field] != version:
                problems.append(f"{example.where}: {message_type} {field} is {value[field]}, but the protocol's is {version}")
    return problems


# --- the first table of proto/README.md -----------------------------------------------------------


def table_rows(text: str, after: int = 0) -> list[list[str]]:
    """The rows (cells) of the first Markdown table at or after `after`, header and rule left out."""
    lines = text[after:].split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("|"))
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def message_table_problems() -> list[str]:
    rows = table_rows((PROTO / "README.md").read_text(encoding="utf-8"))
    named: dict[str, set[str]] = {stream: set() for stream in validate.STREAMS}
    for cells in rows:
        who, messages = cells[1], cells[-1]
        stream = "peer" if "↔" in who else "control-request" if who.endswith("→ daemon") else "control-response"
        named[stream] |= set(re.findall(r"`([A-Za-z]+)`", messages))
    problems = []
    for stream, types in validate._index().items():
        for missing in sorted(set(types) - named[stream]):
            problems.append(f"proto/README.md: the first table does not name the {stream} message {missing!r}")
        for extra in sorted(named[stream] - set(types)):
            problems.append(f"proto/README.md: the first table names a {stream} message {extra!r} that has no schema")
    return problems


# --- golden replicas: P-256 -----------------------------------------------------------------------

P = 2**256 - 2**224 + 2**192 + 2**96 - 1
N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
G = (
    0x6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296,
    0x4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5,
)
SPKI_PREFIX = bytes.fromhex("3059301306072a8648ce3d020106082a8648ce3d030107034200")


def point_add(a, b):
    if a is None:
        return b
    if b is None:
        return a
    if a[0] == b[0] and (a[1] + b[1]) % P == 0:
        return None
    if a == b:
        slope = (3 * a[0] * a[0] - 3) * pow(2 * a[1], -1, P) % P
    else:
        slope = (b[1] - a[1]) * pow(b[0] - a[0], -1, P) % P
    x = (slope * slope - a[0] - b[0]) % P
    return x, (slope * (a[0] - x) - a[1]) % P


def peer_id_of_seed(seed: str) -> str:
    """The peer id of the P-256 key whose scalar is SHA-256 of `seed` (as make_golden.py makes them)."""
    scalar = int.from_bytes(hashlib.sha256(seed.encode("utf-8")).digest(), "big")
    assert 0 < scalar < N
    point, addend = None, G
    while scalar:
        if scalar & 1:
            point = point_add(point, addend)
        addend = point_add(addend, addend)
        scalar >>= 1
    der = SPKI_PREFIX + b"\x04" + point[0].to_bytes(32, "big") + point[1].to_bytes(32, "big")
    return hashlib.sha256(der).digest()[:16].hex()


def golden_replica_problems() -> list[str]:
    """Each replica the golden README names: its key's seed (a per-replica one where the README
    gives it, else the general rule with the replica's name) must give the id it lists."""
    text = (PROTO / "golden" / "README.md").read_text(encoding="utf-8")
    replicas = re.findall(r"(\w+) `([0-9a-f]{32})`", text)
    if not replicas:
        return ["proto/golden/README.md: names no replica with its id"]
    problems = []
    for name, listed in replicas:
        own = re.search(rf"{name}'s (?:key )?(?:scalar )?is SHA-256 of `([^`]+)`", text)
        rule = re.search(r"SHA-256 of `([^`]*)<name>([^`]*)`", text)
        if own:
            seed = own.group(1)
        elif rule:
            seed = rule.group(1) + name + rule.group(2)
        else:
            problems.append(f"proto/golden/README.md: does not say which key {name}'s id comes from")
            continue
        if peer_id_of_seed(seed) != listed:
            problems.append(
                f"proto/golden/README.md: {name} is {listed}, but the key made from `{seed}` is {peer_id_of_seed(seed)}"
            )
    return problems


# --- WEB.md's statuses, PEERCTL-JSON.md's commands ------------------------------------------------


def web_status_problems() -> list[str]:
    text = (PROTO / "WEB.md").read_text(encoding="utf-8")
    heading = re.search(r"^#+ .*HTTP status.*$", text, re.M)
    if not heading:
        return ["proto/WEB.md: no section on HTTP statuses (a heading with 'HTTP status')"]
    rows = table_rows(text, heading.end())
    listed = {code for cells in rows for code in re.findall(r"`([a-z-]+)`", cells[0])}
    codes = json.loads((validate.SCHEMAS / "defs" / "error-code.schema.json").read_text(encoding="utf-8"))["enum"]
    return [f"proto/WEB.md: the table of HTTP statuses does not say what `{code}` gets" for code in codes if code not in listed]


def peerctl_json_problems() -> list[str]:
    sources = ROOT / "Sources" / "peerctl"
    if not sources.is_dir():
        return []
    names = set()
    for path in sources.rglob("*.swift"):
        names |= set(re.findall(r'commandName: "([a-z-]+)"', path.read_text(encoding="utf-8")))
    names.discard("peerctl")
    document = PROTO / "PEERCTL-JSON.md"
    if not document.exists():
        return ["proto/PEERCTL-JSON.md is missing: peerctl --json output shapes are undocumented"]
    # A subcommand's section names it after its command: `peerctl device link`.
    headings = {word for words in re.findall(r"^#+ `peerctl ([a-z -]+)`", document.read_text(encoding="utf-8"), re.M)
                for word in words.split()}
    return [f"proto/PEERCTL-JSON.md: no section for `peerctl {name}`" for name in sorted(names - headings)]


# --- all of it ------------------------------------------------------------------------------------


def check() -> tuple[list[str], int]:
    """The problems found, and how many examples were validated."""
    found = [example for document in sorted(PROTO.glob("*.md")) for example in examples(document)]
    problems = []
    validated = 0
    for example in found:
        if example.schema or '"type"' in example.text:
            validated += 1
        problems += problems_with(example)
    problems += version_problems(documented_versions(), found)
    problems += message_table_problems()
    problems += golden_replica_problems()
    problems += web_status_problems()
    problems += peerctl_json_problems()
    return problems, validated


def main() -> int:
    problems, validated = check()
    for problem in problems:
        print(problem)
    print(f"checked {validated} examples in proto/*.md, the versions, the table of messages, the golden replicas, "
          f"WEB.md's statuses and PEERCTL-JSON.md's commands", file=sys.stderr)
    if not problems:
        print("ok", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
