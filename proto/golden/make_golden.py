#!/usr/bin/env python3
"""Writes the golden frames in this folder: proto/golden/README.md lists them.

Run from anywhere: `python3 proto/golden/make_golden.py`. It rewrites every `*.bin` file and
`invalid.json`, and removes `*.bin` files it no longer makes, so the folder always matches this script.

Bodies are canonical JSON, byte for byte what `WireCoding.encode` (Swift's JSONEncoder with
`.sortedKeys` and `.withoutEscapingSlashes`) writes:
- keys sorted by their UTF-8 bytes (the same order as Python's code point order), no whitespace;
- strings as raw UTF-8; escaped are only `"` and `\\`, `\\b \\f \\n \\r \\t`, and the other control
  characters below U+0020 as `\\u00xx` (lowercase hex). `/` and DEL are not escaped;
- a floating-point number with no fraction is written without `.0` (Swift writes 3.0 as `3`).
"""

import base64
import hashlib
import json
import pathlib
import struct

# Only for signing the example operations (pip install cryptography); CI does not run this script.
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

HERE = pathlib.Path(__file__).resolve().parent
PEER_VERSION = 3  # PEER.md; control requests carry the control protocol's version, 1
AT = 1763700000000  # 2025-11-21T04:40:00Z, milliseconds since 1970

# --- the example replicas' keys ------------------------------------------------------------------
# Fixed test keys: each private scalar is SHA-256 of "peerd golden <name>" (big-endian), so the Swift
# tests can make the same keys (P256.Signing.PrivateKey(rawRepresentation:)). Never use them for
# anything else. A peer id is the first 16 bytes of SHA-256 over the DER SubjectPublicKeyInfo, in hex.
P256_ORDER = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551


def test_key(name: str) -> ec.EllipticCurvePrivateKey:
    scalar = int.from_bytes(hashlib.sha256(f"peerd golden {name}".encode()).digest(), "big")
    return ec.derive_private_key(scalar, ec.SECP256R1())


def public_der(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)


def peer_id(key: ec.EllipticCurvePrivateKey) -> str:
    return hashlib.sha256(public_der(key)).digest()[:16].hex()


KEYS = {name: test_key(name) for name in ("alice", "bob", "carol")}
ALICE = peer_id(KEYS["alice"])
BOB = peer_id(KEYS["bob"])
CAROL = peer_id(KEYS["carol"])
ORIGIN_KEYS = {peer_id(key): key for key in KEYS.values()}


