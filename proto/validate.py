#!/usr/bin/env python3
"""Validates peerd message bodies against the JSON Schemas in proto/schemas/.

As a command:

    validate.py peer|control-request|control-response FILE...
        Each FILE is either a stream of frames (any number of length-prefixed frames back to back,
        as captured from one direction of one connection) or, if its name ends in `.jsonl`, one JSON
        body per line (blank lines skipped). Prints one line per problem; exits 1 if there was any.
    validate.py --canonical STREAM FILE...
        Also requires every body to be byte for byte what WireCoding.encode writes (see README.md).
    validate.py --golden
        Checks proto/golden/: every valid golden frame is valid and canonical, and every
        invalid-*.bin frame listed in invalid.json is refused; and proto/golden/admission/: each
        binary admission record reads as records.json says (check_admission.py).
    validate.py --docs
        Checks the documents of proto/ against the schemas and the code (check_docs.py): every
        example message is valid, and the versions, the table of messages and the rest agree.
        `--golden --docs` runs both.

As a module (put proto/ on sys.path):

    from validate import validate_body, validate_frames
    problems = validate_body("peer", b'{"type":"ping"}')   # [] when valid

Needs the `jsonschema` package (Debian: python3-jsonschema; PyPI: jsonschema >= 4.18).
"""

from __future__ import annotations

import json
import pathlib
import struct
import sys
from functools import lru_cache
from typing import Iterable, Iterator

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

PROTO = pathlib.Path(__file__).resolve().parent
SCHEMAS = PROTO / "schemas"
GOLDEN = PROTO / "golden"

STREAMS = ("peer", "control-request", "control-response")
MAX_FRAME_LENGTH = 1 << 20
MAX_NESTING_DEPTH = 16
MAX_STRING_BYTES = 4096
MAX_ARRAY_ELEMENTS = 16384
MEMBER_VIAS = ("invite", "group-secret", "introduced", "pinned")  # PEER.md, "Membership"


class FrameError(Exception):
    """The bytes are not a valid sequence of frames. `code` is the error code a receiver sends."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


@lru_cache(maxsize=None)
def _registry() -> Registry:
    resources = []
    for path in sorted(SCHEMAS.rglob("*.schema.json")):
        contents = json.loads(path.read_text(encoding="utf-8"))
        resources.append((contents["$id"], Resource.from_contents(contents)))
    return Registry().with_resources(resources)


@lru_cache(maxsize=None)
def _index() -> dict:
    return json.loads((SCHEMAS / "index.json").read_text(encoding="utf-8"))


@lru_cache(maxsize=None)
def validator(stream: str, message_type: str) -> Draft202012Validator | None:
    """The validator for one message type of one stream, or None if the stream has no such type."""
    if stream not in STREAMS:
        raise ValueError(f"stream must be one of {', '.join(STREAMS)}, not {stream!r}")
    relative = _index()[stream].get(message_type)
    if relative is None:
        return None
    schema = json.loads((SCHEMAS / relative).read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema, registry=_registry())


def nesting_depth(text: str) -> int:
    """The deepest bracket nesting outside strings, counted as WireCoding does (top-level object = 1)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "{[":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "}]":
            depth -= 1
    return deepest


def limit_error(raw: bytes) -> str | None:
    """What breaks the string or array limit (README.md "Limits"), counted as WireCoding does: a
    string's bytes between its quotes as written, an array's elements by the commas directly in it."""
    in_string = escaped = False
    start = 0
    commas: list[int | None] = []  # per open container: commas so far if an array, None if an object
    for index, byte in enumerate(raw):
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:
                escaped = True
            elif byte == 0x22:
                in_string = False
                if index - start > MAX_STRING_BYTES:
                    return f"a JSON string is longer than {MAX_STRING_BYTES} bytes"
        elif byte == 0x22:
            in_string, start = True, index + 1
        elif byte in b"{[":
            commas.append(0 if byte == 0x5B else None)
        elif byte in b"}]":
            if commas:
                commas.pop()
        elif byte == 0x2C and commas and commas[-1] is not None:
            commas[-1] += 1
            if commas[-1] >= MAX_ARRAY_ELEMENTS:
                return f"a JSON array holds more than {MAX_ARRAY_ELEMENTS} elements"
    return None


