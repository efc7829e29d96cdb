"""Browsing TMDB from every peer (issue 21): discover (each list and each filter), genres and similar on
bob, who holds no token, answered by alice over their peer session; and the pages each peer keeps on disk
(<state>/tmdb/, proto/CONTROL.md "discover"), shown with their age when TMDB or alice is away.

The expected pages come from the fake's own lists (fake_tmdb_lists.route over the same CATALOG), so each
check compares what bob printed with what TMDB would have said, id for id.
"""
import json
import time

import harness
from harness import CheckFailed
from fake_tmdb import CATALOG, TODAY
import fake_tmdb_lists as lists

LISTS = [((), "/3/movie/popular"), (("--top-rated",), "/3/movie/top_rated"), (("--upcoming",), "/3/movie/upcoming"),
         (("--now-playing",), "/3/movie/now_playing"), (("--trending",), "/3/trending/movie/day"),
         (("--trending", "week"), "/3/trending/movie/week")]
# peerctl's filter, the query /3/discover/movie must get, and what each result must be.
FILTERS = [
    (("--genre", "comedy"), {"with_genres": "35", "sort_by": "popularity.desc"},
     lambda m: 35 in {g["id"] for g in m["genres"]}),
    (("--genre", "sci"), {"with_genres": "878"}, lambda m: 878 in {g["id"] for g in m["genres"]}),
    (("--year", "1999"), {"primary_release_year": "1999"}, lambda m: m["release_date"].startswith("1999-")),
    (("--max-runtime", "110"), {"with_runtime.lte": "110"}, lambda m: m["runtime"] <= 110),
    (("--min-rating", "7"), {"vote_average.gte": "7.0"}, lambda m: m["vote_average"] >= 7),
    (("--top-rated", "--genre", "drama"), {"with_genres": "18", "sort_by": "vote_average.desc",
                                           "vote_count.gte": "200"}, lambda m: 18 in {g["id"] for g in m["genres"]}),
    (("--min-rating", "5", "--page", "2"), {"vote_average.gte": "5.0", "page": "2"}, lambda m: m["vote_average"] >= 5),
]


def expected(path, query):
    status, body = lists.route(path, query, CATALOG, TODAY)
    return [r["id"] for r in body["results"]], body["total_pages"]


def ids(page):
    return [r["movieId"] for r in page["results"]]


def check_group_discover(w):
    w.up()
    said = []
    for args, path in LISTS:
        for page in (1, 2):
            got = w.bob.peerctl_json("discover", *args, "--page", str(page))
            want, pages = expected(path, {"page": str(page)})
            if ids(got) != want or got["totalPages"] != pages:
                raise CheckFailed(f"bob's discover {' '.join(args)} page {page}: {ids(got)} of {got['totalPages']} "
                                  f"pages; TMDB's: {want} of {pages}")
        said.append(f"{' '.join(args) or 'popular'} {got['totalPages']} pages")
    for args, query, keeps in FILTERS:
        got = w.bob.peerctl_json("discover", *args)
        asked = w.fake.requests("/3/discover/movie")[-1]["query"]
        if any(asked.get(k) != v for k, v in query.items()):
            raise CheckFailed(f"discover {' '.join(args)} asked TMDB for {asked}; wanted {query}")
        if not got["results"] or not all(keeps(CATALOG[i]) for i in ids(got)):
            raise CheckFailed(f"discover {' '.join(args)}: {ids(got)} break the filter")
        if ids(got) != expected("/3/discover/movie", asked)[0]:
            raise CheckFailed(f"discover {' '.join(args)}: {ids(got)}, TMDB's {expected('/3/discover/movie', asked)[0]}")
    text = w.bob.peerctl("discover", "--top-rated", "--min-rating", "5")
    if text.returncode != 0 or "next: peerctl discover --top-rated --min-rating 5.0 --page 2" not in text.stdout:
        raise CheckFailed(f"peerctl discover --top-rated --min-rating 5 on bob: exit {text.returncode}: "
                          f"{text.stdout}{text.stderr}")
    wrong = w.bob.peerctl("discover", "--genre", "nosuch")
    if wrong.returncode != 64 or "comedy" not in wrong.stderr:
        raise CheckFailed(f"--genre nosuch: exit {wrong.returncode}: {wrong.stderr!r}")
    return "; ".join(said) + f"; {len(FILTERS)} filters kept only matching movies, as TMDB was asked"


