#!/usr/bin/env python3
"""The page's API against its OpenAPI description (proto/openapi.yaml): schemathesis (PyPI) sends a
real peerd what the description allows and what it does not, and checks that every answer is one
the description documents (status, content type, headers, body schema), and that the daemon stays up.

    PEERD_BIN_DIR=/path/to/bins python3 integration/web/test_openapi.py [--keep] [--examples N]

One peerd on loopback, alone, with its page on a port of its own and no TMDB token (the catalog's
requests are then answered with an `error`, which must conform too); its token is the one
`peerctl open --no-browser` prints. schemathesis runs as a command (`python3 -m schemathesis.cli
run`) with the token, this page's `Origin` (WEB.md: a POST without it is 403) and a bounded number
of examples per operation, generated deterministically (`--generation-deterministic`: the same
cases every run). While it runs, a thread adds and removes one movie through the API, so each
`GET /api/events` that schemathesis makes hears `change` events, which it validates against the
description too.

schemathesis's checks, and the ones left out:
- not_a_server_error, status_code_conformance, content_type_conformance,
  response_headers_conformance (the security headers of WEB.md on every answer),
  response_schema_conformance (each body against proto/schemas, by $ref), positive_data_acceptance,
  ignored_auth (no token or a wrong one is 401), missing_required_header, allow_header_conformance.
- Not negative_data_rejection: WEB.md answers a request the daemon takes with 200 even when it
  refuses it (`bad-request` for a year of 1869), where that check wants a 4xx for anything the
  schemas call invalid.
- unsupported_method (a method no operation has must be 405 *with* an `Allow` header, RFC 9110)
  only once peerd's 405s carry `Allow`: the check "a wrong method is 405" here looks first, and
  while they don't, says so in a SKIP line.

Checks of its own, with schemathesis's conformance checks on what it can't generate: requests that
stay with peerctl (403 `forbidden`), a wrong Host (421), no Origin (403), bodies over 64 KiB (413),
bodies that are no control request (400), the event stream with changes in it, a wrong method
(405) and an unknown path (404); and that the description's request and response types are exactly
the page's (proto/schemas/index.json less what stays with peerctl).

Prints one PASS/FAIL line per check and ends with `openapi: N passed, M failed`; exit status 0 when
all passed, 1 otherwise (the work dir, with peerd's log and schemathesis's output and reports, is
kept then). schemathesis missing is a failure that says how to install it (`make test-deps` does).
"""
import argparse
import json
import pathlib
import re
import subprocess
import sys
import threading
import time
import urllib.request

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))
import harness  # noqa: E402
from harness import CheckFailed, HarnessError  # noqa: E402
from suite import Suite, exit_on_signals  # noqa: E402
import web_support as ws  # noqa: E402

PROTO = harness.ROOT / "proto"
DESCRIPTION = PROTO / "openapi.yaml"
GUEST_DESCRIPTION = PROTO / "openapi-guests.yaml"
GUEST_DECK = [(603, "The Matrix", 1999), (550, "Fight Club", 1999), (13, "Forrest Gump", 1994)]
SCHEMAS = PROTO / "schemas"
PIP_SPEC = "schemathesis>=4.32,<5"
EXAMPLES = 100  # per operation: about a minute in all, most of it the catalog's requests (2 a second)
REQUEST_TIMEOUT = 3  # s: schemathesis waits this long for an answer, and reads an event stream this long
RUN_TIMEOUT = 300  # s: a schemathesis run that takes longer fails
MAX_BODY = 64 * 1024
# WEB.md: the requests that stay with peerctl (WebBackend.swift, allowedFromPage), and their answers.
PEERCTL_ONLY = {"follow", "connect", "invite", "join", "forget", "trust", "page", "diagnose", "import",
                "addProfile", "deviceLink", "deviceList", "deviceUnlink", "listCreate", "listMember", "relay"}
PEERCTL_ONLY_RESPONSES = {"following", "change", "connecting", "invite", "joined", "forgotten", "trusted", "page",
                          "diagnosis", "imported", "profileAdded", "deviceLink", "devices", "deviceUnlinked",
                          "listCreated", "listChanged", "relays"}
