"""A kids' list keeps its ceiling (issue 39, proto/PEER.md "Ceilings"): alice holds the token; bob, who holds
none, checks his adds through her certification answers; carol is on no list but the group's, and never holds
kids. The fake TMDB certifies 603 and 550 R and 862 G in the US, and knows no certification of 14543.
"""
import json

import harness
from harness import CheckFailed


def kids_movies(daemon):
    result = daemon.peerctl("list", "--list", "kids", "--json")
    return [m["movieId"] for m in json.loads(result.stdout)] if result.returncode == 0 else None


def refused(daemon, words, *args):
    result = daemon.peerctl(*args)
    if result.returncode != 1 or words not in result.stderr:
        raise CheckFailed(f"peerctl {' '.join(args)} on {daemon.name}: exit {result.returncode}, "
                          f"expected a refusal saying {words!r}: {result.stdout}{result.stderr}")
    return result.stderr.strip()


def ok(daemon, *args):
    result = daemon.peerctl(*args)
    if result.returncode != 0:
        raise CheckFailed(f"peerctl {' '.join(args)} on {daemon.name}: exit {result.returncode}: "
                          f"{result.stdout}{result.stderr}")
    return result


def check_kids_ceiling(w):
    w.up()
    ok(w.alice, "lists", "create", "kids", "--members", "bob", "--max-certification", "PG")
    above = refused(w.alice, "is rated R in US", "add", "603", "--list", "kids")
    ok(w.alice, "add", "862", "--list", "kids")
    harness.expect_eventually(lambda: kids_movies(w.bob) == [862], 10, "kids on bob: [862]")
    through = refused(w.bob, "is rated R in US", "add", "550", "--list", "kids")
    unrated = refused(w.alice, "has no certification in US", "add", "14543", "--list", "kids")
    ok(w.alice, "add", "14543", "--list", "kids", "--allow-unrated")
    harness.expect_eventually(lambda: kids_movies(w.bob) == [862, 14543], 10, "kids on bob: [862, 14543]")
    # The group's list has no ceiling; carol holds no kids and is told so.
    ok(w.alice, "add", "603")
    refused(w.carol, "no list called kids", "list", "--list", "kids")
    return f"alice: {above!r}; bob through alice: {through!r}; {unrated!r}, then taken with --allow-unrated"


def check_kids_pick(w):
    w.up()
    if kids_movies(w.alice) is None:
        ok(w.alice, "lists", "create", "kids", "--members", "bob", "--max-certification", "PG")
        ok(w.alice, "add", "862", "--list", "kids")
        ok(w.alice, "add", "14543", "--list", "kids", "--allow-unrated")
    ok(w.alice, "add", "550")
    ok(w.alice, "pick", "--list", "kids", "--with", "bob")
    state = json.loads(ok(w.alice, "pick", "--list", "kids", "--status", "--json").stdout)
    deck = sorted(m["movieId"] for m in state["deck"])
    if not deck or not set(deck) <= set(kids_movies(w.alice)):
        raise CheckFailed(f"the kids' pick dealt {deck}; the kids' list is {kids_movies(w.alice)}")
    group = json.loads(w.alice.peerctl("pick", "--status", "--json").stdout or "{}")
    if group.get("open"):
        raise CheckFailed(f"a pick opened on kids shows as the group's: {group}")
    ok(w.alice, "pick", "--list", "kids", "--close")
    return f"kids' pick dealt {deck}, all from kids (the group's list has 550 too); the group's shows no pick"


def check_kids_discover(w):
    """Discover offered for the kids' list leaves out what is above its ceiling: TMDB is asked for movies
    certified up to PG in the group's region, with nothing said of a ceiling by the one asking."""
    w.up()
    if kids_movies(w.bob) is None:
        ok(w.alice, "lists", "create", "kids", "--members", "bob", "--max-certification", "PG")
        harness.expect_eventually(lambda: kids_movies(w.bob) == [], 10, "kids on bob")
    ok(w.bob, "discover", "--list", "kids", "--json")
    asked = w.fake.requests("/3/discover/movie")[-1]["query"] if w.fake.requests("/3/discover/movie") else {}
    if asked.get("certification_country") != "US" or asked.get("certification.lte") != "PG":
        raise CheckFailed(f"bob's discover on kids asked TMDB for {asked}")
    ok(w.bob, "discover", "--json")
    plain = w.fake.requests("/3/movie/popular")
    if not plain:
        raise CheckFailed("bob's discover on the group's list did not ask TMDB for the popular list")
    return f"on kids TMDB was asked {asked}; on the group's list, /3/movie/popular with no ceiling"


CHECKS = [
    ("lists: a kids' list refuses an R movie, on bob through alice's token; unrated only with --allow-unrated",
     check_kids_ceiling),
    ("lists: a pick on the kids' list deals only from it", check_kids_pick),
    ("lists: discover for the kids' list asks TMDB for movies up to its ceiling only", check_kids_discover),
]