def check_group_discover_ceiling(w):
    """A Discover for a list with a ceiling (PEER.md "Ceilings"): the keys ride bob's control request and his query
    to alice, and TMDB is asked for movies certified up to PG in US only."""
    w.up()
    request = {"type": "discover", "version": 1, "list": "popular", "certificationCountry": "US",
               "maxCertification": "PG", "page": 1}
    got = harness.control_request(w.bob.socket, request)
    asked = w.fake.requests("/3/discover/movie")[-1]["query"] if w.fake.requests("/3/discover/movie") else {}
    if asked.get("certification_country") != "US" or asked.get("certification.lte") != "PG":
        raise CheckFailed(f"bob's discover up to PG asked TMDB for {asked}")
    want = expected("/3/discover/movie", asked)[0]
    if got.get("type") != "movies" or ids(got) != want or not want or got.get("query") != "popular · up to PG in US":
        raise CheckFailed(f"bob's discover up to PG in US: {got}; TMDB's {want}")
    wrong = harness.control_request(w.bob.socket, {**request, "certificationCountry": None})
    if wrong.get("code") != "bad-request" or "go together" not in wrong.get("message", ""):
        raise CheckFailed(f"a ceiling without its country: {wrong}")
    return f"{ids(got)} ({got['query']}), as TMDB was asked; a ceiling without its country is bad-request"


def check_group_genres_similar(w):
    w.up()
    genres = w.bob.peerctl_json("genres")["genres"]
    if [(g["id"], g["name"]) for g in genres] != lists.GENRE_LIST:
        raise CheckFailed(f"bob's genres: {genres}")
    similar = w.bob.peerctl_json("similar", 603)
    want, pages = expected("/3/movie/603/recommendations", {"page": "1"})
    if ids(similar) != want or similar["totalPages"] != pages:
        raise CheckFailed(f"bob's similar 603: {ids(similar)}; TMDB's {want}")
    text = w.bob.peerctl("similar", "603")
    first = CATALOG[want[0]]["title"]
    if text.returncode != 0 or first not in text.stdout:
        raise CheckFailed(f"peerctl similar 603 on bob: exit {text.returncode}: {text.stdout}{text.stderr}")
    return f"{len(genres)} genres; similar 603: {len(want)} movies, first {first!r}"


def age_kept_page(daemon, name, hours):
    """Makes a kept page look `hours` old, as it would after a night away: its file, in the documented form."""
    path = daemon.state_dir / "tmdb" / name
    kept = json.loads(path.read_text())
    kept["fetchedAt"] -= int(hours * 3600 * 1000)
    path.write_text(json.dumps(kept))
    return kept


def check_shelf_tmdb_down(w):
    """alice holds the token: a failing TMDB makes her own discover show the kept page with its age."""
    w.up()
    fresh = w.alice.peerctl_json("discover", "--top-rated", "--page", "3")
    age_kept_page(w.alice, "list-top-rated-p3.json", 2)
    w.fake.set_fault("malformed")
    try:
        kept = w.alice.peerctl_json("discover", "--top-rated", "--page", "3")
        text = w.alice.peerctl("discover", "--top-rated", "--page", "3")
        failed = w.alice.peerctl("discover", "--top-rated", "--page", "4")
    finally:
        w.fake.set_fault("ok")
    if ids(kept) != ids(fresh) or not kept.get("stale") or not kept.get("fetchedAt"):
        raise CheckFailed(f"with TMDB failing: {kept}")
    if text.returncode != 0 or "kept from 2h" not in text.stderr:
        raise CheckFailed(f"peerctl discover with TMDB failing: exit {text.returncode}: {text.stderr!r}")
    if failed.returncode != 1 or "top rated, page 4" not in failed.stderr:
        raise CheckFailed(f"a page never kept, TMDB failing: exit {failed.returncode}: {failed.stderr!r}")
    again = w.alice.peerctl_json("discover", "--top-rated", "--page", "4")
    if ids(again) != expected("/3/movie/top_rated", {"page": "4"})[0]:
        raise CheckFailed(f"page 4 after TMDB recovered: {ids(again)}")
    return f"kept page shown: {text.stderr.strip()!r}; never kept: {failed.stderr.strip()!r}; retried: works"