CHECKS = ["not_a_server_error", "status_code_conformance", "content_type_conformance",
          "response_headers_conformance", "response_schema_conformance", "positive_data_acceptance",
          "ignored_auth", "missing_required_header", "allow_header_conformance"]
# The guest door (WEB.md, "Guests") refuses data its schemas allow (a movie outside the deck, a name
# of control characters) with 400, so positive_data_acceptance stays out; it limits each address to
# 20 requests a second, so schemathesis asks at most 15 (a 429 is described all the same).
GUEST_CHECKS = [c for c in CHECKS if c != "positive_data_acceptance"]
METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE"]
CHURN_MOVIE = 990001  # the movie the background thread adds and removes


def load_yaml(path):
    import yaml  # schemathesis brings PyYAML
    return yaml.safe_load(path.read_text())


# MARK: the world


class World:
    """One peerd with its page, the description as schemathesis reads it, and what checks found."""

    def __init__(self, work, examples):
        self.work = work
        self.examples = examples
        self.daemon = None
        self.doc = load_yaml(DESCRIPTION)
        self.schema = None
        self.allow_missing = []  # 405s without an Allow header: while any, unsupported_method stays out

    def up(self):
        if self.daemon:
            return
        secret = harness.write_group_secret(self.work / "group.secret")
        self.daemon = ws.WebPeerd(self.work, "alice", harness.free_port(), harness.free_port(), secret)
        self.daemon.start()
        url = self.daemon.wait_page()
        match = re.fullmatch(r"(http://127\.0\.0\.1:(\d+))/#token=([0-9a-f]{64})", url)
        if not match:
            raise HarnessError(f"peerctl open --no-browser printed {url!r}")
        self.base, self.port, self.token = match.group(1), int(match.group(2)), match.group(3)
        self.origin = self.base
        self.api = ws.Api(self.port, self.token)
        import schemathesis
        self.schema = schemathesis.openapi.from_path(str(DESCRIPTION))
        print(f"openapi: peerd {self.daemon.id[:8]}, page {self.base}; work dir {self.work}", flush=True)

    def died(self):
        if self.daemon and not self.daemon.alive():
            return f"peerd exited ({self.daemon.proc.returncode})\n{self.daemon.tail()}"
        return None

    def stop(self):
        if self.daemon:
            self.daemon.stop()

    # MARK: asking, and judging with schemathesis's checks

    def ask(self, method, path, body=None, headers=None, timeout=10):
        """One request of the described operation `method path` through schemathesis (its Case), with
        the token and this page's Origin unless `headers` names them (None leaves one out); returns
        (response, what of the description it breaks)."""
        case = self.case(method, path, body)
        sent = {"Authorization": f"Bearer {self.token}", "Origin": self.origin, **(headers or {})}
        sent = {k: v for k, v in sent.items() if v is not None}
        response = case.call(base_url=self.base, headers=sent, timeout=timeout)
        return response, conformance_problems(case, response)

    def case(self, method, path, body):
        operation = self.schema[path][method]
        if body is None:
            return operation.Case()
        data = body if isinstance(body, bytes) else json.dumps(body, separators=(",", ":")).encode()
        return operation.Case(body=data, media_type="application/json")

    def security_headers(self):
        """The headers every answer carries, as the description says: name → value."""
        return {name.lower(): spec["schema"]["const"] for name, spec in self.doc["components"]["headers"].items()}


def conformance_problems(case, response):
    """What schemathesis's conformance checks find wrong with `response` to `case`, one line each."""
    from schemathesis import checks
    try:
        case.validate_response(response, checks=[
            checks.not_a_server_error, checks.status_code_conformance, checks.content_type_conformance,
            checks.response_headers_conformance, checks.response_schema_conformance])
    except (Exception, BaseExceptionGroup) as error:  # a FailureGroup, or one failure
        failures = getattr(error, "exceptions", [error])
        return [f"{case.method} {case.path} → {response.status_code}: {first_lines(f)}" for f in failures]
    return []


def first_lines(error, lines=2):
    text = "\n".join(line for line in str(error).splitlines() if line.strip())
    return " / ".join(text.splitlines()[:lines])