def canonical(value) -> bytes:
    """The bytes WireCoding.encode writes for a JSON value (sorted keys, no whitespace, raw UTF-8,
    unescaped slashes, integral floats without `.0`)."""

    def normal(v):
        if isinstance(v, float) and v.is_integer():
            return int(v)
        if isinstance(v, dict):
            return {k: normal(x) for k, x in v.items()}
        if isinstance(v, list):
            return [normal(x) for x in v]
        return v

    return json.dumps(normal(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def parse_body(body: bytes | str) -> dict:
    """Parses one body with the checks a receiver makes before the schema. Raises FrameError."""
    if isinstance(body, bytes):
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError as error:
            raise FrameError("malformed-frame", f"body is not valid UTF-8 ({error.reason} at byte {error.start})")
    else:
        text = body
    if nesting_depth(text) > MAX_NESTING_DEPTH:
        raise FrameError("malformed-frame", f"JSON nests deeper than {MAX_NESTING_DEPTH} levels")
    limit = limit_error(body if isinstance(body, bytes) else text.encode("utf-8"))
    if limit:
        raise FrameError("malformed-frame", limit)
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        raise FrameError("malformed-frame", f"body is not JSON: {error}")
    if not isinstance(value, dict):
        raise FrameError("malformed-frame", "body is not a JSON object")
    return value


def operation_rule_problems(message: dict) -> list[tuple[str, str]]:
    """What the schemas can't say about the operations of an `ops` message, as (where, problem): an
    admission or a removal whose `peer` is its own origin (PEER.md, "Membership"). A step of a later
    version (an `action` or `via` this one doesn't know) is kept as it came, unchecked."""
    problems = []
    for index, op in enumerate(message.get("ops") or []):
        step = op.get("member") if isinstance(op, dict) else None
        if (isinstance(step, dict) and op.get("op") == "member" and step.get("action") in ("admit", "remove")
                and step.get("via", "invite") in MEMBER_VIAS and step.get("peer") == op.get("origin")):
            problems.append((f"ops/{index}/member/peer", f"a member does not {step['action']} itself"))
    return problems


def validate_body(stream: str, body: bytes | str | dict, *, require_canonical: bool = False) -> list[str]:
    """Problems with one message body of `stream` ("peer", "control-request" or "control-response").

    `body` is the raw bytes or text of a frame body, or an already parsed object. Returns [] when the
    body is a valid message: a JSON object whose `type` names a message of that stream and that its
    schema accepts, and whose operations keep the rules no schema can say (`operation_rule_problems`).
    """
    if isinstance(body, dict):
        value = body
    else:
        try:
            value = parse_body(body)
        except FrameError as error:
            return [f"{error.code}: {error}"]
    message_type = value.get("type")
    if not isinstance(message_type, str):
        return ["malformed-frame: no string field 'type'"]
    checker = validator(stream, message_type)
    if checker is None:
        return [f"unknown-type: {stream} has no message type {message_type!r}"]
    problems = []
    for error in sorted(checker.iter_errors(value), key=lambda e: list(e.absolute_path)):
        where = "/".join(str(p) for p in error.absolute_path) or "(top level)"
        message = error.message if len(error.message) <= 300 else error.message[:297] + "..."
        problems.append(f"{message_type} at {where}: {message}")
    if stream == "peer" and message_type == "ops":
        problems += [f"ops at {where}: {problem}" for where, problem in operation_rule_problems(value)]
    inner = value.get("message")
    if stream == "peer" and message_type == "list" and isinstance(inner, dict) and inner.get("type") == "ops":
        problems += [f"list at message/{where}: {problem}" for where, problem in operation_rule_problems(inner)]
    if require_canonical and isinstance(body, (bytes, str)):
        raw = body.encode("utf-8") if isinstance(body, str) else body
        if raw != canonical(value):
            problems.append(f"{message_type}: not canonical; expected {canonical(value).decode('utf-8')}")
    return problems


def split_frames(data: bytes) -> Iterator[bytes]:
    """The bodies of a stream of frames. Raises FrameError as a receiver would refuse the stream."""
    offset = 0
    while offset < len(data):
        if len(data) - offset < 4:
            raise FrameError("malformed-frame", f"stream ends inside a length header at byte {offset}")
        (length,) = struct.unpack_from(">I", data, offset)
        if length == 0:
            raise FrameError("malformed-frame", f"frame length 0 at byte {offset}")
        if length > MAX_FRAME_LENGTH:
            raise FrameError("frame-too-large", f"frame length {length} at byte {offset} is over {MAX_FRAME_LENGTH}")
        end = offset + 4 + length
        if end > len(data):
            raise FrameError("malformed-frame", f"stream ends inside a frame ({len(data) - offset} of {4 + length} bytes)")
        yield data[offset + 4 : end]
        offset = end


def validate_frames(stream: str, data: bytes, *, require_canonical: bool = False) -> list[str]:
    """Problems with a stream of frames, each prefixed with the frame's index."""
    problems = []
    index = -1
    try:
        for index, body in enumerate(split_frames(data)):
            problems += [f"frame {index}: {p}" for p in validate_body(stream, body, require_canonical=require_canonical)]
    except FrameError as error:
        problems.append(f"frame {index + 1}: {error.code}: {error}")
    return problems


def validate_file(stream: str, path: pathlib.Path, *, require_canonical: bool = False) -> list[str]:
    """Problems with a frame-stream file or, for `.jsonl`, a file of one body per line."""
    data = path.read_bytes()
    if path.suffix == ".jsonl":
        problems = []
        for number, line in enumerate(data.split(b"\n"), start=1):
            if line.strip():
                problems += [
                    f"line {number}: {p}" for p in validate_body(stream, line.rstrip(b"\r"), require_canonical=require_canonical)
                ]
        return problems
    return validate_frames(stream, data, require_canonical=require_canonical)


def stream_of(name: str) -> str | None:
    """The stream a golden file belongs to, from its name."""
    name = name.removeprefix("invalid-")
    for stream in ("control-request", "control-response", "peer"):
        if name.startswith(stream + "-"):
            return stream
    return None


def check_golden() -> list[str]:
    """Problems with proto/golden/ (valid frames must pass, invalid ones must be refused)."""
    problems = []
    expected_invalid = json.loads((GOLDEN / "invalid.json").read_text(encoding="utf-8"))
    files = sorted(GOLDEN.glob("*.bin"))
    for path in files:
        stream = stream_of(path.name)
        if stream is None:
            problems.append(f"{path.name}: name names no stream")
            continue
        data = path.read_bytes()
        if path.name.startswith("invalid-"):
            if path.name not in expected_invalid:
                problems.append(f"{path.name}: not listed in invalid.json")
            elif not validate_frames(stream, data):
                problems.append(f"{path.name}: accepted, but invalid.json expects {expected_invalid[path.name]}")
            continue
        frames = list(split_frames(data))
        if len(frames) != 1:
            problems.append(f"{path.name}: holds {len(frames)} frames, not 1")
        problems += [f"{path.name}: {p}" for p in validate_frames(stream, data, require_canonical=True)]
        message_type = json.loads(frames[0])["type"] if frames else None
        suffix = path.name[len(stream) + 1 :]
        if not (suffix == f"{message_type}.bin" or suffix.startswith(f"{message_type}-")):
            problems.append(f"{path.name}: holds a {message_type!r}, which its name does not say")
    for name in expected_invalid:
        if not (GOLDEN / name).exists():
            problems.append(f"invalid.json lists {name}, which does not exist")
    for stream, types in _index().items():
        for message_type in types:
            if not list(GOLDEN.glob(f"{stream}-{message_type}.bin")) + list(GOLDEN.glob(f"{stream}-{message_type}-*.bin")):
                problems.append(f"no golden frame {stream}-{message_type}[-variant].bin")
    print(f"checked {len(files)} golden frames", file=sys.stderr)
    return problems


def main(argv: list[str]) -> int:
    require_canonical = "--canonical" in argv
    args = [a for a in argv if a != "--canonical"]
    if args and set(args) <= {"--golden", "--docs"}:
        problems = check_golden() if "--golden" in args else []
        if "--golden" in args:
            import check_admission

            found, checked = check_admission.check()
            print(f"checked {checked} admission records", file=sys.stderr)
            problems += found
        if "--docs" in args:
            import check_docs

            found, validated = check_docs.check()
            print(f"checked {validated} examples in proto/*.md", file=sys.stderr)
            problems += found
    elif len(args) >= 2 and args[0] in STREAMS:
        problems = []
        for name in args[1:]:
            problems += [f"{name}: {p}" for p in validate_file(args[0], pathlib.Path(name), require_canonical=require_canonical)]
    else:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    for problem in problems:
        print(problem)
    if not problems:
        print("ok", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