def check_shelf_holder_away(w):
    """bob holds none: with alice stopped, his kept pages and genres are shown with their age."""
    w.up()
    fresh = w.bob.peerctl_json("discover", "--trending", "week")
    w.bob.peerctl_json("genres")
    age_kept_page(w.bob, "list-trending-week-p1.json", 3)
    w.alice.stop()
    try:
        harness.expect_eventually(lambda: not any(p.get("state") == "connected" and p.get("peer") == w.alice.id
                                                  for p in w.bob.peers()), 20, "bob sees alice gone")
        started = time.monotonic()
        kept = w.bob.peerctl("discover", "--trending", "week")
        genres = w.bob.peerctl_json("genres")
        took = time.monotonic() - started
    finally:
        w.alice.start()
        w.connected()
    if kept.returncode != 0 or "kept from 3h" not in kept.stderr or "alice holds one" not in kept.stderr:
        raise CheckFailed(f"bob's discover --trending week with alice away: exit {kept.returncode}: {kept.stderr!r}")
    if str(fresh["results"][0]["title"]) not in kept.stdout or len(genres["genres"]) != 19 or genres.get("stale"):
        raise CheckFailed(f"kept page: {kept.stdout[:200]!r}; genres: {genres}")
    return f"{kept.stderr.strip()!r}; genres still fresh from disk; both in {took:.2f} s"


def check_providers(w):
    """Where to watch travels in the describe: bob, without a token, shows alice's, for her language's region."""
    w.up()
    for movie in (624860, 278):
        if movie not in w.bob.movie_ids():
            w.alice.peerctl("add", movie)
    w.wait_for(lambda: all("details" in w.bob.show(m) for m in (624860, 278)), 20, "624860 and 278 described on bob")
    shown = w.bob.show(624860)["details"].get("providers") or {}
    want = lists.watch_providers(CATALOG[624860])["US"]
    names = lambda offers: [o["provider_name"] if "provider_name" in o else o["name"] for o in offers]  # noqa: E731
    if shown.get("region") != "US" or any(names(shown.get(k, [])) != names(want.get(f, []))
                                          for k, f in (("stream", "flatrate"), ("rent", "rent"), ("buy", "buy"))):
        raise CheckFailed(f"bob's show 624860: providers {shown}; TMDB's US offers {want}")
    if shown.get("link") != want["link"]:
        raise CheckFailed(f"the where-to-watch link {shown.get('link')!r}, TMDB's {want['link']!r}")
    nowhere = w.bob.show(278)["details"].get("providers")
    text = w.bob.peerctl("show", "624860")
    # No offers in the region is said, not left out: the describe names the region it looked in.
    if nowhere != {"region": "US"} or "stream (US)" not in text.stdout or "JustWatch" not in text.stdout:
        raise CheckFailed(f"278 (no US offers): {nowhere}; peerctl show 624860: {text.stdout}")
    asked = w.fake.requests("/3/movie/624860")
    if not asked or any(r["query"].get("append_to_response") != "watch/providers,release_dates" for r in asked):
        raise CheckFailed(f"/3/movie/624860 was asked {[r['query'] for r in asked]}")
    return (f"624860 in US: stream {names(shown['stream'])}, rent {names(shown.get('rent', []))}; 278: none in US; "
            f"{len(asked)} request(s) for 624860, each with append_to_response=watch/providers,release_dates")


CHECKS = [
    ("group: discover on bob through alice, each list and each filter", check_group_discover),
    ("group: discover with a ceiling on bob through alice asks TMDB for certified movies only",
     check_group_discover_ceiling),
    ("group: genres and similar on bob through alice", check_group_genres_similar),
    ("shelf: TMDB failing, alice's discover shows the kept page and its age; a page never kept fails, then works",
     check_shelf_tmdb_down),
    ("shelf: alice away, bob's discover shows the kept page and its age", check_shelf_holder_away),
    ("providers: where to watch in alice's region reaches bob with the describe; show names JustWatch",
     check_providers),
]
