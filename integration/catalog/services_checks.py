"""The group's region and streaming services (issue 21, "Where to watch"): one signed `settings`
operation, newest wins; `peerctl services` sets it from bob, who holds no token, naming services that
alice looks up on TMDB (`/3/watch/providers/movie`) for him; when the region changes the listed movies'
providers are fetched again; `peerctl list --streaming` keeps what the services stream there.

What each movie streams where comes from the fake's own offers (fake_tmdb_lists.watch_providers), so
the filter is compared with what TMDB would have said, id for id.
"""
import json

import harness
from harness import CheckFailed
from fake_tmdb import CATALOG
import fake_tmdb_lists as lists

NETFLIX, MUBI = 8, 11


def streams_in(movie, region, services):
    offers = lists.watch_providers(CATALOG[movie]).get(region) or {}
    return any(o["provider_id"] in services for o in offers.get("flatrate", []))


def check_services_unset(w):
    """Before anyone sets them: the language's region, no services, and --streaming says what to do."""
    w.up()
    # Blade Runner and The Godfather stream on Netflix or MUBI in DE; the rest don't there.
    for movie in (603, 550, 624860, 278, 680, 78, 238):
        if movie not in w.bob.movie_ids():
            w.alice.peerctl("add", movie)
    record = w.bob.peerctl_json("services")
    if (record["region"], record["regionFrom"], record["services"]) != ("US", "language", []):
        raise CheckFailed(f"bob's services before anyone set them: {record}")
    refused = w.bob.peerctl("list", "--streaming")
    if refused.returncode != 1 or "peerctl services --region" not in refused.stderr:
        raise CheckFailed(f"list --streaming without services: exit {refused.returncode}: {refused.stderr}")
    unknown = w.bob.peerctl("services", "--region", "DE", "nosuch")
    if unknown.returncode != 1 or "no streaming service called 'nosuch' in DE" not in unknown.stderr \
            or "Netflix" not in unknown.stderr:
        raise CheckFailed(f"services nosuch: exit {unknown.returncode}: {unknown.stderr}")
    return f"US from the language, no services; --streaming exits 1; {unknown.stderr.strip()!r}"


def check_services_set(w):
    """bob names DE, netflix and mubi: alice resolves the names; carol sees the same settings;
    every listed movie is described again with its DE offers; --streaming keeps what they stream."""
    w.up()
    # Movies TMDB doesn't know (earlier checks' markers) have no details to fetch again.
    listed = sorted(m for m in w.carol.movie_ids() if "details" in w.carol.show(m))
    fetched_before = {m: len(w.attempts(m)) for m in listed}
    record = w.bob.peerctl_json("services", "--region", "de", "netflix", "MUBI")
    names = [s["name"] for s in record["services"]]
    if record["region"] != "DE" or record["regionFrom"] != "group" or names != ["Netflix", "MUBI"] \
            or record.get("setBy") != "bob":
        raise CheckFailed(f"bob's services --region de netflix MUBI: {record}")
    # Once in all, through alice: the first check's lookup for bob; this one comes from bob's shelf.
    asked = [r for r in w.fake.requests("/3/watch/providers/movie") if r["query"].get("watch_region") == "DE"]
    if len(asked) != 1 or asked[0]["token"] is None:
        raise CheckFailed(f"TMDB's services in DE were asked {len(asked)} times (once, with alice's token, expected)")
    harness.expect_eventually(lambda: w.carol.peerctl_json("services")["services"] == record["services"], 10,
                              "carol has bob's settings")

    def redescribed():
        return all((w.carol.show(m).get("details", {}).get("providers") or {}).get("region") == "DE" for m in listed)
    w.wait_for(redescribed, 60, f"all {len(listed)} listed movies described again with DE offers on carol")
    refetched = {m: len(w.attempts(m)) - fetched_before[m] for m in listed}
    if any(n < 1 for n in refetched.values()):
        raise CheckFailed(f"movies not fetched again for DE: {[m for m, n in refetched.items() if n < 1]}")
    want = {m for m in listed if streams_in(m, "DE", {NETFLIX, MUBI})}
    rows = w.carol.peerctl_json("list", "--streaming")
    got = {r["movieId"] for r in rows}
    if got != want or not want:
        raise CheckFailed(f"carol's list --streaming: {sorted(got)}; streaming on Netflix or MUBI in DE: {sorted(want)}")
    on = {r["movieId"]: r.get("streamingOn") for r in rows}
    if any(name not in ("Netflix", "MUBI") for name in on.values()):
        raise CheckFailed(f"streamingOn: {on}")
    text = w.carol.peerctl("list", "--streaming")
    if text.returncode != 0 or "STREAMS ON" not in text.stdout:
        raise CheckFailed(f"peerctl list --streaming on carol: {text.stdout}{text.stderr}")
    extra = sum(refetched.values())
    return (f"DE, Netflix and MUBI set by bob; carol agrees; {len(listed)} listed movies described again "
            f"({extra} requests); TMDB's DE services asked once; --streaming: {len(got)} of {len(listed)} ({sorted(got)}) as TMDB's DE offers say")


def check_services_newest_wins(w):
    """carol changes the region only: the services stay, every peer shows carol's, and an unchanged
    setting appends nothing."""
    w.up()
    before = w.alice.peerctl_json("services")
    record = w.carol.peerctl_json("services", "--region", "US")
    if record["region"] != "US" or record["services"] != before["services"] or record.get("setBy") != "carol":
        raise CheckFailed(f"carol's --region US: {record} (before: {before})")
    harness.expect_eventually(lambda: all(d.peerctl_json("services") == record for d in w.all()), 10,
                              "alice, bob and carol show carol's settings")
    again = w.carol.peerctl_json("services", "--region", "US")
    if again.get("setAt") != record.get("setAt"):
        raise CheckFailed(f"setting the same again made a new operation: {again} vs {record}")
    return f"US with {[s['name'] for s in record['services']]}, set by carol, on all three; the same again adds nothing"


CHECKS = [
    ("services: before any are set, the language's region; --streaming and an unknown name say what to do",
     check_services_unset),
    ("services: bob sets DE, netflix, mubi through alice; movies described again for DE; --streaming filters",
     check_services_set),
    ("services: carol's newer region wins everywhere, the services stay", check_services_newest_wins),
]