class Churn:
    """Adds and removes one movie through the API every `interval` s until stopped: changes for
    every event stream that is open meanwhile."""

    def __init__(self, world, interval=0.1):
        self.api = ws.Api(world.port, world.token)
        self.interval = interval
        self.done = threading.Event()
        self.count = 0
        self.errors = []
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self):
        add = {"movie": {"id": CHURN_MOVIE, "title": "Churn"}, "type": "add", "version": 1}
        remove = {"movie": CHURN_MOVIE, "type": "remove", "version": 1}
        while not self.done.wait(self.interval):
            try:
                response = self.api.request(add if self.count % 2 == 0 else remove)
                self.api.responses.clear()
                if response.status != 200:
                    self.errors.append(f"{response.status} {response.body[:80]!r}")
            except (CheckFailed, OSError) as error:
                self.errors.append(str(error))
            self.count += 1

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.done.set()
        self.thread.join(15)


# MARK: the description


def referenced_type(ref, kind):
    """The `type` const of the request or response schema file a $ref names."""
    schema = json.loads((PROTO / ref).read_text())
    typed = schema.get("properties", {}).get("type") or next(
        (part["properties"]["type"] for part in schema.get("allOf", []) if "type" in part.get("properties", {})), {})
    if "const" not in typed:
        raise CheckFailed(f"{ref}: no `type` const in this {kind} schema")
    return typed["const"]


def check_description(w):
    """Every $ref of the description names a schema file that is there, and the request and response
    types it lists are exactly the page's: index.json's less what stays with peerctl."""
    text = DESCRIPTION.read_text()
    refs = sorted(set(re.findall(r'\$ref: "([^"#][^"]*)"', text)))
    missing = [ref for ref in refs if not (PROTO / ref.split("#")[0]).is_file()]
    if missing:
        raise CheckFailed(f"$refs to files not in proto/: {', '.join(missing)}")
    schemas = w.doc["components"]["schemas"]
    index = json.loads((SCHEMAS / "index.json").read_text())
    requests = [referenced_type(s["$ref"], "request") for s in schemas["PageRequest"]["oneOf"]]
    answers = [referenced_type(s["$ref"], "response") for s in schemas["Answer"]["oneOf"]
               if not s["$ref"].startswith("#")]
    problems = []
    want_requests = set(index["control-request"]) - PEERCTL_ONLY
    want_answers = set(index["control-response"]) - PEERCTL_ONLY_RESPONSES - {"error"}
    for what, have, want in (("request", requests, want_requests), ("response", answers, want_answers)):
        if sorted(have) != sorted(want):
            problems.append(f"the description's {what}s lack {sorted(want - set(have))} and have beyond "
                            f"index.json's page {what}s {sorted(set(have) - want)}"
                            + (" (some twice)" if len(have) != len(set(have)) else ""))
    unknown = PEERCTL_ONLY - set(index["control-request"])
    if unknown:
        problems.append(f"requests kept for peerctl that index.json does not have: {sorted(unknown)}")
    if problems:
        raise CheckFailed("; ".join(problems))
    w.up()  # schemathesis loads it here
    operations = [f"{m.upper()} {p}" for p, item in w.doc["paths"].items() for m in item if m in
                  ("get", "post", "put", "patch", "delete", "head", "options", "trace")]
    return (f"OpenAPI {w.doc['openapi']}, {len(operations)} operations, {len(refs)} schema files by $ref; "
            f"{len(requests)} request types, {len(answers)} responses and `error`")


# MARK: schemathesis


def schemathesis_argv(w, report_dir, with_unsupported_method):
    checks = CHECKS + (["unsupported_method"] if with_unsupported_method else [])
    return [sys.executable, "-m", "schemathesis.cli", "run", str(DESCRIPTION), "--url", w.base,
            "--header", f"Authorization: Bearer {w.token}", "--header", f"Origin: {w.origin}",
            "--max-examples", str(w.examples), "--generation-deterministic", "--workers", "1",
            "--checks", ",".join(checks), "--request-timeout", str(REQUEST_TIMEOUT), "--no-color",
            "--report", "json,har", "--report-dir", str(report_dir),
            "--report-json-path", str(report_dir / "run.json"), "--report-har-path", str(report_dir / "run.har")]