def canonical_value(value):
    """Mirrors Swift's number formatting: integral floats are written as integers."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: canonical_value(v) for k, v in value.items()}
    if isinstance(value, list):
        return [canonical_value(v) for v in value]
    return value


def canonical(obj) -> bytes:
    """The body bytes `WireCoding.encode` writes for `obj`."""
    text = json.dumps(canonical_value(obj), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return text.encode("utf-8")


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def sign(op: dict, previous: dict | None, list_id: str | None = None) -> dict:
    """`op` sealed by its origin's test key (proto/PEER.md, "Signed operations"): `key` on seq 1,
    `prev` = SHA-256 of `previous` (the origin's op seq - 1, `sig` included) after that, and `sig`:
    deterministic (RFC 6979) ECDSA P-256 over b"peerd-op-v1\\n" + the canonical JSON without `sig`,
    raw r||s with s in its low form (s <= n/2). An operation of the list `list_id` is signed under
    b"peerd-op-v1 list <id>\\n" instead (PEER.md, "Lists")."""
    key = ORIGIN_KEYS[op["origin"]]
    sealed = dict(op)
    if op["seq"] == 1:
        sealed["key"] = b64(public_der(key))
    else:
        sealed["prev"] = b64(hashlib.sha256(canonical(previous)).digest())
    domain = f"peerd-op-v1 list {list_id}\n".encode() if list_id else b"peerd-op-v1\n"
    der = key.sign(domain + canonical(sealed), ec.ECDSA(hashes.SHA256(), deterministic_signing=True))
    r, s = decode_dss_signature(der)
    s = min(s, P256_ORDER - s)
    sealed["sig"] = b64(r.to_bytes(32, "big") + s.to_bytes(32, "big"))
    return sealed


def unsigned(op: dict, **changes) -> dict:
    """`op` with `changes` and without its `sig`, to be signed again: an invalid frame whose one fault is the
    one it names is signed and chained as its origin would."""
    return {key: value for key, value in dict(op, **changes).items() if key != "sig"}


def chain(ops: list, previous: dict | None = None, list_id: str | None = None) -> list:
    """Seals one origin's operations in order: from seq 1, or after `previous`; in the list `list_id`, if given."""
    sealed = []
    for op in ops:
        sealed.append(sign(op, sealed[-1] if sealed else previous, list_id))
    return sealed


def frame(body: bytes) -> bytes:
    """A frame: u32 big-endian length, then the body."""
    return struct.pack(">I", len(body)) + body


def cursor(lamport: int, origin: str, seq: int) -> str:
    return f"{lamport}.{origin}.{seq}"


# --- shared pieces -----------------------------------------------------------------------------

MATRIX = {"id": 603, "title": "The Matrix", "year": 1999}
FIGHT_CLUB = {"id": 550, "title": "Fight Club", "year": 1999}
AMELIE = {"id": 194, "title": 'Le Fabuleux Destin d\'Amélie Poulain / "Amélie" \\ 🎬\t', "year": 2001}

MATRIX_ROW = {
    "movieId": 603,
    "title": "The Matrix",
    "year": 1999,
    "addedBy": ["alice"],
    "addedByPeers": [ALICE],
    "addedAt": AT,
    "cursor": cursor(9, ALICE, 4),
}
MATRIX_ROW_TWO_ADDERS = dict(MATRIX_ROW, addedBy=["alice", "bob"], addedByPeers=[ALICE, BOB])
INCEPTION_ROW = {
    "movieId": 27205,
    "addedBy": ["bob"],
    "addedByPeers": [BOB],
    "addedAt": AT + 60_000,
    "cursor": cursor(11, BOB, 6),
}


def member_marks(peer: str, name: str, **marks) -> dict:
    """One member's marks in a row's `marks` (CONTROL.md, "list and pagination"): the three flags always."""
    return dict({"peer": peer, "name": name, "want": False, "seen": False, "veto": False}, **marks)


AMELIE_ROW = {
    "movieId": 194,
    "title": AMELIE["title"],
    "year": 2001,
    "addedBy": ["zoë"],
    "addedByPeers": [CAROL],
    "addedAt": AT + 120_000,
    "cursor": cursor(12, CAROL, 1),
}

# The Matrix with the group's marks (a row's `marks` are sorted by peer id: zoë, alice, bob): zoë has seen it and
# rates it 7, alice saw it yesterday and rates it 8, bob wants to watch it; then bob's watch with alice.
MATRIX_MARKS = [member_marks(CAROL, "zoë", seen=True, rating=7),
                member_marks(ALICE, "alice", seen=True, seenOn="2025-11-20", rating=8),
                member_marks(BOB, "bob", want=True)]
MATRIX_ROW_MARKED = dict(MATRIX_ROW, marks=MATRIX_MARKS, averageRating=7.5)
MATRIX_ROW_WATCHED = dict(MATRIX_ROW_MARKED, marks=MATRIX_MARKS[:2] + [
    member_marks(BOB, "bob", want=True, seen=True, seenOn="2025-11-20")])
# Fight Club, which alice removed, added again by her `want` (CONTROL.md, "mark").
FIGHT_CLUB_ROW = {"movieId": 550, "title": "Fight Club", "year": 1999, "addedBy": ["alice"], "addedByPeers": [ALICE],
                  "addedAt": AT + 300_000, "cursor": cursor(21, ALICE, 12),
                  "marks": [member_marks(ALICE, "alice", want=True)]}

# alice's first five operations: seq 1-3 are not in any frame, only chained to.
ALICE_OPS = chain([
    {"origin": ALICE, "seq": 1, "lamport": 1, "at": AT - 3_000, "by": "alice", "op": "add", "movie": FIGHT_CLUB},
    {"origin": ALICE, "seq": 2, "lamport": 2, "at": AT - 2_000, "by": "alice", "op": "add", "movie": {"id": 13}},
    {"origin": ALICE, "seq": 3, "lamport": 5, "at": AT - 1_000, "by": "alice", "op": "add", "movie": {"id": 680}},
    {"origin": ALICE, "seq": 4, "lamport": 9, "at": AT, "by": "alice", "op": "add", "movie": MATRIX},
    {"origin": ALICE, "seq": 5, "lamport": 10, "at": AT + 5_000, "by": "alice", "op": "remove",
     "movie": FIGHT_CLUB, "removes": [{"origin": ALICE, "seq": 1}, {"origin": BOB, "seq": 2}]},
])
ADD_OP = ALICE_OPS[3]
REMOVE_OP = ALICE_OPS[4]
# bob's first six: seq 6 is sent, with the id only.
BOB_OPS = chain([
    {"origin": BOB, "seq": seq, "lamport": seq, "at": AT + seq * 1_000, "by": "bob", "op": "add",
     "movie": {"id": 100 + seq}}
    for seq in range(1, 6)
] + [{"origin": BOB, "seq": 6, "lamport": 11, "at": AT + 60_000, "by": "bob", "op": "add", "movie": {"id": 27205}}])
# bob's seq 7 and 8, as a later version makes them (PEER.md, "Operations can grow"): seq 7 an add with
# fields this version does not know, at the top level and inside `movie`; seq 8 of a kind it does not
# know. Both are signed over their canonical JSON, unknown fields included, and chained to seq 6.
BOB_LATER_OPS = chain([
    {"origin": BOB, "seq": 7, "lamport": 13, "at": AT + 70_000, "by": "bob", "op": "add",
     "movie": {"id": 603, "poster": "/f89U3ADr1oiB1s9GkdPOEpXUk5H.jpg"}, "mood": {"stars": 5, "tags": ["rewatch"]}},
    {"origin": BOB, "seq": 8, "lamport": 14, "at": AT + 80_000, "by": "bob", "op": "rate",
     "movie": {"id": 603}, "stars": 4},
], previous=BOB_OPS[5])
# A list of alice's, "friends" (PEER.md, "Lists"): its id hashes her peer id with the nonce her first
# operation in it carries; her operations in it have their own seqs from 1 and are signed under the list's domain.
LIST_NONCE = "5eed0f1a2b3c4d5e6f708192a3b4c5d6"
LIST_ID = hashlib.sha256(f"peerd-list\n{ALICE}\n{LIST_NONCE}".encode()).digest()[:16].hex()
LIST_OPS = chain([
    {"origin": ALICE, "seq": 1, "lamport": 1, "at": AT + 400_000, "by": "alice", "op": "list", "movie": {"id": 1},
     "list": {"name": "friends", "nonce": LIST_NONCE}},
    {"origin": ALICE, "seq": 2, "lamport": 2, "at": AT + 410_000, "by": "alice", "op": "add", "movie": AMELIE},
], list_id=LIST_ID)
# alice's seq 6: she fetched The Matrix's details from TMDB and describes it (PEER.md, "Describing a movie").
MATRIX_DETAILS = {
    "fetchedAt": AT + 70_000, "genres": ["Action", "Science Fiction"], "imdbId": "tt0133093", "language": "en-US",
    "originalTitle": "The Matrix",
    "overview": "Set in the 22nd century, The Matrix tells the story of a computer hacker who joins a group of "
                "underground insurgents fighting the vast and powerful computers who now rule the earth.",
    "posterPath": "/f89U3ADr1oiB1s9GkdPOEpXUk5H.jpg", "releaseDate": "1999-03-31", "runtime": 136,
    "title": "The Matrix", "voteAverage": 822,
}
DESCRIBE_OP = sign({"origin": ALICE, "seq": 6, "lamport": 11, "at": AT + 70_000, "by": "alice", "op": "describe",
                    "movie": {"id": 603}, "details": MATRIX_DETAILS}, ALICE_OPS[4])
# alice's seq 7: she refreshed The Matrix's details, and TMDB now lists where to watch it in the US, the
# region of her language (PEER.md, "Describing a movie"): `providers`, an optional `logoPath` left out.
MATRIX_PROVIDERS = {
    "region": "US", "link": "https://www.themoviedb.org/movie/603-the-matrix/watch?locale=US",
    "stream": [{"id": 8, "name": "Netflix", "logoPath": "/pbpMk2JmcoNnQwx5JGpXngfoWtp.jpg"}],
    "rent": [{"id": 2, "name": "Apple TV"}],
    "buy": [{"id": 2, "name": "Apple TV"}],
}
MATRIX_DETAILS_PROVIDERS = dict(MATRIX_DETAILS, fetchedAt=AT + 90_000, providers=MATRIX_PROVIDERS)
DESCRIBE_PROVIDERS_OP = sign({"origin": ALICE, "seq": 7, "lamport": 15, "at": AT + 90_000, "by": "alice",
                              "op": "describe", "movie": {"id": 603}, "details": MATRIX_DETAILS_PROVIDERS},
                             DESCRIBE_OP)
# alice's seq 8: she sets where the group watches (PEER.md, "Group settings"): Germany, on Netflix and MUBI,
# sorted by TMDB's provider id. It is about the group, not a movie: its `movie` is {"id": 1}.
GROUP_SETTINGS = {"region": "DE", "services": [{"id": 8, "name": "Netflix"}, {"id": 11, "name": "MUBI"}]}
SETTINGS_OP = sign({"origin": ALICE, "seq": 8, "lamport": 16, "at": AT + 100_000, "by": "alice", "op": "settings",
                    "movie": {"id": 1}, "settings": GROUP_SETTINGS}, DESCRIBE_PROVIDERS_OP)
# alice's seq 9 to 11: her own marks on The Matrix (PEER.md, "Marks"): she saw it yesterday, rates it 8, and no
# longer wants to watch it. A mark names the movie as its row does (title and year from the earliest add).
SEEN_DAY = "2025-11-20"
MARK_OPS = chain([
    {"origin": ALICE, "seq": 9, "lamport": 17, "at": AT + 110_000, "by": "alice", "op": "mark", "movie": MATRIX,
     "mark": {"kind": "seen", "on": SEEN_DAY, "set": True}},
    {"origin": ALICE, "seq": 10, "lamport": 18, "at": AT + 111_000, "by": "alice", "op": "mark", "movie": MATRIX,
     "mark": {"kind": "rating", "rating": 8, "set": True}},
    {"origin": ALICE, "seq": 11, "lamport": 19, "at": AT + 112_000, "by": "alice", "op": "mark", "movie": MATRIX,
     "mark": {"kind": "want", "set": False}},
], previous=SETTINGS_OP)
# bob's seq 9: he logs the movie night (PEER.md, "Watches"): he and alice watched The Matrix yesterday, a seen
# mark of each of them. `with` is sorted, each member once; it chains on his seq 8, of a kind unknown here.
WATCH_OP = sign({"origin": BOB, "seq": 9, "lamport": 20, "at": AT + 200_000, "by": "bob", "op": "watch",
                 "movie": MATRIX, "watch": {"on": SEEN_DAY, "with": sorted([ALICE, BOB])}}, BOB_LATER_OPS[1])
# zoë's first operation carries her key.
CAROL_OPS = chain([
    {"origin": CAROL, "seq": 1, "lamport": 12, "at": AT + 120_000, "by": "zoë", "op": "add", "movie": AMELIE},
])



def invite_code(inviter: str, secret: bytes) -> str:
    """An invite code as InviteCode.description writes it (SECURITY.md, "Invite codes")."""
    payload = bytes.fromhex(inviter) + secret
    text = base64.b32encode(payload + hashlib.sha256(payload).digest()[:2]).decode("ascii").lower().rstrip("=")
    return "-".join(["wl1"] + [text[i : i + 5] for i in range(0, len(text), 5)])


ALICE_INVITE = invite_code(ALICE, bytes(range(0x10, 0x20)))

MALLORY = "d00d0123456789abcdef0123456789ab"
DAVE = "c0ffee0123456789abcdef0123456789"
FRIENDS = "5f3c1a9e0b7d4c2e8a6f1b3d5c7e9a0b"  # a list's id (PEER.md, "Lists")
GROUP_LIST = {"name": "group", "default": True, "held": True, "movies": 12,
              "members": [{"peer": ALICE, "name": "alice"}, {"peer": BOB, "name": "bob"}, {"peer": CAROL, "name": "carol"}]}
FRIENDS_LIST = {"id": FRIENDS, "name": "friends", "default": False, "held": True, "movies": 3,
                "members": [{"peer": ALICE, "name": "alice"}, {"peer": CAROL, "name": "carol"}]}
# What `peerctl doctor` asks for (CONTROL.md, "diagnose"): bob connected inbound with a skewed clock, dave
# timing out, mallory refusing us and refused by us.
# One of TMDB's search pages as peerd reads it: `searchResults` on the control socket, `answer`'s
# `search` between peers.
SEARCH_PAGE = {"query": "matrix", "page": 1, "totalPages": 3, "totalResults": 52, "results": [
    {"movieId": 603, "title": "The Matrix", "year": 1999, "overview": MATRIX_DETAILS["overview"],
     "posterPath": "/f89U3ADr1oiB1s9GkdPOEpXUk5H.jpg", "voteAverage": 822},
    {"movieId": 604, "title": "The Matrix Reloaded", "year": 2003, "voteAverage": 710},
    {"movieId": 1_000_000, "title": "Matrix", "originalTitle": "Матрица"}]}
# Pages of TMDB's lists (`movies` on the control socket, `answer`'s `movies` between peers): `query`
# names the list. A filtered top-rated list, as TMDB gives it now, and the popular list as bob keeps it
# on disk, 3 hours old, shown because no peer with a token is connected (CONTROL.md, "discover").
FILTERED_LIST = {"query": "top rated · genre 35 · 1999 · ≤ 110 min · rated ≥ 7.5", "page": 2, "totalPages": 2,
                 "totalResults": 21, "results": [
                     {"movieId": 863, "title": "Toy Story 2", "year": 1999, "voteAverage": 759}]}
KEPT_LIST = {"query": "popular", "page": 1, "totalPages": 500, "totalResults": 10_000, "results": [
    {"movieId": 603, "title": "The Matrix", "year": 1999, "posterPath": "/f89U3ADr1oiB1s9GkdPOEpXUk5H.jpg",
     "voteAverage": 822},
    {"movieId": 550, "title": "Fight Club", "year": 1999, "voteAverage": 844}],
    "fetchedAt": AT - 10_800_000,
    "stale": "no connected peer holds a TMDB token; alice holds one and was last seen 2 h ago"}
SIMILAR_PAGE = {"query": "movies like 603", "page": 1, "totalPages": 2, "totalResults": 40, "results": [
    {"movieId": 604, "title": "The Matrix Reloaded", "year": 2003, "voteAverage": 710},
    {"movieId": 605, "title": "The Matrix Revolutions", "year": 2003, "voteAverage": 670}]}
# The streaming services TMDB lists in Germany (the first four, in its display order there), as a peer's
# `providers` query is answered: what `services` looks names up in.
DE_PROVIDERS = [{"id": 8, "name": "Netflix", "logoPath": "/pbpMk2JmcoNnQwx5JGpXngfoWtp.jpg"},
                {"id": 9, "name": "Amazon Prime Video"}, {"id": 337, "name": "Disney Plus"},
                {"id": 11, "name": "MUBI"}]
# TMDB's movie genres (the first four of them), as `genres` answers them.
GENRES = [{"id": 28, "name": "Action"}, {"id": 35, "name": "Comedy"}, {"id": 18, "name": "Drama"},
          {"id": 878, "name": "Science Fiction"}]

NAMES = {ALICE: "alice", BOB: "bob", CAROL: "zoë"}


def history_entry(op: dict, text: str, movie: dict | None = MATRIX, known: bool = True) -> dict:
    """One entry of a `history` page (CONTROL.md, "history"): the operation `op` in words."""
    entry = {"cursor": cursor(op["lamport"], op["origin"], op["seq"]), "at": op["at"], "peer": op["origin"],
             "by": NAMES[op["origin"]], "op": op["op"], "known": known, "text": text}
    if movie:
        entry.update(movieId=movie["id"], **{key: movie[key] for key in ("title", "year") if key in movie})
    return entry


# --- picks of tonight's movie (PEER.md, "Picks") -----------------------------------------------

U64 = (1 << 64) - 1


def fnv1a64(text: str) -> int:
    """FNV-1a, 64 bits, of the UTF-8 of `text` (PEER.md, "The deck")."""
    value = 0xCBF29CE484222325
    for byte in text.encode("utf-8"):
        value = ((value ^ byte) * 0x100000001B3) & U64
    return value


def splitmix64(seed: int):
    """SplitMix64's numbers from `seed`: the state grows by 0x9e3779b97f4a7c15 before each one."""
    state = seed
    while True:
        state = (state + 0x9E3779B97F4A7C15) & U64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & U64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & U64
        yield z ^ (z >> 31)


def shuffled_deck(movies: list, origin: str, seq: int) -> list:
    """`movies` in the order the opening `origin`/`seq` seeds, cut to 200 (PEER.md, "The deck"): Fisher-Yates
    from the last position down, position i swapping with next() % (i + 1), next() being SplitMix64 seeded
    with FNV-1a of "<origin>/<seq>". Written from PEER.md's words; the Swift tests check PickDeck agrees."""
    deck = list(movies)
    numbers = splitmix64(fnv1a64(f"{origin}/{seq}"))
    for i in range(len(deck) - 1, 0, -1):
        j = next(numbers) % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck[:200]


# alice's seq 12 and 13: her `want` of Fight Club, which she had removed, adds it again first
# (control-response-marked-added.bin). Not in any frame: her pick chains on them.
WANT_OPS = chain([
    {"origin": ALICE, "seq": 12, "lamport": 21, "at": AT + 300_000, "by": "alice", "op": "add", "movie": FIGHT_CLUB},
    {"origin": ALICE, "seq": 13, "lamport": 22, "at": AT + 300_000, "by": "alice", "op": "mark", "movie": FIGHT_CLUB,
     "mark": {"kind": "want", "set": True}},
], previous=MARK_OPS[2])
INCEPTION = {"id": 27205}  # as its row: no title yet
FORREST_GUMP = {"id": 13, "title": "Forrest Gump", "year": 1994}
PULP_FICTION = {"id": 680, "title": "Pulp Fiction", "year": 1994}
DARK_KNIGHT = {"id": 155, "title": "The Dark Knight", "year": 2008}
TOY_STORY = {"id": 862, "title": "Toy Story", "year": 1995}
# What alice's `peerctl pick` finds on the list, most wanted first: what no voter has seen or vetoed.
PICK_CANDIDATES = [INCEPTION, FIGHT_CLUB, DARK_KNIGHT, PULP_FICTION, FORREST_GUMP, TOY_STORY]
# alice's seq 14 opens a majority pick of those six by alice, bob and zoë (`peerctl pick` with both
# connected): the deck in the order its own id seeds (PEER.md, "The deck", works it through).
PICK_DECK = shuffled_deck(PICK_CANDIDATES, ALICE, 14)
PICK_OPEN = sign({"origin": ALICE, "seq": 14, "lamport": 23, "at": AT + 400_000, "by": "alice", "op": "pick",
                  "movie": {"id": 1}, "pick": {"action": "open", "mode": "majority", "deck": PICK_DECK,
                                               "voters": sorted([ALICE, BOB, CAROL]), "source": "list"}},
                 WANT_OPS[1])
PICK_ID = {"origin": ALICE, "seq": 14}
SAM = {"id": "5e1f0c2a9b7d4e83", "name": "Sam"}  # a guest of alice's: she signs his vote


def pick_step(origin: str, seq: int, lamport: int, at: int, movie: dict, pick: dict = PICK_ID, **step) -> dict:
    """A vote, ranking or close of the pick `pick` (PEER.md, "Picks")."""
    return {"origin": origin, "seq": seq, "lamport": lamport, "at": at, "by": NAMES[origin], "op": "pick",
            "movie": movie, "pick": dict(step, pick=pick)}


# The steps, origins in ascending id order as a catch-up sends them (zoë, alice, bob). A vote on one's next
# movie carries the deck's movie as the opening wrote it (`peerctl vote yes`); one on a movie named carries
# its id (`peerctl vote yes 550`). alice signs Sam's vote and closes the pick. Fight Club has 3 yeses,
# Inception 2 (zoë's and Sam's), Toy Story 1: Fight Club is chosen.
PICK_CAROL = chain([
    pick_step(CAROL, 2, 24, AT + 410_000, PICK_DECK[0], action="vote", yes=True),
    pick_step(CAROL, 3, 25, AT + 411_000, PICK_DECK[1], action="vote", yes=True),
    pick_step(CAROL, 4, 28, AT + 420_000, {"id": 550}, action="vote", yes=True),
], previous=CAROL_OPS[0])
PICK_ALICE = chain([
    pick_step(ALICE, 15, 24, AT + 410_500, PICK_DECK[0], action="vote", yes=False),
    pick_step(ALICE, 16, 25, AT + 411_500, PICK_DECK[1], action="vote", yes=False),
    pick_step(ALICE, 17, 28, AT + 420_500, {"id": 550}, action="vote", yes=True),
    pick_step(ALICE, 18, 29, AT + 425_000, {"id": 27205}, action="vote", yes=True, guest=SAM),
    pick_step(ALICE, 19, 31, AT + 430_000, {"id": 1}, action="close"),
], previous=PICK_OPEN)
PICK_BOB = chain([
    pick_step(BOB, 10, 26, AT + 415_000, {"id": 550}, action="vote", yes=True),
    pick_step(BOB, 11, 30, AT + 426_000, {"id": 155}, action="vote", yes=False),
], previous=WATCH_OP)
PICK_VOTES = PICK_CAROL + PICK_ALICE + PICK_BOB
# zoë's seq 5 opens a ranked pick with bob (`peerctl pick --mode ranked --finalists 3 --with bob`): the three
# most wanted, in the order its id seeds. She ranks all three, bob two. The instant runoff drops Fight Club
# (no first preference), then Inception (tied with Forrest Gump, and later in the deck): Forrest Gump.
RANKED_DECK = shuffled_deck([INCEPTION, FIGHT_CLUB, FORREST_GUMP], CAROL, 5)
RANKED_ID = {"origin": CAROL, "seq": 5}
RANKED_OPS = chain([
    {"origin": CAROL, "seq": 5, "lamport": 32, "at": AT + 500_000, "by": "zoë", "op": "pick", "movie": {"id": 1},
     "pick": {"action": "open", "mode": "ranked", "deck": RANKED_DECK, "voters": sorted([BOB, CAROL]),
              "source": "list"}},
    pick_step(CAROL, 6, 33, AT + 510_000, {"id": 1}, RANKED_ID, action="rank", ranking=[27205, 550, 13]),
], previous=PICK_CAROL[-1]) + [
    sign(pick_step(BOB, 12, 34, AT + 520_000, {"id": 1}, RANKED_ID, action="rank", ranking=[13, 27205]),
         PICK_BOB[-1])]


# --- the group's membership (PEER.md, "Membership") ---------------------------------------------


def secret_fingerprint(secret: bytes) -> str:
    """A group secret's fingerprint (SECURITY.md, "Group secret"): the first 16 bytes of
    HKDF-SHA256(ikm: the secret's bytes, salt: "peerd group v1", info: "fingerprint"), in hex."""
    return HKDF(algorithm=hashes.SHA256(), length=16, salt=b"peerd group v1", info=b"fingerprint").derive(secret).hex()


# The group's new secret, once alice removed zoë: the file `head -c 32 /dev/urandom | base64` would write,
# here of the bytes 0 to 31. Its bytes are the 44 characters of base64, the line feed trimmed.
NEW_GROUP_SECRET = base64.b64encode(bytes(range(32)))
NEW_SECRET_FINGERPRINT = secret_fingerprint(NEW_GROUP_SECRET)


def member_op(seq: int, lamport: int, at: int, **step) -> dict:
    """alice's member operation `seq`: about the group, so its `movie` is {"id": 1}."""
    return {"origin": ALICE, "seq": seq, "lamport": lamport, "at": at, "by": "alice", "op": "member",
            "movie": {"id": 1}, "member": step}


# alice's seq 20 to 22, chained on her close of the pick: she records that she let bob in with an invite code;
# she removes zoë from the group, having seen zoë's chain up to its seq 6 (her ranked pick's ranking); and she
# records the group's new secret, which every member was restarted with, so that it admits new keys again.
MEMBER_OPS = chain([
    member_op(20, 35, AT + 700_000, action="admit", peer=BOB, via="invite", name="bob"),
    member_op(21, 36, AT + 800_000, action="remove", peer=CAROL, seen=RANKED_OPS[1]["seq"]),
    member_op(22, 37, AT + 900_000, action="secret", secret=NEW_SECRET_FINGERPRINT),
], previous=PICK_ALICE[-1])
ADMIT_OP, REMOVAL_OP, SECRET_OP = MEMBER_OPS


# --- news of wanted movies (PEER.md, "News") ----------------------------------------------------

# alice's seq 23, chained on her secret record: her check of The Matrix, whose turn is hers, found it on
# Netflix in DE, one of the group's services, and out to rent on Apple TV, where nobody offered it before
# (news of a lower kind). `providers` is TMDB's answer in the group's region, as a describe carries it;
# `read`, when TMDB answered; `movie`, the movie as its row holds it.
MATRIX_PROVIDERS_DE = {
    "region": "DE", "link": "https://www.themoviedb.org/movie/603-the-matrix/watch?locale=DE",
    "stream": [{"id": 8, "name": "Netflix", "logoPath": "/pbpMk2JmcoNnQwx5JGpXngfoWtp.jpg"}],
    "rent": [{"id": 2, "name": "Apple TV"}],
}
NEWS_READ = AT + 999_400
NEWS_OP = sign({"origin": ALICE, "seq": 23, "lamport": 38, "at": AT + 1_000_000, "by": "alice", "op": "news",
                "movie": MATRIX, "news": {"changes": [
                    {"change": "arrived", "service": {"id": 8, "name": "Netflix"}},
                    {"change": "rent", "service": {"id": 2, "name": "Apple TV"}}],
                    "providers": MATRIX_PROVIDERS_DE, "read": NEWS_READ}}, SECRET_OP)
NEWS_ATTRIBUTION = "Where to watch: data by JustWatch, through TMDB"
# The reports as `news` shows them to alice (CONTROL.md, "news"): hers of The Matrix, which bob wants and she
# has not looked at yet, and an earlier one of bob's, Fight Club leaving MUBI, which she wants and has seen.
NEWS_MATRIX = {"operation": {"origin": ALICE, "seq": 23}, "cursor": cursor(38, ALICE, 23), "movieId": 603,
               "title": "The Matrix", "year": 1999, "posterPath": "/f89U3ADr1oiB1s9GkdPOEpXUk5H.jpg",
               "region": "DE", "changes": [{"change": "arrived", "service": "Netflix", "serviceId": 8},
                                           {"change": "rent", "service": "Apple TV", "serviceId": 2}],
               "lines": ["The Matrix (1999) is now on Netflix (DE)",
                         "The Matrix (1999) is out to rent on Apple TV (DE)"],
               "wantedBy": ["bob"], "read": NEWS_READ, "reportedBy": "alice",
               "link": MATRIX_PROVIDERS_DE["link"], "unread": True}
NEWS_FIGHT_CLUB = {"operation": {"origin": BOB, "seq": 13}, "cursor": cursor(36, BOB, 13), "movieId": 550,
                   "title": "Fight Club", "year": 1999, "region": "DE",
                   "changes": [{"change": "left", "service": "MUBI", "serviceId": 11}],
                   "lines": ["Fight Club (1999) left MUBI (DE)"], "wantedBy": ["alice"], "read": AT + 850_000,
                   "reportedBy": "bob", "unread": False}


# --- relays and reach (PEER.md, "Relays and reach") --------------------------------------------------

def device_id(digest: bytes) -> str:
    """Syncthing's text form of a device id (its lib/protocol): the 32-byte digest in base32 without padding,
    a check character (Syncthing's Luhn mod 32) after each 13 characters, in groups of 7 joined by dashes."""
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"

    def check(chunk: str) -> str:
        factor, total = 1, 0
        for ch in chunk:
            addend = factor * alphabet.index(ch)
            factor = 1 if factor == 2 else 2
            total += addend // 32 + addend % 32
        return alphabet[(32 - total % 32) % 32]

    text = base64.b32encode(digest).decode().rstrip("=")
    checked = "".join(text[i:i + 13] + check(text[i:i + 13]) for i in range(0, 52, 13))
    return "-".join(checked[i:i + 7] for i in range(0, 56, 7))


# A private relay (`strelaysrv -pools=""`) on a friend's server: its URL as strelaysrv prints it, with the
# relay's own device id. alice's seq 24, chained on her news, makes it the group's one relay; her seq 25 tells
# the group how to reach her machine: its LAN and overlay addresses, best first, and its device id on relays
# (here of a stand-in digest; peerd's is the SHA-256 of the certificate it presents to relays).
RELAY_URL = "relay://198.51.100.10:22067/?id=" + device_id(hashlib.sha256(b"peerd golden relay").digest())
ALICE_DEVICE = device_id(hashlib.sha256(b"peerd golden alice certificate").digest())
RELAYS_OP = sign({"origin": ALICE, "seq": 24, "lamport": 39, "at": AT + 1_100_000, "by": "alice", "op": "relays",
                  "movie": {"id": 1}, "relays": [RELAY_URL]}, NEWS_OP)
REACH_OP = sign({"origin": ALICE, "seq": 25, "lamport": 40, "at": AT + 1_100_500, "by": "alice", "op": "reach",
                 "movie": {"id": 1}, "reach": {"addresses": ["192.168.1.20:7820", "[fd00::20]:7820"],
                                               "device": ALICE_DEVICE}}, RELAYS_OP)


def pick_card(movie: dict, yeses: int | None = None, **shown) -> dict:
    """One movie of a `pickState`'s deck (CONTROL.md, "pick"): `wantedBy` always, `yeses` once the pick ended."""
    card = {"movieId": movie["id"], "wantedBy": []}
    card.update({key: movie[key] for key in ("title", "year") if key in movie})
    card.update(shown)
    if yeses is not None:
        card["yeses"] = yeses
    return card


def pick_voter(peer: str | None, name: str, voted: int) -> dict:
    voter = {"name": name, "guest": peer is None, "voted": voted}
    if peer:
        voter["peer"] = peer
    return voter


FIGHT_CLUB_SHOWN = {"posterPath": "/pB8BM7pdSp6B6Ih7QZ4DrQ3PmJK.jpg", "runtime": 139,
                    "overview": "A ticking-time-bomb insomniac and a slippery soap salesman channel primal male "
                                "aggression into a shocking new form of therapy.", "wantedBy": ["alice"]}
SHOWN = {27205: {"wantedBy": ["zoë", "bob"]}, 550: FIGHT_CLUB_SHOWN}


def majority_pick(yeses: list | None, **fields) -> dict:
    """alice's majority pick as `pickState` shows it to alice: `yeses` per deck movie once it ended."""
    deck = [pick_card(movie, None if yeses is None else yeses[i], **SHOWN.get(movie["id"], {}))
            for i, movie in enumerate(PICK_DECK)]
    return dict({"type": "pickState", "pick": PICK_ID, "mode": "majority", "source": "list", "openedBy": "alice",
                 "openedAt": PICK_OPEN["at"], "deck": deck}, **fields)


# Toy Story: zoë; Inception: zoë and Sam; Fight Club: zoë, alice, bob.
PICK_YESES = [{862: 1, 27205: 2, 550: 3}.get(movie["id"], 0) for movie in PICK_DECK]
# alice's view before Sam's vote, bob's second and the close: she voted on the first two and Fight Club.
PICK_VOTING = majority_pick(None, open=True, outcome="voting",
                            voters=[pick_voter(CAROL, "zoë", 3), pick_voter(ALICE, "alice", 3),
                                    pick_voter(BOB, "bob", 1)],
                            next=pick_card(PICK_DECK[2], **SHOWN.get(PICK_DECK[2]["id"], {})))
PICK_CHOSEN = majority_pick(PICK_YESES, open=False, outcome="chosen",
                            voters=[pick_voter(CAROL, "zoë", 3), pick_voter(ALICE, "alice", 3),
                                    pick_voter(BOB, "bob", 2), pick_voter(None, "Sam", 1)],
                            result=pick_card(FIGHT_CLUB, 3, **FIGHT_CLUB_SHOWN))
PICK_RANKED = {"type": "pickState", "pick": RANKED_ID, "mode": "ranked", "source": "list", "openedBy": "zoë",
               "openedAt": RANKED_OPS[0]["at"], "open": True, "outcome": "chosen",
               "deck": [pick_card(movie, 0, **SHOWN.get(movie["id"], {})) for movie in RANKED_DECK],
               "voters": [pick_voter(CAROL, "zoë", 3), pick_voter(BOB, "bob", 3)],
               "result": pick_card(FORREST_GUMP, 0)}
# bob's unanimous pick of TMDB's comedies with zoë (`peerctl pick --mode unanimous --deck genre:comedy --with
# zoë`): both went through the deck, and no movie got both yeses.
PICK_NONE = {"type": "pickState", "pick": {"origin": BOB, "seq": 13}, "mode": "unanimous", "source": "genre:comedy",
             "openedBy": "bob", "openedAt": AT + 600_000, "open": True, "outcome": "none",
             "deck": [pick_card({"id": 9377, "title": "Ferris Bueller's Day Off", "year": 1986}, 1),
                      pick_card({"id": 8467, "title": "Dumb and Dumber", "year": 1994}, 1)],
             "voters": [pick_voter(CAROL, "zoë", 2), pick_voter(BOB, "bob", 2)]}


DIAGNOSIS = {
    "type": "diagnosis", "at": AT, "peer": ALICE, "name": "alice", "port": 7820, "listenAddress": "::",
    "stateDir": "/home/alice/.local/state/peerd", "socket": "/run/user/1000/peerd/control.sock",
    "discovery": {"mdns": True, "avahi": "running", "hostName": "alice-laptop.local", "service": "alice",
                  "registered": True, "selfSeen": True, "hostResolved": True, "hostAddress": "192.168.1.10",
                  "services": [
                      {"name": "bob", "peer": BOB, "addresses": ["192.168.1.20:7820", "[fe80::1%eth0]:7820"],
                       "at": AT - 1_000_000},
                      {"name": "old peerd", "note": f"speaks peer protocol {PEER_VERSION - 1}, not {PEER_VERSION}",
                       "addresses": ["192.168.1.40:7601"], "at": AT - 500_000}]},
    "dials": [
        {"address": "192.168.1.30:7820", "peer": DAVE, "expected": DAVE, "at": AT - 10_000, "stage": "tcp",
         "outcome": "timeout", "message": "timed out connecting to 192.168.1.30:7820 (a firewall?)"},
        {"address": "192.168.1.66:7820", "peer": MALLORY, "at": AT - 5_000, "stage": "admission",
         "outcome": "not-member", "by": "peer",
         "message": "refused by the peer: not a member — pair with peerctl invite / peerctl join, "
                    "or share the group secret"}],
    "refusals": [
        {"address": "192.168.1.66:51414", "peer": MALLORY, "at": AT - 2_000, "code": "not-member",
         "message": "not a member: pair first with 'peerctl invite' and 'peerctl join', or share a group secret"}],
    "inbound": [{"peer": BOB, "name": "bob", "address": "192.168.1.20:51000", "port": 7820, "at": AT - 3_600_000}],
    "sessions": [{"peer": BOB, "name": "bob", "address": "192.168.1.20:51000", "port": 7820, "direction": "inbound",
                  "since": AT - 3_600_000, "skewMs": -120}],
}

# What alice's `peerctl members` shows once she removed zoë (CONTROL.md, "members"), before the new secret's
# record: alice herself, a founding member (no admission; `since` her first operation); bob, whom she let in
# with an invite; zoë, removed, whose admission was never recorded (she joined before version 3).
MEMBERS = {"type": "members", "members": [
    {"peer": CAROL, "name": "zoë", "here": False, "state": "removed", "connected": False,
     "since": CAROL_OPS[0]["at"], "removedBy": ALICE, "removedByName": "alice", "removedAt": REMOVAL_OP["at"],
     "seen": REMOVAL_OP["member"]["seen"]},
    {"peer": ALICE, "name": "alice", "here": True, "state": "member", "connected": False,
     "since": ALICE_OPS[0]["at"]},
    {"peer": BOB, "name": "bob", "here": False, "state": "member", "connected": True, "admittedBy": ALICE,
     "admittedByName": "alice", "via": "invite", "since": ADMIT_OP["at"]}],
    "secretClosed": "the group secret admits no new member since alice removed zoë; give every member a new "
                    "secret file and restart it to admit by secret again"}

# --- valid frames: <socket>-<type>[-variant] -> body ---------------------------------------------

VALID = {
    # peer protocol
    "peer-hello": {"type": "hello", "version": PEER_VERSION, "peer": ALICE, "name": "alice", "port": 7820,
                   "vector": {ALICE: 5, BOB: 6}, "time": AT},
    "peer-hello-empty-vector": {"type": "hello", "version": PEER_VERSION, "peer": CAROL, "name": "zoë", "port": 7821,
                                "vector": {}},
    "peer-hello-tree": {"type": "hello", "version": PEER_VERSION, "peer": BOB, "name": "bob", "port": 7820,
                        "vector": {ALICE: 5, BOB: 6}, "time": AT, "tree": True},
    "peer-ops": {"type": "ops", "ops": [ADD_OP, REMOVE_OP]},
    "peer-ops-id-only": {"type": "ops", "ops": [BOB_OPS[5]]},
    "peer-ops-unicode": {"type": "ops", "ops": [CAROL_OPS[0]]},
    "peer-ops-later-version": {"type": "ops", "ops": BOB_LATER_OPS},
    "peer-ops-describe": {"type": "ops", "ops": [DESCRIBE_OP]},
    "peer-ops-describe-providers": {"type": "ops", "ops": [DESCRIBE_PROVIDERS_OP]},
    "peer-ops-settings": {"type": "ops", "ops": [SETTINGS_OP]},
    "peer-ops-mark": {"type": "ops", "ops": MARK_OPS},
    "peer-ops-watch": {"type": "ops", "ops": [WATCH_OP]},
    "peer-ops-pick-open": {"type": "ops", "ops": [PICK_OPEN]},
    "peer-ops-pick-votes": {"type": "ops", "ops": PICK_VOTES},
    "peer-ops-pick-ranked": {"type": "ops", "ops": RANKED_OPS},
    "peer-ops-member-admit": {"type": "ops", "ops": [ADMIT_OP]},
    "peer-ops-member-remove": {"type": "ops", "ops": [REMOVAL_OP]},
    "peer-ops-member-secret": {"type": "ops", "ops": [SECRET_OP]},
    "peer-ops-news": {"type": "ops", "ops": [NEWS_OP]},
    "peer-ops-relays": {"type": "ops", "ops": [RELAYS_OP]},
    "peer-ops-reach": {"type": "ops", "ops": [REACH_OP]},
    "peer-ping": {"type": "ping"},
    "peer-pong": {"type": "pong"},
    "peer-error": {"type": "error", "code": "invalid-operation",
                   "message": f"operation {BOB[:8]}/9 arrived before {BOB[:8]}/8; expected seq 8"},
    "peer-error-duplicate-session": {"type": "error", "code": "duplicate-session",
                                     "message": f"a session with peer {BOB[:8]} is already established"},
    "peer-members": {"type": "members", "members": [
        {"peer": ALICE, "name": "alice"}, {"peer": BOB, "name": "bob"}, {"peer": CAROL}]},
    "peer-error-rate-limited": {"type": "error", "code": "rate-limited",
                                "message": "more than 2000 frames a second (burst 2000)"},
    # the relay tree (PEER.md, "Relay tree"): what bob holds, announced where he pushes lazily; origins
    # sorted as peerd sends them.
    "peer-have": {"type": "have", "vector": {ALICE: 6, BOB: 8, CAROL: 1}},
    "peer-prune": {"type": "prune", "origins": sorted([ALICE, CAROL])},
    "peer-graft": {"type": "graft", "origins": [ALICE]},
    # catalog queries (PEER.md, "Catalog queries"): bob, without a TMDB token, asks alice, who holds one.
    "peer-hello-catalog": {"type": "hello", "version": PEER_VERSION, "peer": ALICE, "name": "alice", "port": 7820,
                           "vector": {ALICE: 5, BOB: 6}, "time": AT, "tree": True, "catalog": True},
    "peer-query": {"type": "query", "id": 7, "kind": "search", "text": "matrix", "page": 1},
    "peer-query-year": {"type": "query", "id": 8, "kind": "search", "text": "dune", "year": 2021, "page": 2},
    "peer-answer": {"type": "answer", "id": 7, "search": SEARCH_PAGE},
    "peer-answer-error": {"type": "answer", "id": 9, "error": {
        "code": "rate-limited", "message": "too many queries from one peer; try again in 2 s"}},
    "peer-query-discover": {"type": "query", "id": 10, "kind": "discover", "list": "top-rated", "genre": 18,
                            "maxRuntime": 120, "page": 1},
    "peer-query-similar": {"type": "query", "id": 11, "kind": "similar", "movie": 603, "page": 1},
    "peer-query-genres": {"type": "query", "id": 12, "kind": "genres"},
    "peer-answer-movies": {"type": "answer", "id": 11, "movies": SIMILAR_PAGE},
    "peer-answer-genres": {"type": "answer", "id": 12, "genres": GENRES},
    "peer-query-providers": {"type": "query", "id": 13, "kind": "providers", "region": "DE"},
    "peer-query-find": {"type": "query", "id": 14, "kind": "find", "imdb": "tt0133093"},
    "peer-answer-providers": {"type": "answer", "id": 13, "providers": DE_PROVIDERS},
    # lists (PEER.md, "How a list travels"): alice opens her list "friends" with bob, whose hello said
    # `lists`; its vector is the list's own, then she catches him up on the list's operations.
    "peer-hello-lists": {"type": "hello", "version": PEER_VERSION, "peer": ALICE, "name": "alice", "port": 7820,
                         "vector": {ALICE: 5, BOB: 6}, "time": AT, "tree": True, "lists": True},
    "peer-list-hello": {"type": "list", "list": LIST_ID, "message": {
        "type": "hello", "version": PEER_VERSION, "peer": ALICE, "name": "alice", "port": 7820, "vector": {ALICE: 2},
        "time": AT + 420_000, "tree": True, "lists": True}},
    "peer-list-ops": {"type": "list", "list": LIST_ID, "message": {"type": "ops", "ops": LIST_OPS}},
    "peer-list-error": {"type": "list", "list": LIST_ID, "message": {
        "type": "error", "code": "forbidden", "message": "no member of this list lives on your machine any more"}},
    "peer-query-certification": {"type": "query", "id": 15, "kind": "certification", "movie": 603, "region": "US"},
    "peer-answer-certification": {"type": "answer", "id": 15, "certification": {
        "region": "US", "certification": "R", "order": ["G", "PG", "PG-13", "R", "NC-17"]}},
    # control requests
    "control-request-add": {"type": "add", "version": 1, "movie": MATRIX},
    "control-request-add-id-only": {"type": "add", "version": 1, "movie": {"id": 27205}},
    "control-request-remove": {"type": "remove", "version": 1, "movie": 550},
    "control-request-list": {"type": "list", "version": 1},
    "control-request-list-page": {"type": "list", "version": 1, "limit": 2, "after": cursor(9, ALICE, 4)},
    "control-request-list-streaming": {"type": "list", "version": 1, "streaming": True},
    "control-request-list-unseen": {"type": "list", "version": 1, "unseen": True, "by": ["alice", "bob"],
                                    "sort": "wants", "limit": 2},
    "control-request-list-wanted": {"type": "list", "version": 1, "wantedBy": ["me"], "sort": "rating", "limit": 2,
                                    "after": "+2"},
    "control-request-mark": {"type": "mark", "version": 1, "movie": {"id": 603},
                             "marks": [{"kind": "seen", "on": SEEN_DAY, "set": True},
                                       {"kind": "rating", "rating": 8, "set": True}]},
    "control-request-mark-want": {"type": "mark", "version": 1, "movie": FIGHT_CLUB,
                                  "marks": [{"kind": "want", "set": True}]},
    "control-request-mark-clear": {"type": "mark", "version": 1, "movie": {"id": 603},
                                   "marks": [{"kind": kind, "set": False}
                                             for kind in ("want", "seen", "rating", "veto")]},
    "control-request-watch": {"type": "watch", "version": 1, "movie": {"id": 603}, "with": ["alice"], "on": SEEN_DAY},
    "control-request-watch-alone": {"type": "watch", "version": 1, "movie": {"id": 603}},
    "control-request-history": {"type": "history", "version": 1},
    "control-request-history-movie": {"type": "history", "version": 1, "movie": 603, "since": AT - 604_800_000,
                                      "limit": 100, "before": cursor(20, BOB, 9)},
    # picks (CONTROL.md, "pick"): peerd leaves out what is the default (majority, the list, not streaming).
    "control-request-pick": {"type": "pick", "version": 1},
    "control-request-pick-unanimous": {"type": "pick", "version": 1, "mode": "unanimous", "maxRuntime": 120,
                                       "genre": "Comedy", "streaming": True, "with": ["bob", "zoë"]},
    "control-request-pick-ranked": {"type": "pick", "version": 1, "mode": "ranked", "finalists": 3, "with": ["bob"]},
    "control-request-pick-deck": {"type": "pick", "version": 1, "mode": "unanimous", "deck": "genre:comedy",
                                  "with": ["zoë"]},
    "control-request-vote": {"type": "vote", "version": 1, "yes": True},
    "control-request-vote-movie": {"type": "vote", "version": 1, "pick": PICK_ID, "movie": 155, "yes": False},
    "control-request-vote-rank": {"type": "vote", "version": 1, "ranking": [27205, 550, 13]},
    "control-request-pickStatus": {"type": "pickStatus", "version": 1},
    "control-request-pickStatus-named": {"type": "pickStatus", "version": 1, "pick": RANKED_ID},
    "control-request-pickClose": {"type": "pickClose", "version": 1},
    "control-request-follow": {"type": "follow", "version": 1},
    "control-request-news": {"type": "news", "version": 1, "looked": True},
    "control-request-news-count": {"type": "news", "version": 1, "limit": 0},
    "control-request-news-follow": {"type": "news", "version": 1, "limit": 10, "looked": True, "follow": True},
    "control-request-relay": {"type": "relay", "version": 1},
    "control-request-relay-add": {"type": "relay", "version": 1, "add": RELAY_URL + "&pingInterval=45s"},
    "control-request-peers": {"type": "peers", "version": 1},
    "control-request-status": {"type": "status", "version": 1},
    "control-request-connect": {"type": "connect", "version": 1, "address": "bob-laptop.local:7820"},
    "control-request-connect-ipv6": {"type": "connect", "version": 1, "address": "[fe80::1%eth0]:7820"},
    "control-request-invite": {"type": "invite", "version": 1, "expiresIn": 600},
    "control-request-invite-default": {"type": "invite", "version": 1},
    "control-request-join": {"type": "join", "version": 1, "code": ALICE_INVITE},
    "control-request-join-address": {"type": "join", "version": 1, "code": ALICE_INVITE,
                                     "address": "192.168.1.10:7820"},
    "control-request-forget": {"type": "forget", "version": 1, "peer": "bob"},
    "control-request-forget-prefix": {"type": "forget", "version": 1, "peer": BOB[:8]},
    "control-request-trust": {"type": "trust", "version": 1, "peer": BOB},
    "control-request-members": {"type": "members", "version": 1},
    "control-request-removeMember": {"type": "removeMember", "version": 1, "peer": "zoë"},
    "control-request-profiles": {"type": "profiles", "version": 1},
    "control-request-addProfile": {"type": "addProfile", "version": 1, "name": "sam"},
    "control-request-mark-as-profile": {"type": "mark", "version": 1, "profile": "sam", "movie": {"id": 603},
                                        "marks": [{"kind": "want", "set": True}]},
    "control-request-lists": {"type": "lists", "version": 1},
    "control-request-listCreate": {"type": "listCreate", "version": 1, "name": "kids", "members": ["bob", "sam"],
                                   "maxCertification": "PG"},
    "control-request-listMember": {"type": "listMember", "version": 1, "list": "friends", "member": "bob",
                                   "action": "add"},
    "control-request-add-in-list": {"type": "add", "version": 1, "inList": "friends", "movie": {"id": 603}},
    "control-request-discover-in-list": {"type": "discover", "version": 1, "inList": "kids", "list": "popular"},
    "control-request-search": {"type": "search", "version": 1, "query": "the matrix", "year": 1999, "page": 1},
    "control-request-search-words": {"type": "search", "version": 1, "query": "matrix"},
    # peerd writes `list` even for the default, popular, so a discover always has it.
    "control-request-discover": {"type": "discover", "version": 1, "list": "popular"},
    "control-request-discover-filters": {"type": "discover", "version": 1, "list": "top-rated", "genre": 35,
                                         "year": 1999, "maxRuntime": 110, "minRating": 7.5, "page": 2},
    "control-request-similar": {"type": "similar", "version": 1, "movie": 603, "page": 1},
    "control-request-genres": {"type": "genres", "version": 1},
    "control-request-services": {"type": "services", "version": 1},
    "control-request-services-set": {"type": "services", "version": 1, "region": "DE", "services": ["netflix", "mubi"]},
    "control-request-show": {"type": "show", "version": 1, "movie": 603},
    "control-request-refresh": {"type": "refresh", "version": 1, "movie": 603},
    "control-request-refresh-all": {"type": "refresh", "version": 1},
    "control-request-import": {"type": "import", "version": 1, "dryRun": False,
                               "id": "5f2b9c4e8a7d1036b4e2c9f0a1d8e7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a29180", "rows": [
                                   {"line": 2, "title": "The Matrix", "year": 1999, "list": False, "want": True,
                                    "seen": False, "veto": False},
                                   {"file": "diary.csv", "line": 3, "title": "Fight Club", "year": 1999,
                                    "list": False, "want": False, "seen": True, "seenOn": "2023-05-01", "rating": 9,
                                    "veto": False},
                                   {"line": 4, "imdb": "tt0816692", "list": False, "want": True, "seen": False,
                                    "veto": False},
                                   {"line": 5, "tmdb": 550, "list": True, "want": False, "seen": False,
                                    "veto": False}]},
    "control-request-page": {"type": "page", "version": 1},
    "control-request-deviceLink": {"type": "deviceLink", "version": 1, "expiresIn": 600},
    "control-request-deviceLink-named": {"type": "deviceLink", "version": 1, "profile": "sam",
                                         "name": "living-room TV", "expiresIn": 1800},
    "control-request-deviceList": {"type": "deviceList", "version": 1},
    "control-request-deviceUnlink": {"type": "deviceUnlink", "version": 1, "device": "sam's phone"},
    "control-request-diagnose": {"type": "diagnose", "version": 1},
    # control responses
    "control-response-added": {"type": "added", "movie": MATRIX_ROW, "operation": {"origin": ALICE, "seq": 4}},
    "control-response-added-already-listed": {"type": "added", "movie": MATRIX_ROW_TWO_ADDERS},
    "control-response-removed": {"type": "removed", "movie": FIGHT_CLUB, "operation": {"origin": ALICE, "seq": 5}},
    "control-response-list": {"type": "list", "movies": [MATRIX_ROW, INCEPTION_ROW], "total": 3,
                              "next": INCEPTION_ROW["cursor"]},
    "control-response-list-last-page": {"type": "list", "movies": [AMELIE_ROW], "total": 3},
    "control-response-list-empty": {"type": "list", "movies": [], "total": 0},
    "control-response-list-streaming": {"type": "list", "movies": [dict(MATRIX_ROW, streamingOn="Netflix")], "total": 1},
    "control-response-list-unseen": {"type": "list", "total": 3, "next": "+2", "movies": [
        dict(INCEPTION_ROW, marks=[member_marks(CAROL, "zoë", want=True), member_marks(BOB, "bob", want=True)]),
        dict(AMELIE_ROW, marks=[member_marks(ALICE, "alice", want=True), member_marks(BOB, "bob", veto=True)])]},
    "control-response-marked": {"type": "marked", "movieId": 603, "movie": MATRIX_ROW_MARKED, "made": 2,
                                "added": False},
    "control-response-marked-added": {"type": "marked", "movieId": 550, "movie": FIGHT_CLUB_ROW, "made": 2,
                                      "added": True},
    "control-response-marked-unlisted": {"type": "marked", "movieId": 680, "made": 1, "added": False},
    "control-response-history": {"type": "history", "next": cursor(14, BOB, 8), "entries": [
        history_entry(WATCH_OP, "bob logged a watch of The Matrix (1999) on 2025-11-20 with alice, bob"),
        history_entry(MARK_OPS[2], "alice no longer wants to watch The Matrix (1999)"),
        history_entry(MARK_OPS[1], "alice rated The Matrix (1999) 8/10"),
        history_entry(MARK_OPS[0], "alice has seen The Matrix (1999) (on 2025-11-20)"),
        history_entry(SETTINGS_OP, "alice set the group's region to DE and its services to Netflix, MUBI",
                      movie=None),
        history_entry(DESCRIBE_PROVIDERS_OP, "alice fetched TMDB's details of The Matrix (1999)"),
        history_entry(BOB_LATER_OPS[1], "bob made an operation this peerd doesn't know (“rate”) about The Matrix "
                                        "(1999)", known=False)]},
    "control-response-history-empty": {"type": "history", "entries": []},
    "control-response-history-pick": {"type": "history", "next": cursor(28, ALICE, 17), "entries": [
        history_entry(PICK_ALICE[4], "alice closed the pick", movie=None),
        history_entry(PICK_ALICE[3], "Sam (a guest of alice) voted on movie 27205", movie=INCEPTION),
        history_entry(PICK_ALICE[2], "alice voted on Fight Club (1999)", movie=FIGHT_CLUB)]},
    "control-response-pickState": PICK_VOTING,
    "control-response-pickState-chosen": PICK_CHOSEN,
    "control-response-pickState-ranked": PICK_RANKED,
    "control-response-pickState-none": PICK_NONE,
    "control-response-error-pick-closed": {"type": "error", "code": "bad-request",
                                           "message": "the pick is closed; its result stands: Fight Club (550). "
                                                      "Open a new one with `peerctl pick`"},
    "control-response-following": {"type": "following"},
    "control-response-relays": {"type": "relays", "relays": [
        {"url": RELAY_URL, "address": "198.51.100.10:22067", "state": "joined", "joinedSince": AT, "latencyMs": 12.5,
         "sessions": 2}]},
    "control-response-relays-retrying": {"type": "relays", "relays": [
        {"url": RELAY_URL, "address": "198.51.100.10:22067", "state": "retrying",
         "lastError": "could not reach the relay: connection refused", "retryIn": 4.5, "sessions": 0}]},
    "control-response-news": {"type": "news", "items": [NEWS_MATRIX, NEWS_FIGHT_CLUB], "unread": 1, "total": 2,
                              "attribution": NEWS_ATTRIBUTION},
    "control-response-news-count": {"type": "news", "items": [], "unread": 1, "total": 2,
                                    "attribution": NEWS_ATTRIBUTION},
    "control-response-news-follow": {"type": "news", "items": [NEWS_MATRIX], "unread": 1, "total": 2,
                                     "attribution": NEWS_ATTRIBUTION},
    "control-response-change-added": {"type": "change", "change": "added", "movieId": 603, "title": "The Matrix",
                                      "year": 1999, "by": "alice", "peer": ALICE, "at": AT, "row": MATRIX_ROW, "op": "add"},
    "control-response-change-updated": {"type": "change", "change": "updated", "movieId": 603, "title": "The Matrix",
                                        "year": 1999, "by": "bob", "peer": BOB, "at": AT + 30_000,
                                        "row": MATRIX_ROW_TWO_ADDERS, "op": "add"},
    "control-response-change-updated-marks": {"type": "change", "change": "updated", "movieId": 603,
                                              "title": "The Matrix", "year": 1999, "by": "bob", "peer": BOB,
                                              "at": WATCH_OP["at"], "row": MATRIX_ROW_WATCHED, "op": "watch"},
    "control-response-change-removed": {"type": "change", "change": "removed", "movieId": 550, "title": "Fight Club",
                                        "year": 1999, "by": "alice", "peer": ALICE, "at": AT + 5_000,
                                        "op": "remove"},
    "control-response-peers": {"type": "peers", "peers": [
        {"peer": BOB, "name": "bob", "address": "192.168.1.20:7820",
         "addresses": ["192.168.1.20:7820", "[fe80::1%eth0]:7820"], "source": "mdns", "state": "connected",
         "connectedSince": AT - 3_600_000, "lastSeen": AT, "opsSent": 12, "opsReceived": 40},
        {"address": "carol.example.net:7820", "addresses": ["carol.example.net:7820"], "source": "static",
         "state": "retrying", "opsSent": 0, "opsReceived": 0, "lastError": "connection refused", "retryIn": 7.5},
        {"peer": CAROL, "name": "dave", "addresses": [], "source": "relay", "state": "relayed", "opsSent": 0,
         "opsReceived": 0},
    ]},
    "control-response-peers-empty": {"type": "peers", "peers": []},
    "control-response-status": {"type": "status", "peer": ALICE, "name": "alice", "port": 7820, "movies": 3,
                                "operations": 11, "peersConnected": 1, "peersKnown": 2, "uptimeSeconds": 3725.25,
                                "stateDir": "/home/alice/.local/state/peerd",
                                "socket": "/run/user/1000/peerd/control.sock", "mdns": True, "version": "0.1.0",
                                "protocolVersion": PEER_VERSION, "tmdb": True, "search": True,
                                "web": "http://127.0.0.1:7602/"},
    "control-response-connecting": {"type": "connecting", "address": "bob-laptop.local:7820"},
    "control-response-peers-trust": {"type": "peers", "peers": [
        {"peer": BOB, "name": "bob", "address": "192.168.1.20:7820", "addresses": ["192.168.1.20:7820"],
         "source": "mdns", "state": "connected", "trust": "member", "connectedSince": AT - 3_600_000,
         "lastSeen": AT, "opsSent": 12, "opsReceived": 40},
        {"peer": "d00d0123456789abcdef0123456789ab", "name": "mallory", "address": "192.168.1.66:7820",
         "addresses": ["192.168.1.66:7820"], "source": "mdns", "state": "untrusted", "trust": "untrusted",
         "opsSent": 0, "opsReceived": 0},
        {"peer": CAROL, "name": "zoë", "addresses": [], "source": "relay", "state": "relayed", "trust": "revoked",
         "opsSent": 0, "opsReceived": 0},
    ]},
    "control-response-invite": {"type": "invite", "code": ALICE_INVITE, "expiresAt": AT + 600_000},
    "control-response-joined": {"type": "joined", "peer": ALICE, "name": "alice", "members": 3},
    "control-response-joined-no-name": {"type": "joined", "peer": ALICE, "members": 1},
    "control-response-forgotten": {"type": "forgotten", "peer": BOB, "name": "bob"},
    "control-response-forgotten-no-name": {"type": "forgotten", "peer": CAROL},
    "control-response-trusted": {"type": "trusted", "peer": BOB},
    "control-response-members": MEMBERS,
    "control-response-profileAdded": {"type": "profileAdded", "peer": DAVE, "name": "sam", "here": False,
                                      "state": "member", "connected": False, "admittedBy": ALICE,
                                      "admittedByName": "alice", "via": "profile", "since": AT},
    "control-response-lists": {"type": "lists", "lists": [GROUP_LIST, FRIENDS_LIST]},
    "control-response-listCreated": {"type": "listCreated", "list": dict(FRIENDS_LIST, movies=0)},
    "control-response-listChanged": {"type": "listChanged", "list": dict(FRIENDS_LIST, members=FRIENDS_LIST["members"]
                                                                       + [{"peer": BOB, "name": "bob"}])},
    "control-response-memberRemoved": {"type": "memberRemoved", "peer": CAROL, "name": "zoë",
                                       "seen": REMOVAL_OP["member"]["seen"], "closed": 1},
    "control-response-searchResults": dict(SEARCH_PAGE, type="searchResults"),
    "control-response-movies": dict(FILTERED_LIST, type="movies"),
    "control-response-movies-stale": dict(KEPT_LIST, type="movies"),
    "control-response-genres": {"type": "genres", "genres": GENRES, "fetchedAt": AT - 172_800_000},
    "control-response-services": {"type": "services", "region": "DE", "regionFrom": "group",
                                  "services": GROUP_SETTINGS["services"], "setBy": "alice", "setByPeer": ALICE,
                                  "setAt": SETTINGS_OP["at"]},
    "control-response-services-language": {"type": "services", "region": "US", "regionFrom": "language",
                                           "services": []},
    "control-response-shown": {"type": "shown", "movie": dict(MATRIX_ROW, posterPath=MATRIX_DETAILS["posterPath"]),
                               "details": dict(MATRIX_DETAILS, posterURL="https://image.tmdb.org/t/p/w500"
                                                                         "/f89U3ADr1oiB1s9GkdPOEpXUk5H.jpg"),
                               "describedBy": {"operation": {"origin": ALICE, "seq": 6}, "peer": ALICE,
                                               "name": "alice", "at": AT + 70_000}},
    "control-response-shown-providers": {"type": "shown",
                                         "movie": dict(MATRIX_ROW, posterPath=MATRIX_DETAILS["posterPath"]),
                                         "details": dict(MATRIX_DETAILS_PROVIDERS,
                                                         posterURL="https://image.tmdb.org/t/p/w500"
                                                                   "/f89U3ADr1oiB1s9GkdPOEpXUk5H.jpg"),
                                         "describedBy": {"operation": {"origin": ALICE, "seq": 7}, "peer": ALICE,
                                                         "name": "alice", "at": AT + 90_000}},
    "control-response-shown-pending": {"type": "shown", "movie": INCEPTION_ROW,
                                       "pending": "waiting for a peer with a TMDB token to describe it "
                                                  "(this peerd has none)"},
    "control-response-refreshing": {"type": "refreshing", "movies": 1},
    "control-response-imported": {"type": "imported", "dryRun": False, "results": [
        {"line": 2, "outcome": "added", "movieId": 603, "title": "The Matrix", "year": 1999},
        {"file": "diary.csv", "line": 3, "outcome": "marked", "movieId": 550, "title": "Fight Club", "year": 1999},
        {"line": 4, "outcome": "unresolved", "reason": "TMDB has no movie for IMDb's tt0816692"},
        {"line": 5, "outcome": "already", "movieId": 550, "reason": "an earlier run of this import did it"}]},
    "control-response-page": {"type": "page", "url": "http://127.0.0.1:7602/#token=" + "9c1f" * 16},
    "control-response-deviceLink": {"type": "deviceLink", "url": "http://192.168.1.20:7604/link/uGRvtKEZ16TsOXojop-0RA",
                                    "expiresAt": 1763700600000, "member": "sam", "name": None},
    "control-response-devices": {"type": "devices", "devices": [
        {"id": "3f9a0c12", "name": "sam's phone", "member": "sam", "linkedAt": 1763700123000,
         "lastSeen": 1763703456000, "address": "192.168.1.31"},
        {"id": "b7e41d09", "name": "alice's TV", "member": "alice", "linkedAt": 1763700999000,
         "lastSeen": None, "address": "192.168.1.40"}]},
    "control-response-deviceUnlinked": {"type": "deviceUnlinked", "id": "3f9a0c12", "name": "sam's phone",
                                        "member": "sam", "linkedAt": 1763700123000, "lastSeen": 1763703456000,
                                        "address": "192.168.1.31"},
    "control-response-diagnosis": DIAGNOSIS,
    "control-response-diagnosis-no-mdns": {"type": "diagnosis", "at": AT, "peer": ALICE, "name": "alice",
                                           "port": 7820, "listenAddress": "::",
                                           "stateDir": "/home/alice/.local/state/peerd",
                                           "socket": "/run/user/1000/peerd/control.sock",
                                           "discovery": {"mdns": False, "avahi": "off"},
                                           "dials": [], "refusals": [], "inbound": [], "sessions": []},
    "control-response-error-unavailable": {"type": "error", "code": "unavailable",
                                           "message": "can't search: this peerd has no TMDB token; put one in "
                                                      "~/.config/peerd/tmdb.token (chmod 600) or set TMDB_TOKEN, "
                                                      "then restart peerd"},
    "control-response-error-upstream-failed": {"type": "error", "code": "upstream-failed",
                                               "message": "TMDB search for 'the matrix', page 2: TMDB answered 503 "
                                                          "(Service Unavailable); try again"},
    "control-response-error-timeout": {"type": "error", "code": "timeout",
                                       "message": f"could not pair with {ALICE[:8]} at 192.168.1.10:7820. "
                                                  "Codes expire; ask for a new one if needed."},
    "control-response-error": {"type": "error", "code": "not-listed", "message": "movie 550 is not on the list"},
    "control-response-error-bad-request": {"type": "error", "code": "bad-request",
                                           "message": "'9.nothex.4' is not a cursor from an earlier list page"},
}

# --- invalid frames: name -> (frame bytes, expected error code) ----------------------------------


MAX_STRING_BYTES = 4096  # WireCoding.maxStringBytes
MAX_ARRAY_ELEMENTS = 16384  # WireCoding.maxArrayElements
OVERLONG = "x" * (MAX_STRING_BYTES + 1)


def nested(depth: int) -> bytes:
    """A ping whose extra field nests arrays so the whole body is `depth` levels deep."""
    inner = depth - 1
    return b'{"type":"ping","deep":' + b"[" * inner + b"]" * inner + b"}"


INVALID = {
    "invalid-peer-zero-length": (struct.pack(">I", 0), "malformed-frame"),
    # Only the 4 header bytes: a receiver must refuse it before any body arrives.
    "invalid-peer-oversized-length": (b"\xff\xff\xff\xff", "frame-too-large"),
    "invalid-peer-over-limit-by-one": (struct.pack(">I", (1 << 20) + 1), "frame-too-large"),
    # The header promises 64 bytes; the stream ends after 15.
    "invalid-peer-truncated": (struct.pack(">I", 64) + b'{"type":"ping"}', "malformed-frame"),
    "invalid-peer-not-json": (frame(b"hello, peer"), "malformed-frame"),
    "invalid-peer-top-level-array": (frame(b'[{"type":"ping"}]'), "malformed-frame"),
    "invalid-peer-missing-type": (frame(b'{"version":1}'), "malformed-frame"),
    "invalid-peer-unknown-type": (frame(canonical({"type": "gossip"})), "unknown-type"),
    "invalid-peer-hello-version-99": (frame(canonical(
        {"type": "hello", "version": 99, "peer": ALICE, "name": "alice", "port": 7820, "vector": {}})),
        "unsupported-version"),
    "invalid-peer-nested-17": (frame(nested(17)), "malformed-frame"),
    # A version 1 hello: version 1 receivers drop fields they do not know before they verify.
    "invalid-peer-hello-version-1": (frame(canonical(
        {"type": "hello", "version": 1, "peer": ALICE, "name": "alice", "port": 7820, "vector": {}})),
        "unsupported-version"),
    # A number with a fraction in a field the receiver does not know: operations hold integers only.
    "invalid-peer-ops-fraction": (frame(canonical(
        {"type": "ops", "ops": [dict(ADD_OP, rating=7.5)]})), "malformed-frame"),
    # 0xFF never occurs in UTF-8; here it sits in a field the receiver does not know.
    "invalid-peer-invalid-utf8": (frame(b'{"note":"\xff","type":"ping"}'), "malformed-frame"),
    "invalid-peer-ops-bad-origin": (frame(canonical(
        {"type": "ops", "ops": [dict(ADD_OP, origin="NOT-HEX")]})), "malformed-frame"),
    # One byte over the string limit, in a field the receiver does not know.
    "invalid-peer-string-over-limit": (frame(canonical({"type": "ping", "note": OVERLONG})), "malformed-frame"),
    # A title one byte over the string limit, in the shape the fast `ops` reader takes.
    "invalid-peer-ops-title-over-limit": (frame(canonical(
        {"type": "ops", "ops": [dict(ADD_OP, movie=dict(MATRIX, title=OVERLONG))]})), "malformed-frame"),
    # One element over the array limit, in a field the receiver does not know.
    "invalid-peer-array-over-limit": (frame(canonical({"type": "ping", "note": [0] * (MAX_ARRAY_ELEMENTS + 1)})),
                                      "malformed-frame"),
    "invalid-peer-members-bad-peer": (frame(canonical({"type": "members", "members": [{"peer": "NOT-HEX"}]})),
                                     "malformed-frame"),
    # A list carries a list's messages only (PEER.md, "How a list travels"): no keepalive, no list in a list.
    "invalid-peer-list-ping": (frame(canonical({"type": "list", "list": LIST_ID, "message": {"type": "ping"}})),
                               "malformed-frame"),
    "invalid-peer-list-nested": (frame(canonical({"type": "list", "list": LIST_ID, "message": {
        "type": "list", "list": LIST_ID, "message": {"type": "ops", "ops": LIST_OPS}}})), "malformed-frame"),
    # prune and graft name 1 to 1 000 origins (PEER.md, "Relay tree").
    "invalid-peer-prune-no-origins": (frame(canonical({"type": "prune", "origins": []})), "malformed-frame"),
    "invalid-peer-query-empty-text": (frame(canonical({"type": "query", "id": 3, "kind": "search", "text": ""})),
                                      "malformed-frame"),
    "invalid-peer-query-page-zero": (frame(canonical({"type": "query", "id": 4, "kind": "discover", "list": "popular",
                                                      "page": 0})), "malformed-frame"),
    "invalid-peer-query-providers-no-region": (frame(canonical({"type": "query", "id": 5, "kind": "providers"})),
                                               "malformed-frame"),
    # Marks and watches (PEER.md, "Marks and watches"): a rating of 11; a mark and a watch on one operation;
    # a watch that names alice twice.
    "invalid-peer-ops-rating-11": (frame(canonical({"type": "ops", "ops": [
        sign(dict(MARK_OPS[1], mark={"kind": "rating", "rating": 11, "set": True}), MARK_OPS[0])]})),
        "invalid-operation"),
    "invalid-peer-ops-mark-and-watch": (frame(canonical({"type": "ops", "ops": [
        dict(MARK_OPS[0], watch=WATCH_OP["watch"])]})), "malformed-frame"),
    "invalid-peer-ops-watch-member-twice": (frame(canonical({"type": "ops", "ops": [
        sign(dict(WATCH_OP, watch={"on": SEEN_DAY, "with": sorted([ALICE, ALICE, BOB])}), BOB_LATER_OPS[1])]})),
        "invalid-operation"),
    # Picks (PEER.md, "Picks"): a ranked opening of 11 finalists; a vote without `yes`; a guest whose id is not
    # 16 lowercase hex digits; a step of an action this version doesn't know; a pick and a mark on one operation.
    "invalid-peer-ops-pick-ranked-11": (frame(canonical({"type": "ops", "ops": [
        sign(dict(RANKED_OPS[0], pick=dict(RANKED_OPS[0]["pick"], deck=[{"id": 100 + n} for n in range(11)])),
             PICK_CAROL[-1])]})), "invalid-operation"),
    "invalid-peer-ops-pick-vote-no-yes": (frame(canonical({"type": "ops", "ops": [
        sign(dict(PICK_CAROL[0], pick={"action": "vote", "pick": PICK_ID}), CAROL_OPS[0])]})), "invalid-operation"),
    "invalid-peer-ops-pick-guest-id": (frame(canonical({"type": "ops", "ops": [
        sign(dict(PICK_ALICE[3], pick=dict(PICK_ALICE[3]["pick"], guest={"id": "5E1F0C2A9B7D4E83", "name": "Sam"})),
             PICK_ALICE[2])]})), "invalid-operation"),
    "invalid-peer-ops-pick-and-mark": (frame(canonical({"type": "ops", "ops": [
        dict(PICK_ALICE[2], mark={"kind": "want", "set": True})]})), "malformed-frame"),
    # Membership (PEER.md, "Membership"): a removal of the origin itself; an admission that says not how.
    "invalid-peer-ops-member-remove-self": (frame(canonical({"type": "ops", "ops": [
        sign(unsigned(REMOVAL_OP, member={"action": "remove", "peer": ALICE, "seen": 19}), ADMIT_OP)]})),
        "invalid-operation"),
    "invalid-peer-ops-member-admit-no-via": (frame(canonical({"type": "ops", "ops": [
        sign(unsigned(ADMIT_OP, member={"action": "admit", "peer": BOB, "name": "bob"}), PICK_ALICE[-1])]})),
        "invalid-operation"),
    # Relays and reach (PEER.md, "Relays and reach"): a URL of another scheme; a device id in lowercase.
    "invalid-peer-ops-relays-scheme": (frame(canonical({"type": "ops", "ops": [
        sign(unsigned(RELAYS_OP, relays=["tcp://198.51.100.10:22067/"]), NEWS_OP)]})), "invalid-operation"),
    "invalid-peer-ops-reach-device": (frame(canonical({"type": "ops", "ops": [
        sign(unsigned(REACH_OP, reach=dict(REACH_OP["reach"], device=ALICE_DEVICE.lower())), RELAYS_OP)]})),
        "invalid-operation"),
    # A version 2 hello: such a peer can't honour removals (PEER.md, "Membership").
    "invalid-peer-hello-version-2": (frame(canonical(
        {"type": "hello", "version": 2, "peer": ALICE, "name": "alice", "port": 7820, "vector": {}})),
        "unsupported-version"),
    "invalid-control-request-join-missing-code": (frame(canonical({"type": "join", "version": 1})),
                                                  "malformed-frame"),
    "invalid-control-request-zero-length": (struct.pack(">I", 0), "malformed-frame"),
    "invalid-control-request-oversized-length": (b"\xff\xff\xff\xff", "frame-too-large"),
    "invalid-control-request-not-json": (frame(b"add 603"), "malformed-frame"),
    "invalid-control-request-unknown-type": (frame(canonical({"type": "delete", "version": 1, "movie": 603})),
                                             "unknown-type"),
    "invalid-control-request-version-99": (frame(canonical({"type": "list", "version": 99})), "unsupported-version"),
    "invalid-control-request-missing-version": (frame(canonical({"type": "list"})), "malformed-frame"),
    "invalid-control-request-nested-17": (frame(nested(17).replace(b'"ping"', b'"status","version":1')),
                                          "malformed-frame"),
    "invalid-control-request-invalid-utf8": (frame(b'{"type":"status","version":1,"x":"\xc3\x28"}'),
                                             "malformed-frame"),
    "invalid-control-request-movie-id-zero": (frame(canonical({"type": "remove", "version": 1, "movie": 0})),
                                              "malformed-frame"),
    "invalid-control-request-pick-mode": (frame(canonical({"type": "pick", "version": 1, "mode": "random"})),
                                          "malformed-frame"),
    "invalid-control-request-vote-yes-text": (frame(canonical({"type": "vote", "version": 1, "yes": "yes"})),
                                              "malformed-frame"),
    # Over the string limit is malformed-frame; a title of 301 to 4096 bytes would be bad-request.
    "invalid-control-request-add-title-over-limit": (frame(canonical(
        {"type": "add", "version": 1, "movie": dict(MATRIX, title=OVERLONG)})), "malformed-frame"),
    "invalid-control-response-unknown-type": (frame(canonical({"type": "welcome"})), "unknown-type"),
}


# --- what each frame shows: golden/README.md's tables are written from this ----------------------

ABOUT = {
    "control-request-add-id-only": "add with the id only",
    "control-request-add": "add with title and year",
    "control-request-connect-ipv6": "connect to a bracketed IPv6 address with a zone",
    "control-request-connect": "connect to `host:port`",
    "control-request-follow": "follow",
    "control-request-forget": "forget by name",
    "control-request-forget-prefix": "forget by an id prefix",
    "control-request-invite": "invite, valid for 600 s",
    "control-request-invite-default": "invite with the default expiry",
    "control-request-join": "join with a code; mDNS finds the inviter",
    "control-request-join-address": "join with a code at an address",
    "control-request-list-page": "list with `limit` and `after`",
    "control-request-list": "list everything",
    "control-request-peers": "peers",
    "control-request-remove": "remove: `movie` is a bare id",
    "control-request-status": "status",
    "control-request-trust": "trust a full peer id",
    "control-request-search": "search with a year and a page",
    "control-request-search-words": "search: the query alone (page 1, any year)",
    "control-request-discover": "discover: the popular list, page 1 (`list` is written even for the default)",
    "control-request-discover-filters": "discover: the top-rated list narrowed by every filter (genre, year, longest "
                                        "runtime, least rating), page 2",
    "control-request-similar": "similar: movies like The Matrix, page 1",
    "control-request-genres": "genres",
    "control-request-services": "services: read the group's region and services",
    "control-request-services-set": "services: set the region and the services, by names looked up in the region",
    "control-request-list-streaming": "list only the movies one of the group's services streams",
    "control-request-list-unseen": "list what neither alice nor bob has seen, most wanted first, 2 rows a page",
    "control-request-list-wanted": "list what this member wants, best rated first: the second page (`after` is "
                                   "`+2`, the rows shown)",
    "control-request-mark": "mark: this member saw The Matrix on a day and rates it 8 (`peerctl seen 603 --on "
                            "2025-11-20 --rating 8`)",
    "control-request-mark-want": "mark: want Fight Club, with its title and year for the add it needs",
    "control-request-mark-clear": "mark: clear all four of this member's marks (`peerctl unmark 603`)",
    "control-request-watch": "watch: this member and alice watched The Matrix on a day",
    "control-request-watch-alone": "watch: this member alone, no day",
    "control-request-history": "history: the newest 50 operations",
    "control-request-history-movie": "history: one movie's, of the last 7 days, 100 a page, before a cursor",
    "control-request-pick": "pick: a majority pick of the list by the members connected now and this one "
                            "(`peerctl pick`)",
    "control-request-pick-unanimous": "pick: unanimous, of the list's comedies of 2 hours or less that the group's "
                                      "services stream, by this member, bob and zoë",
    "control-request-pick-ranked": "pick: ranked, the 3 most wanted as finalists, with bob",
    "control-request-pick-deck": "pick: unanimous, of TMDB's popular comedies (`--deck genre:comedy`), with zoë",
    "control-request-vote": "vote: yes to this member's next movie of the newest open pick (`peerctl vote yes`)",
    "control-request-vote-movie": "vote: no to The Dark Knight in the pick named",
    "control-request-vote-rank": "vote: a ranking of the finalists, best first (`peerctl vote --rank "
                                 "27205,550,13`)",
    "control-request-pickStatus": "pickStatus: the newest open pick, else the newest",
    "control-request-pickStatus-named": "pickStatus: the pick named by its opening",
    "control-request-pickClose": "pickClose: close the newest open pick",
    "control-request-show": "show one movie",
    "control-request-refresh": "refresh one movie's details",
    "control-request-refresh-all": "refresh every listed movie's details",
    "control-request-import": "import: rows by title and year, with a diary's day and rating, by IMDb id, and by TMDB id",
    "control-request-page": "page: the page's address with its token (`peerctl open`)",
    "control-request-deviceLink": "deviceLink: a link for a device of this machine's member, valid 10 minutes "
                                  "(`peerctl device link`)",
    "control-request-deviceLink-named": "deviceLink: a link for sam's living-room TV, valid 30 minutes "
                                        "(`peerctl --profile sam device link --name \"living-room TV\" --expires 30m`)",
    "control-request-deviceList": "deviceList: the linked devices (`peerctl device list`)",
    "control-request-deviceUnlink": "deviceUnlink: end sam's phone's access, by its name (`peerctl device unlink`)",
    "control-request-diagnose": "diagnose: what `peerctl doctor` asks the daemon",
    "control-response-added-already-listed": "added, no `operation`: already listed by this peer (two adders)",
    "control-response-added": "added, with the new operation",
    "control-response-change-added": "change `added` with `row`; `op` is the kind of operation that made it",
    "control-response-change-removed": "change `removed`: no `row`",
    "control-response-change-updated": "change `updated`: a second adder",
    "control-response-connecting": "connecting",
    "control-response-error-bad-request": "error `bad-request`",
    "control-response-error-timeout": "error `timeout`: a join that could not pair",
    "control-response-error": "error `not-listed`",
    "control-response-following": "following",
    "control-response-forgotten": "forgotten, with the peer's name",
    "control-response-forgotten-no-name": "forgotten: a peer whose name is unknown",
    "control-response-invite": "an invite code and when it expires",
    "control-response-joined": "joined, with the inviter's name",
    "control-response-joined-no-name": "joined: the inviter's name is not known yet",
    "control-response-list-empty": "an empty list",
    "control-response-list-last-page": "the last page: no `next`; non-ASCII title",
    "control-response-list": "a page with `next` (one row without title and year)",
    "control-response-peers-empty": "no peers",
    "control-response-peers": "a connected mDNS peer, a retrying static one and a relay-only one (optional fields omitted)",
    "control-response-peers-trust": "each peer's `trust`: a member, an untrusted mDNS peer, a revoked relay",
    "control-response-removed": "removed",
    "control-response-status": "status (paths show unescaped `/`; a fractional number; the page's address)",
    "control-response-trusted": "trusted",
    "control-response-searchResults": "one page of search results: a full result, one without overview or poster, "
                                       "one whose original title differs",
    "control-response-movies": "a page of a list fresh from TMDB (no `fetchedAt`): `query` names the list and its "
                               "filters",
    "control-response-movies-stale": "a page of the popular list kept on disk 3 hours ago (`fetchedAt`), shown "
                                     "because a fresh one could not be had (`stale` says why)",
    "control-response-genres": "genres kept on disk 2 days ago, still fresh (`fetchedAt`, no `stale`)",
    "control-response-services": "the group's region and services, and who set them",
    "control-response-services-language": "nobody set them yet: the region is this peer's TMDB language's, no services",
    "control-response-list-streaming": "a `streaming` list: a row with `streamingOn`; `total` counts such rows",
    "control-response-list-unseen": "a page sorted by wants: rows with each member's `marks` (a veto too); "
                                    "`next` is `+2`, the rows shown",
    "control-response-marked": "marked: two marks made; the row with everyone's marks and the average rating",
    "control-response-marked-added": "marked: a want added the movie to the list first (`added`), then the mark",
    "control-response-marked-unlisted": "marked: a mark of a movie not on the list: no row",
    "control-response-history": "a page of history, newest first: a watch, marks, settings (no movie), a "
                                "describe and an operation of a kind this version doesn't know; `next`",
    "control-response-history-empty": "history: nothing (more)",
    "control-response-history-pick": "history of a pick: its close and a guest's vote (about the group and about "
                                     "a movie without a title), a member's vote; `next`",
    "control-response-pickState": "pickState of a majority pick while voting, as alice sees it: no yeses shown, "
                                  "`next` is her next movie",
    "control-response-pickState-chosen": "pickState of the same pick once closed: each movie's yeses, a guest "
                                         "voter, the movie chosen",
    "control-response-pickState-ranked": "pickState of a ranked pick everyone ranked: chosen by instant runoff, "
                                         "still open",
    "control-response-pickState-none": "pickState of a unanimous pick of a TMDB list both voters went through "
                                       "without agreeing: `none`",
    "control-response-error-pick-closed": "error `bad-request`: a vote on a closed pick says its result",
    "control-response-change-updated-marks": "change `updated`: bob's watch changed the row's marks",
    "control-response-shown": "a described movie: its row, the details with the poster's URL, and who described it",
    "control-response-shown-providers": "a described movie whose details say where to watch it (`providers`): "
                                        "clients show JustWatch's attribution with them",
    "control-response-shown-pending": "a movie no one described yet, and why",
    "control-response-refreshing": "refreshing: how many fetches were queued",
    "control-response-imported": "imported: each row's outcome, in order",
    "control-response-page": "page: the address with the token in its fragment",
    "control-response-deviceLink": "deviceLink: the one-use link for a device of sam, unnamed until it is opened",
    "control-response-devices": "devices: sam's phone, seen lately, and alice's TV, not seen since it linked",
    "control-response-deviceUnlinked": "deviceUnlinked: sam's phone, its access ended",
    "control-response-diagnosis": "diagnosis: Avahi running, services seen, a dial timing out, a peer refusing us and "
                                  "refused by us, an inbound session with its clock skew",
    "control-response-diagnosis-no-mdns": "diagnosis of a daemon with discovery off and nothing dialed yet",
    "control-response-error-unavailable": "error `unavailable`: search without a TMDB token",
    "control-response-error-upstream-failed": "error `upstream-failed`: a search page TMDB failed to answer",
    "peer-error-duplicate-session": "error `duplicate-session`",
    "peer-error-rate-limited": "error `rate-limited`",
    "peer-error": "error `invalid-operation` (a gap)",
    "peer-hello-empty-vector": "hello from a new replica (empty vector), non-ASCII name, no `time`",
    "peer-hello": "hello with a two-origin vector and the sender's clock (`time`)",
    "peer-hello-tree": "hello from a peer in the relay tree (`tree`: true), as peerd sends it (PEER.md, \"Relay "
                       "tree\")",
    "peer-have": "have: what the sender holds, on a session where it pushes some origins lazily",
    "peer-prune": "prune: stop pushing alice's and zoë's operations eagerly (they arrived another way first)",
    "peer-graft": "graft: push alice's operations eagerly again (a `have` showed some missing)",
    "peer-members": "members: two with names, one without",
    "peer-ops-id-only": "an add that knows only the movie id (bob's seq 6: `prev` and `sig`)",
    "peer-ops-describe": "a describe: alice's seq 6 carries The Matrix's details from TMDB (PEER.md, \"Describing a "
                         "movie\")",
    "peer-ops-describe-providers": "a describe with where to watch: alice's seq 7, The Matrix's details fetched "
                                   "again, now with `providers` for the US (one offer of each kind, one with a "
                                   "`logoPath`)",
    "peer-ops-settings": "a settings operation: alice's seq 8 sets the group's region and services; its `movie` is "
                         "`{\"id\":1}` (PEER.md, \"Group settings\")",
    "peer-ops-mark": "marks: alice's seq 9 to 11 on The Matrix: seen on a day, rated 8, want cleared (PEER.md, "
                     "\"Marks\")",
    "peer-ops-watch": "a watch: bob's seq 9 logs that he and alice watched The Matrix on a day (PEER.md, "
                      "\"Watches\")",
    "peer-ops-pick-open": "a pick's opening: alice's seq 14, a majority pick of 6 movies by alice, bob and zoë, "
                          "the deck in the order its id seeds; its `movie` is `{\"id\":1}` (PEER.md, \"Picks\")",
    "peer-ops-pick-votes": "the pick's steps: zoë's, alice's and bob's votes, a guest's vote alice signs, and "
                           "alice's close; Fight Club is chosen",
    "peer-ops-pick-ranked": "a ranked pick: zoë's seq 5 opens it with 3 finalists; she and bob rank them",
    "peer-ops-later-version": "bob's seq 7 and 8 as a later version makes them: an add with unknown fields (`mood`, "
                              "`movie.poster`) and an operation of unknown kind `rate`, signed over them; kept, "
                              "verified and relayed byte for byte (PEER.md, \"Operations can grow\")",
    "peer-ops-unicode": "title with é, 🎬, `/`, `\"`, `\\` and a tab: raw UTF-8, only `\"` `\\` `\\t` escaped; "
                        "zoë's seq 1, with her `key`",
    "peer-ops": "an add and a removal (`removes` only on the removal), alice's seq 4 and 5, chained",
    "peer-ops-member-admit": "an admission: alice's seq 20 records that she let bob in with an invite code; its "
                             "`movie` is `{\"id\":1}` (PEER.md, \"Membership\")",
    "peer-ops-member-remove": "a removal: alice's seq 21 removes zoë from the group, having seen her chain up to "
                              "seq 6; nothing zoë signs after it counts",
    "peer-ops-member-secret": "a secret record: alice's seq 22 names the fingerprint of the group's new secret, "
                              "so that it admits new keys again after the removal",
    "peer-ops-relays": "relays: alice's seq 24 makes a private relay the group's one relay; its `movie` is "
                       "`{\"id\":1}` (PEER.md, \"Relays and reach\")",
    "peer-ops-reach": "reach: alice's seq 25 tells how to reach her machine, its LAN and overlay addresses and its "
                      "device id on relays",
    "invalid-peer-ops-relays-scheme": "a relays operation naming a URL that is not `relay://…`",
    "invalid-peer-ops-reach-device": "a reach operation whose device id is in lowercase",
    "peer-ops-news": "news: alice's seq 23 reports that The Matrix arrived on Netflix in DE and is out to rent on "
                     "Apple TV, with TMDB's where-to-watch as read (PEER.md, \"News\")",
    "control-request-news": "news: the newest 50 reports, and this member has now seen them (`peerctl news`)",
    "control-request-news-count": "news: only the counts, what the page's News badge asks",
    "control-request-news-follow": "news, then each later batch of reports (`peerctl news --follow`)",
    "control-request-relay": "relay: the group's relays and how this daemon stands with each (`peerctl relay`)",
    "control-request-relay-add": "relay with add: a relay URL as strelaysrv prints it (`peerctl relay add`)",
    "control-response-relays": "relays: the group's relay, joined, its round trip and two sessions on it",
    "control-response-relays-retrying": "relays: the relay unreachable, retried in 4.5 s",
    "control-response-news": "news, newest first: alice's report of The Matrix (unread), bob's of Fight Club; the "
                             "attribution",
    "control-response-news-count": "news with `limit` 0: the counts alone",
    "control-response-news-follow": "a later batch on a news follow stream: only the report that came",
    "control-request-members": "members: everyone in the group, removed ones too (`peerctl members`)",
    "control-request-removeMember": "removeMember: remove zoë, by name, from the whole group (`peerctl members "
                                    "remove zoë`)",
    "control-response-members": "members: alice (this daemon, a founding member), bob (admitted by alice with an "
                                "invite, connected), zoë (removed by alice); the group secret admits no one",
    "control-response-memberRemoved": "memberRemoved: zoë removed, her chain seen to seq 6, one session closed",
    "control-request-profiles": "profiles: this machine's own member and the profiles that live on it "
                                "(`peerctl profile list`)",
    "control-request-addProfile": "addProfile: make the profile sam, who lives on this machine (`peerctl profile "
                                  "add sam`)",
    "control-request-mark-as-profile": "mark, acting for the profile sam (`peerctl --profile sam want 603`)",
    "control-response-profileAdded": "profileAdded: sam, admitted by alice as a profile that lives on her machine",
    "control-request-lists": "lists: the group's lists this machine holds (`peerctl lists`)",
    "control-request-listCreate": "listCreate: the kids' list, of bob, sam and the maker, nothing above PG "
                                  "(`peerctl lists create kids --members bob,sam --max-certification PG`)",
    "control-request-listMember": "listMember: put bob on friends (`peerctl lists add-member friends bob`)",
    "control-request-add-in-list": "add to the list friends (`peerctl add 603 --list friends`): `inList` beside "
                                   "`type`",
    "control-request-discover-in-list": "discover for the list kids: the envelope's `inList` beside discover's own "
                                        "`list`, TMDB's",
    "control-response-lists": "lists: the group's own list (every member, no id), then friends (alice and carol)",
    "control-response-listCreated": "listCreated: friends, of alice and carol, empty yet",
    "control-response-listChanged": "listChanged: friends once bob is on it",
    "invalid-peer-ops-member-remove-self": "a removal whose `peer` is its own origin: a member does not remove "
                                           "itself",
    "invalid-peer-ops-member-admit-no-via": "an admission without `via`: it must say how the key came in",
    "invalid-peer-hello-version-2": "hello with version 2, which can't honour removals from the group",
    "peer-ping": "ping",
    "peer-pong": "pong",
    "invalid-control-request-add-title-over-limit": "add with a title of 4 097 bytes: over the string limit",
    "invalid-control-request-invalid-utf8": "bytes C3 28 (a broken 2-byte sequence) in an unknown field",
    "invalid-control-request-join-missing-code": "join without `code`",
    "invalid-control-request-missing-version": "list without version",
    "invalid-control-request-movie-id-zero": "remove of movie 0",
    "invalid-control-request-pick-mode": "pick with a mode that is none of the three",
    "invalid-control-request-vote-yes-text": "vote whose `yes` is text, not a boolean",
    "invalid-control-request-nested-17": "a status nesting 17 levels deep",
    "invalid-control-request-not-json": "body `add 603`",
    "invalid-control-request-oversized-length": "only a header, 0xFFFFFFFF",
    "invalid-control-request-unknown-type": "type `delete`",
    "invalid-control-request-version-99": "list with version 99",
    "invalid-control-request-zero-length": "length header 0",
    "invalid-control-response-unknown-type": "type `welcome`",
    "invalid-peer-array-over-limit": "a ping with an unknown field holding 16 385 zeros: over the array limit",
    "invalid-peer-hello-version-1": "hello with version 1, which drops unknown fields before it verifies",
    "invalid-peer-hello-version-99": "hello with version 99",
    "invalid-peer-invalid-utf8": "byte 0xFF in a field the receiver does not know",
    "invalid-peer-members-bad-peer": "members naming something that is not a peer id",
    "invalid-peer-missing-type": "object without `type`",
    "invalid-peer-nested-17": "a ping nesting 17 levels deep",
    "invalid-peer-not-json": "body `hello, peer`",
    "invalid-peer-ops-bad-origin": "an operation whose origin is not a peer id",
    "invalid-peer-ops-fraction": "an operation with an unknown field holding 7.5: numbers in operations are integers",
    "invalid-peer-ops-rating-11": "a mark whose rating is 11: ratings are 1 to 10",
    "invalid-peer-ops-mark-and-watch": "an operation that carries a `mark` and a `watch`: one payload an operation",
    "invalid-peer-ops-watch-member-twice": "a watch that names alice twice: each member once",
    "invalid-peer-ops-pick-ranked-11": "a ranked pick's opening with 11 finalists: 1 to 10",
    "invalid-peer-ops-pick-vote-no-yes": "a vote without `yes`",
    "invalid-peer-ops-pick-guest-id": "a guest's vote whose guest id is not 16 lowercase hex digits",
    "invalid-peer-ops-pick-and-mark": "an operation that carries a `pick` and a `mark`: one payload an operation",
    "invalid-peer-ops-title-over-limit": "an add whose title is 4 097 bytes, in the fast reader's shape",
    "invalid-peer-over-limit-by-one": "only a header, 1 MiB + 1",
    "invalid-peer-prune-no-origins": "prune with an empty `origins`: 1 to 1 000 are allowed",
    "invalid-peer-query-empty-text": "a search query with no words: 1 to 200 characters are allowed",
    "invalid-peer-query-page-zero": "a discover query for page 0: pages are 1 to 500",
    "invalid-peer-query-providers-no-region": "a providers query without `region`",
    "peer-hello-catalog": "hello from a peer that holds a TMDB token and answers queries (`catalog`: true)",
    "peer-hello-lists": "hello from a peer that carries lists (`lists`: true), as peerd sends it",
    "peer-list-hello": "list: alice opens her list \"friends\" with its own vector (PEER.md, \"How a list travels\")",
    "peer-list-ops": "list: the list's operations, its creation (`op` `list` with the nonce) and an add, signed "
                     "under the list's domain",
    "peer-list-error": "list: an `error` that ends the list's session only (`forbidden`)",
    "invalid-peer-list-ping": "a list that carries a `ping`: a list's session has no keepalive of its own",
    "invalid-peer-list-nested": "a list inside a list",
    "peer-query": "query: a search for matrix, page 1, from a peer without a TMDB token",
    "peer-query-year": "query: a search limited to a release year, page 2",
    "peer-answer": "answer to query 7: one page of TMDB's search results",
    "peer-answer-error": "answer to query 9: refused, the asker is over its rate",
    "peer-query-discover": "query: the top-rated list narrowed to a genre and a longest runtime, page 1",
    "peer-query-similar": "query: movies like The Matrix, page 1",
    "peer-query-genres": "query: TMDB's genres (no page)",
    "peer-answer-movies": "answer to query 11: a page of recommendations under `movies`",
    "peer-answer-genres": "answer to query 12: the genres, an array of `{id, name}`",
    "peer-query-providers": "query: the streaming services TMDB lists in a region (no page)",
    "peer-query-find": "query: the movie TMDB has under an IMDb id (an import's; no page)",
    "peer-query-certification": "query: a movie's certification in a region and the region's order (a ceiling's; no page)",
    "peer-answer-certification": "answer to query 15: The Matrix is R in US, and US's order of certifications",
    "peer-answer-providers": "answer to query 13: a region's services in TMDB's display order, one with a `logoPath`",
    "invalid-peer-oversized-length": "only a header, 0xFFFFFFFF: refused from the 4 bytes alone",
    "invalid-peer-string-over-limit": "a ping with an unknown field of 4 097 bytes: over the string limit",
    "invalid-peer-top-level-array": "body is an array",
    "invalid-peer-truncated": "header says 64 bytes, the stream ends after 15",
    "invalid-peer-unknown-type": "type `gossip`",
    "invalid-peer-zero-length": "length header 0",
}

README = """# Golden frames

Each `.bin` file is the exact bytes of one frame: the 4-byte big-endian length, then the JSON body
exactly as `WireCoding.encode` writes it (sorted keys, no whitespace, raw UTF-8, `/` unescaped).
The name says the stream and the message: `<stream>-<type>[-variant].bin`, with stream `peer`,
`control-request` or `control-response`. Invalid frames are `invalid-<stream>-<what>.bin`.

They are made by [`make_golden.py`](make_golden.py), which also writes this file; never edit a
`.bin` or this README by hand. To change one, change the script and run it:

```sh
python3 proto/golden/make_golden.py      # rewrites every .bin, invalid.json and this README
python3 proto/validate.py --golden        # schemas accept every valid frame, byte-exact canonical
swift test --filter PeerdWireTests        # Swift decodes and re-encodes each to the same bytes
```

The Swift tests (`GoldenFrameTests`) decode every valid frame with `FrameDecoder` and
`WireCoding.decode` into `PeerMessage`, `ControlRequest` or `ControlResponse` (by the name's prefix),
encode it again and expect the same bytes. They run every invalid frame through a channel with
`FrameDecoder` (then end of stream) and `WireCoding.decode`, and expect the error code that
[`invalid.json`](invalid.json) gives for the file. They also check that this README lists every
file with its size.

Examples use three replicas: alice `{alice}`, bob `{bob}` and zoë `{carol}`. Their ids are the
fingerprints of fixed test keys: alice's and bob's private scalars are SHA-256 of `peerd golden <name>`,
and zoë's scalar is SHA-256 of `peerd golden carol`, not of her name (she is `CAROL` in the script).
Every operation in the `peer-ops*` frames is really signed and chained by its origin's key
(PEER.md, "Signed operations"; deterministic RFC 6979 signatures, so the script's output does not
change between runs). Making them needs Python's `cryptography` package; the Swift tests
(`GoldenOperationSealTests`) check the signatures.

The `peer-ops-member-*` frames are alice's seq 20 to 22, chained on her close of the pick: an admission, a
removal of zoë and a record of the group's new secret, whose fingerprint is that of the secret SECURITY.md
gives as its example ("Group secret"; `secret_fingerprint`).

The `peer-ops-news` frame is alice's seq 23, chained on her secret record: a report of where The Matrix
streams in the group's region (PEER.md, "News"); the `news` responses show it as `news` answers it.

The `peer-ops-relays` and `peer-ops-reach` frames are alice's seq 24 and 25, chained on her news: the group's
relay, and how to reach her machine (PEER.md, "Relays and reach"). The device ids are in Syncthing's text
form (`device_id`), of stand-in digests.

The picks' decks are in the order PEER.md's rule gives ("The deck"), which the script redoes from
PEER.md's words (`shuffled_deck`); `PickGoldenTests` checks that peerd's `PickDeck` gives the same,
and that the `peer-ops-pick-*` steps tally to what the `pickState` frames say.

## Valid frames
{valid}
## Invalid frames

The code is the `error` a receiver sends before it closes; `invalid.json` holds the same mapping.

| file | bytes | what is wrong | expected error code |
|---|---|---|---|
{invalid}
"""

SECTIONS = [("Control requests", "control-request-"), ("Control responses", "control-response-"),
            ("Peer protocol", "peer-")]


def readme(files: dict) -> str:
    """golden/README.md: a table per stream of the valid frames, and one of the invalid frames."""
    valid = ""
    for title, prefix in SECTIONS:
        rows = [f"| `{name}.bin` | {len(files[name])} | {ABOUT[name]} |" for name in sorted(VALID)
                if name.startswith(prefix)]
        valid += f"\n### {title}\n\n| file | bytes | what it shows |\n|---|---|---|\n" + "\n".join(rows) + "\n"
    invalid = "\n".join(f"| `{name}.bin` | {len(data)} | {ABOUT[name]} | `{code}` |"
                        for name, (data, code) in sorted(INVALID.items()))
    return README.format(alice=ALICE, bob=BOB, carol=CAROL, valid=valid, invalid=invalid)



def main() -> None:
    missing = (set(VALID) | set(INVALID)) ^ set(ABOUT)
    if missing:
        raise SystemExit(f"ABOUT and the frames differ in: {sorted(missing)}")
    files = {name: frame(canonical(body)) for name, body in VALID.items()}
    written = set()
    for name, data in files.items():
        (HERE / f"{name}.bin").write_bytes(data)
        written.add(f"{name}.bin")
    for name, (data, _) in INVALID.items():
        (HERE / f"{name}.bin").write_bytes(data)
        written.add(f"{name}.bin")
    for stale in HERE.glob("*.bin"):
        if stale.name not in written:
            stale.unlink()
    mapping = {f"{name}.bin": code for name, (_, code) in sorted(INVALID.items())}
    (HERE / "invalid.json").write_text(json.dumps(mapping, indent=2) + "\n")
    (HERE / "README.md").write_text(readme(files))
    print(f"wrote {len(VALID)} valid and {len(INVALID)} invalid golden frames to {HERE}")


if __name__ == "__main__":
    main()
