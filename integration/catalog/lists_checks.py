"""A kids' list keeps its ceiling (issue 39, proto/PEER.md "Ceilings"): alice holds the token; bob, who holds
none, checks his adds through her certification answers; carol is on no list but the group's, and never holds
kids. The fake TMDB certifies 603 and 550 R and 862 G in the US, and knows no certification of 14543.
"""
import json
import tempfile

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


def search_ids(daemon, words, *args):
    page = json.loads(ok(daemon, "search", words, *args, "--json").stdout)
    return [r["movieId"] for r in page["results"]], page.get("leftOut")


def check_kids_search(w):
    """Search results offered for the kids' list leave out what an add there would refuse, and say how many."""
    w.up()
    if kids_movies(w.bob) is None:
        ok(w.alice, "lists", "create", "kids", "--members", "bob", "--max-certification", "PG")
        harness.expect_eventually(lambda: kids_movies(w.bob) == [], 10, "kids on bob")
    group, _ = search_ids(w.alice, "matrix")
    kids, left_out = search_ids(w.alice, "matrix", "--list", "kids")
    if 603 not in group or kids or left_out != len(group):
        raise CheckFailed(f"'matrix': the group's search found {group}; on kids {kids}, {left_out} left out")
    toy, none_out = search_ids(w.bob, "toy story", "--list", "kids")
    if toy != [862] or none_out != 0:
        raise CheckFailed(f"bob's 'toy story' on kids found {toy}, {none_out} left out; expected [862], 0")
    words = ok(w.alice, "search", "matrix", "--list", "kids").stdout.strip()
    if "left out by this list's ceiling" not in words:
        raise CheckFailed(f"alice's search on kids printed {words!r}")
    return f"'matrix': {len(group)} results on the group's list, none on kids ({words!r}); bob's 'toy story' [862]"


def check_kids_import(w):
    """An import into the kids' list is checked against its ceiling as an add is: the R and the unrated rows
    are refused, with why, and a second run refuses them again without asking."""
    w.up()
    if kids_movies(w.alice) is None:
        ok(w.alice, "lists", "create", "kids", "--members", "bob", "--max-certification", "PG")
    before = set(kids_movies(w.alice))
    with tempfile.TemporaryDirectory() as folder:
        path = f"{folder}/kids.csv"
        with open(path, "w") as out:
            out.write("tmdbID,Listed\n105,yes\n603,yes\n8000001,yes\n")
        first = json.loads(ok(w.alice, "import", path, "--list", "kids", "--json").stdout.splitlines()[-1])
        again = json.loads(ok(w.alice, "import", path, "--list", "kids", "--json").stdout.splitlines()[-1])
        words = ok(w.alice, "import", path, "--list", "kids", "--dry-run").stdout.strip()
    after = set(kids_movies(w.alice))
    if after - before != ({105} - before) or 603 in after or (first["refused"], again["refused"]) != (2, 2):
        raise CheckFailed(f"kids before {sorted(before)}, after {sorted(after)}; summaries {first}, {again}")
    if "2 refused by the list's ceiling" not in words or "rated R in US" not in words:
        raise CheckFailed(f"a dry run into kids printed {words!r}")
    return f"105 (PG) imported into kids; 603 (R) and 8000001 (unrated) refused twice; {words!r}"


CHECKS = [
    ("lists: a kids' list refuses an R movie, on bob through alice's token; unrated only with --allow-unrated",
     check_kids_ceiling),
    ("lists: a pick on the kids' list deals only from it", check_kids_pick),
    ("lists: discover for the kids' list asks TMDB for movies up to its ceiling only", check_kids_discover),
    ("lists: a search on the kids' list leaves out what its ceiling refuses", check_kids_search),
    ("lists: an import into the kids' list is refused what its ceiling refuses", check_kids_import),
]