def check_schemathesis(w):
    w.up()
    report_dir = w.work / "schemathesis"
    report_dir.mkdir(exist_ok=True)
    argv = schemathesis_argv(w, report_dir, with_unsupported_method=not w.allow_missing)
    output = w.work / "schemathesis.txt"
    started = time.monotonic()
    with Churn(w) as churn, open(output, "w") as out:
        # Its cwd is the work dir: what it keeps between runs (.schemathesis/) stays there.
        try:
            run = subprocess.run(argv, cwd=w.work, stdout=out, stderr=subprocess.STDOUT, timeout=RUN_TIMEOUT)
        except subprocess.TimeoutExpired:
            raise CheckFailed(f"schemathesis still running after {RUN_TIMEOUT} s (its output: {output})") from None
    seconds = time.monotonic() - started
    text = output.read_text(errors="replace")
    try:
        report = json.loads((report_dir / "run.json").read_text())
    except (OSError, ValueError) as error:
        raise CheckFailed(f"schemathesis exited {run.returncode} without its report ({error}):\n"
                          f"{harness.tail(output, 30)}") from None
    problems = []
    if run.returncode != 0 or report.get("failures") or report.get("errors"):
        failures = text.split(" FAILURES ", 1)[-1].split(" SUMMARY ", 1)[0] if " FAILURES " in text else text
        lines = failures.strip("= \n").splitlines()
        problems.append(f"schemathesis exited {run.returncode}:\n" + "\n".join(lines[:150])
                        + (f"\n… {len(lines) - 150} lines more in {output}" if len(lines) > 150 else ""))
    operations = report["operations"]
    if operations["tested"] != operations["total"] or operations["errored"]:
        problems.append(f"operations: {operations}")
    warnings = {kind: what for kind, what in report.get("warnings", {}).items() if what}
    if warnings:
        problems.append(f"schemathesis warned: {json.dumps(warnings)[:600]}")
    per_operation, streams, events = har_counts(report_dir / "run.har", w)
    if not streams:
        problems.append("no event stream with a change event in it was read: the events' schema went unchecked")
    if churn.errors:
        problems.append(f"the background adds and removes: {churn.errors[:3]}")
    if problems:
        raise CheckFailed("\n".join(problems))
    cases = report["test_cases"]
    counts = ", ".join(f"{op} {n}" for op, n in sorted(per_operation.items(), key=lambda kv: -kv[1]))
    skipped = "" if not w.allow_missing else "; unsupported_method left out (405 without Allow, below)"
    return (f"{cases['generated']} cases on {operations['tested']} operations, none failed, "
            f"in {seconds:.0f} s (schemathesis {report['schemathesis_version']}, --max-examples {w.examples})\n"
            f"requests by operation: {counts}\n"
            f"{streams} event streams read with {events} change events; {churn.count} adds and removes "
            f"meanwhile{skipped}")


def open_guest_door(w):
    """A pick of three listed movies, so the daemon's guest door (on loopback: harness.Peerd) opens;
    its base URL, the capability, and a guest's token."""
    # Wanted, so they lead the deck (the most wanted 12) however many movies the run before added.
    for movie, title, year in GUEST_DECK:
        w.daemon.peerctl("add", str(movie), "--title", title, "--year", str(year))
        w.daemon.peerctl("want", str(movie))
    # A pick the run against the page's API left voting would be joined, not opened (a group votes
    # on one pick at a time): close every pick first, so this one is new and the only one.
    for _ in range(20):
        if w.daemon.peerctl("pick", "--close", "--force").returncode != 0:
            break
    state = w.daemon.peerctl_json("pick", "--mode", "majority")
    if state.get("joined"):
        raise CheckFailed(f"peerctl pick joined a pick still voting instead of opening one: {state['pick']}")
    url = (state.get("guests") or {}).get("url", "")
    match = re.fullmatch(r"(http://127\.0\.0\.1:\d+)/g/([A-Za-z0-9_-]{22})/", url)
    if not match:
        raise CheckFailed(f"peerctl pick gave no guest link on loopback: {state.get('guests')}")
    base, cap = match.groups()
    request = urllib.request.Request(f"{base}/g/{cap}/join", data=b'{"name":"Sam"}', method="POST",
                                     headers={"Origin": base, "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        token = json.loads(answer.read())["token"]
    return base, cap, token


def check_guest_schemathesis(w):
    """schemathesis against the guest door (openapi-guests.yaml) of an open pick, as a joined guest."""
    w.up()
    base, cap, token = open_guest_door(w)
    report_dir = w.work / "schemathesis-guests"
    report_dir.mkdir(exist_ok=True)
    config = w.work / "schemathesis-guests.toml"
    config.write_text(f'[parameters]\n"path.cap" = "{cap}"\n')
    argv = [sys.executable, "-m", "schemathesis.cli", "--config-file", str(config), "run", str(GUEST_DESCRIPTION),
            "--url", base, "--header", f"Authorization: Guest {token}", "--header", f"Origin: {base}",
            "--max-examples", str(max(10, w.examples // 4)), "--generation-deterministic", "--workers", "1",
            "--rate-limit", "15/s", "--checks", ",".join(GUEST_CHECKS), "--request-timeout", str(REQUEST_TIMEOUT),
            "--no-color", "--report", "json", "--report-dir", str(report_dir),
            "--report-json-path", str(report_dir / "run.json")]
    output = w.work / "schemathesis-guests.txt"
    with open(output, "w") as out:
        try:
            run = subprocess.run(argv, cwd=w.work, stdout=out, stderr=subprocess.STDOUT, timeout=RUN_TIMEOUT)
        except subprocess.TimeoutExpired:
            raise CheckFailed(f"schemathesis still running after {RUN_TIMEOUT} s (its output: {output})") from None
    try:
        report = json.loads((report_dir / "run.json").read_text())
    except (OSError, ValueError) as error:
        raise CheckFailed(f"schemathesis exited {run.returncode} without its report ({error}):\n"
                          f"{harness.tail(output, 30)}") from None
    operations = report["operations"]
    if run.returncode != 0 or report.get("failures") or report.get("errors") or operations["errored"] \
            or operations["tested"] != operations["total"]:
        raise CheckFailed(f"schemathesis exited {run.returncode}, operations {operations}:\n{harness.tail(output, 60)}")
    state = w.daemon.peerctl_json("pick", "--status")
    guests = [v["name"] for v in state["voters"] if v["guest"]]
    if "Sam" not in guests:
        raise CheckFailed(f"no vote of the guest Sam reached the pick: voters {state['voters']}")
    return (f"{report['test_cases']['generated']} cases on {operations['tested']} guest operations, none failed; "
            f"the pick's guests now: {', '.join(guests)}")


def har_counts(path, w):
    """Requests per described operation, and the event streams that held change events (and how many)."""
    try:
        entries = json.loads(path.read_text())["log"]["entries"]
    except (OSError, ValueError, KeyError) as error:
        raise CheckFailed(f"schemathesis's HAR {path}: {error}") from None
    described = {(m.upper(), p) for p, item in w.doc["paths"].items() for m in item}
    per_operation, streams, events = {}, 0, 0
    for entry in entries:
        method, url = entry["request"]["method"], entry["request"]["url"]
        path = url.removeprefix(w.base).split("?")[0]
        if (method, path) in described:
            per_operation[f"{method} {path}"] = per_operation.get(f"{method} {path}", 0) + 1
        if path == "/api/events" and entry["response"]["status"] == 200:
            heard = entry["response"]["content"].get("text", "").count("event: change\n")
            streams += heard > 0
            events += heard
    return per_operation, streams, events


# MARK: what schemathesis can't generate


def check_refusals(w):
    """The gate's refusals, each as the description documents it: 400, 401, 403 (Origin), 413, 421."""
    w.up()
    status = {"type": "status", "version": 1}
    padded = json.dumps(status).encode()
    padded += b" " * (MAX_BODY - len(padded))
    cases = [
        ("a body of exactly 64 KiB", "POST", "/api/request", padded, {}, 200),
        ("a body of 64 KiB and 1 byte", "POST", "/api/request", padded + b" ", {}, 413),
        ("1 MiB", "POST", "/api/request", b"[" + b"0," * (1 << 19) + b"0]", {}, 413),
        ("version 2", "POST", "/api/request", {"type": "status", "version": 2}, {}, 400),
        ("an unknown type", "POST", "/api/request", {"type": "dance", "version": 1}, {}, 400),
        ("no JSON", "POST", "/api/request", b"status, please", {}, 400),
        ("an array", "POST", "/api/request", b"[]", {}, 400),
        ("no token", "POST", "/api/request", status, {"Authorization": None}, 401),
        ("a wrong token", "POST", "/api/request", status, {"Authorization": "Bearer " + "0" * 64}, 401),
        ("a token not as Bearer", "POST", "/api/request", status, {"Authorization": w.token}, 401),
        ("no token", "GET", "/api/events", None, {"Authorization": None}, 401),
        ("no Origin", "POST", "/api/request", status, {"Origin": None}, 403),
        ("Origin null", "POST", "/api/request", status, {"Origin": "null"}, 403),
        ("another site's Origin", "POST", "/api/request", status, {"Origin": f"http://evil.example:{w.port}"}, 403),
        ("another port's Origin", "POST", "/api/request", status, {"Origin": f"http://127.0.0.1:{w.port + 1}"}, 403),
        ("a Host of another port", "POST", "/api/request", status, {"Host": f"127.0.0.1:{w.port + 1}"}, 421),
    ]
    for path, item in w.doc["paths"].items():
        for method in item:
            body = status if method == "post" else None
            cases.append(("a Host DNS could point anywhere", method.upper(), path, body,
                          {"Host": f"evil.example:{w.port}"}, 421))
    problems = []
    for what, method, path, body, headers, want in cases:
        response, broken = w.ask(method, path, body, headers)
        problems += [f"{what}: {line}" for line in broken]
        if response.status_code != want:
            problems.append(f"{what}: {method} {path} → {response.status_code}, WEB.md says {want}")
    if problems:
        raise CheckFailed("\n".join(problems))
    return f"{len(cases)} requests the gate or the decoder refuses (or just admits), each answered as described"


def check_forbidden(w):
    """Each request that stays with peerctl, valid as the control socket takes it: 403 `forbidden`."""
    w.up()
    sys.path.insert(0, str(PROTO))
    from validate import validate_body
    problems, sent = [], []
    for kind in sorted(PEERCTL_ONLY):
        golden = PROTO / "golden" / f"control-request-{kind}.bin"
        body = json.loads(golden.read_bytes()[4:])
        if "address" in body:
            body["address"] = "127.0.0.1:9"  # should the page ever be let through, nothing leaves loopback
        if validate_body("control-request", json.dumps(body).encode()):
            raise CheckFailed(f"{golden.name} is no valid {kind} request")
        response, broken = w.ask("POST", "/api/request", body)
        problems += broken
        answer = response.json() if response.status_code == 403 else {}
        if response.status_code != 403 or answer.get("code") != "forbidden":
            problems.append(f"{kind}: {response.status_code} {response.content[:100]!r}")
        sent.append(kind)
    if problems:
        raise CheckFailed("\n".join(problems))
    return f"{', '.join(sent)}: each 403 with an `error` `forbidden`, as described"


def check_events(w):
    """A stream read while three movies are added: its events conform, and it holds their changes."""
    w.up()
    movies = [990101, 990102, 990103]

    def add_later():
        time.sleep(0.5)
        for movie in movies:
            w.api.request(ws.add_request(movie, f"Event {movie}"))

    adder = threading.Thread(target=add_later, daemon=True)
    adder.start()
    response, problems = w.ask("GET", "/api/events", timeout=REQUEST_TIMEOUT)
    adder.join(10)
    if response.status_code != 200:
        raise CheckFailed(f"GET /api/events → {response.status_code} {response.content[:100]!r}")
    heard = [json.loads(line[len("data: "):]) for line in response.content.decode().splitlines()
             if line.startswith("data: ")]
    added = [c.get("movieId") for c in heard if c.get("change") == "added"]
    if added != movies:
        problems.append(f"the stream's added movies: {added}, expected {movies}")
    content_type = "; ".join(response.headers.get("content-type") or [])
    if problems:
        raise CheckFailed("\n".join(problems))
    return f"{len(heard)} change events in {REQUEST_TIMEOUT} s, {content_type}, each valid"


def check_methods(w):
    """A method no operation of a path has: 405; an unknown path: 404 (401 under /api/ without the
    token); both a line of text with the security headers. An `Allow` header is looked for."""
    w.up()
    expected_headers = w.security_headers()
    problems, tried = [], 0
    w.allow_missing = []
    for path, item in w.doc["paths"].items():
        allowed = {m.upper() for m in item} | ({"HEAD"} if "get" in item and not path.startswith("/api/") else set())
        for method in METHODS:
            if method in allowed:
                continue
            tried += 1
            body = {"type": "status", "version": 1} if method in ("POST", "PUT", "PATCH") else None
            response = w.api.call(method, path, body)
            if response.status != 405:
                problems.append(f"{method} {path} → {response.status}, expected 405")
            problems += plain_problems(f"{method} {path}", response, expected_headers)
            if "allow" not in response.headers:
                w.allow_missing.append(f"{method} {path}")
    for path, token, want in (("/nope", True, 404), ("/api/nope", True, 404), ("/api/nope", None, 401),
                              ("/index.htm", True, 404)):
        tried += 1
        response = w.api.call("GET", path, token=token)
        if response.status != want:
            problems.append(f"GET {path}{'' if token else ' without the token'} → {response.status}, expected {want}")
        problems += plain_problems(f"GET {path}", response, expected_headers)
    if problems:
        raise CheckFailed("\n".join(problems))
    allow = f"; {len(w.allow_missing)} of the 405s without Allow" if w.allow_missing else "; each 405 with Allow"
    return f"{tried} requests of no operation: 405 or 404, a line of text with the security headers{allow}"


def plain_problems(what, response, expected_headers):
    problems = []
    content_type = response.headers.get("content-type", "")
    if not content_type.startswith("text/plain"):
        problems.append(f"{what}: Content-Type {content_type!r}, WEB.md says text/plain")
    for name, value in expected_headers.items():
        if response.headers.get(name) != value:
            problems.append(f"{what}: {name} {response.headers.get(name)!r}")
    return problems


def check_alive(w):
    w.up()
    if not w.daemon.alive():
        raise CheckFailed(f"peerd exited ({w.daemon.proc.returncode}):\n{w.daemon.tail()}")
    status = w.daemon.status()
    page = w.api.call("GET", "/")
    answer = w.api.request({"type": "status", "version": 1})
    if page.status != 200 or answer.status != 200 or answer.json().get("type") != "status":
        raise CheckFailed(f"GET / → {page.status}, status → {answer.status} {answer.body[:100]!r}")
    return f"peerd {status['peer'][:8]} answers peerctl and its page, after all of it"


CHECKS_RUN = [
    ("the description: every $ref resolves; its requests and responses are the page's", check_description),
    ("a wrong method is 405, an unknown path 404", check_methods),
    ("schemathesis: every operation's answers as described", check_schemathesis),
    ("the gate's refusals and the decoder's as described (400, 401, 403, 413, 421)", check_refusals),
    ("requests that stay with peerctl: 403 forbidden, as described", check_forbidden),
    ("the event stream as described, with the changes made meanwhile", check_events),
    ("schemathesis: the guest door's answers as described (openapi-guests.yaml)", check_guest_schemathesis),
    ("peerd is still up", check_alive),
]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--keep", action="store_true", help="keep the work directory even when all pass")
    parser.add_argument("--examples", type=int, default=EXAMPLES, help="schemathesis's --max-examples")
    args = parser.parse_args()
    exit_on_signals()
    suite = Suite("openapi")
    if not suite.need_peerd():
        return suite.finish()
    try:
        import schemathesis
    except ImportError:
        suite.fail(f"schemathesis is not installed: python3 -m pip install '{PIP_SPEC}' (make test-deps does)")
        return suite.finish()
    print(f"openapi: schemathesis {schemathesis.__version__}, {DESCRIPTION.relative_to(harness.ROOT)}", flush=True)
    with suite.work_dir(args.keep) as work:
        w = World(work, args.examples)
        try:
            suite.run(CHECKS_RUN, w, stop=w.died)
            if w.allow_missing:
                suite.skip_check("schemathesis's unsupported_method (a 405 names the allowed methods in Allow, "
                                 "RFC 9110)", f"peerd's 405s carry no Allow header ({', '.join(w.allow_missing[:3])}, "
                                 f"… {len(w.allow_missing)} in all)")
        finally:
            w.stop()
    return suite.finish()


if __name__ == "__main__":
    sys.exit(main())
