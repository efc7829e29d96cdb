"""The fake TMDB's certifications, in the shapes of TMDB's API reference (developer.themoviedb.org/reference):

    /3/movie/{id}/release_dates     {"id", "results": [{"iso_3166_1", "release_dates": [{"certification",
                                    "descriptors", "iso_639_1", "note", "release_date", "type"}]}]}; 404 unknown id
    /3/certification/movie/list     {"certifications": {COUNTRY: [{"certification", "meaning", "order"}]}}

`append_to_response=release_dates` on /3/movie/{id} (the same object without "id"), and on /3/discover/movie
`certification_country` with `certification`, `certification.lte` or `certification.gte` (a movie without a
certification there is left out, as TMDB does).

RATED gives the movies of fake_tmdb.MOVIES a certification in US, DE and GB (a theatrical release, type 3; The
Matrix also has a US premiere, type 1, with none). The Matrix Revisited (14543) has releases without any
certification; made-up movies have no release dates at all: both are "no certification".
"""

# TMDB's own lists for three countries, NR first in the US as TMDB lists it.
ORDERS = {
    "US": [("NR", "No rating information."), ("G", "All ages admitted."),
           ("PG", "Some material may not be suitable for children."),
           ("PG-13", "Some material may be inappropriate for children under 13."),
           ("R", "Under 17 requires accompanying parent or adult guardian."),
           ("NC-17", "No one 17 and under admitted.")],
    "DE": [("0", "No age restriction."), ("6", "No children younger than 6 years admitted."),
           ("12", "Children 12 or older admitted."), ("16", "Children 16 or older admitted."),
           ("18", "No youth admitted.")],
    "GB": [("U", "All ages admitted."), ("PG", "General viewing."), ("12A", "Films under 12 need an adult."),
           ("12", "Suitable for 12 years and over."), ("15", "Suitable only for 15 years and over."),
           ("18", "Adults only."), ("R18", "Adult works for licensed premises.")],
}
# id: (US, DE, GB)
RATED = {
    603: ("R", "16", "15"), 604: ("R", "16", "15"), 605: ("R", "16", "15"), 624860: ("R", "16", "15"),
    55931: ("PG-13", "12", "12"), 550: ("R", "18", "18"), 680: ("R", "16", "18"), 13: ("PG-13", "12", "12A"),
    27205: ("PG-13", "12", "12A"), 155: ("PG-13", "16", "12A"), 278: ("R", "12", "15"), 238: ("R", "16", "15"),
    129: ("PG", "0", "PG"), 194: ("R", "6", "15"), 157336: ("PG-13", "12", "12A"), 78: ("R", "16", "15"),
    62: ("G", "12", "U"), 105: ("PG", "6", "PG"), 862: ("G", "0", "U"), 841: ("PG-13", "12", "15"),
    438631: ("PG-13", "12", "12A"), 807: ("R", "16", "18"), 769: ("R", "16", "18"),
}
UNRATED = {14543}


def certification_list():
    return {"certifications": {country: [{"certification": c, "meaning": m, "order": i}
                                         for i, (c, m) in enumerate(entries, start=0 if country == "US" else 1)]
                               for country, entries in ORDERS.items()}}


def _release(certification, kind, date, note=""):
    return {"certification": certification, "descriptors": [], "iso_639_1": "", "note": note,
            "release_date": f"{date}T00:00:00.000Z", "type": kind}


def release_dates(movie):
    """{"results": […]} for `movie` (its details): what TMDB lists of its releases."""
    mid, date = movie["id"], movie["release_date"]
    if mid in UNRATED:
        return {"results": [{"iso_3166_1": "US", "release_dates": [_release("", 3, date)]}]}
    if mid not in RATED:
        return {"results": []}
    results = []
    for country, certification in zip(("DE", "GB", "US"), (RATED[mid][1], RATED[mid][2], RATED[mid][0])):
        releases = [_release(certification, 3, date)]
        if mid == 603 and country == "US":
            releases.insert(0, _release("", 1, "1999-03-24", "Los Angeles, California"))
        results.append({"iso_3166_1": country, "release_dates": releases})
    return {"results": results}


def certification(movie_id, country):
    """The movie's certification in `country`, or None."""
    column = {"US": 0, "DE": 1, "GB": 2}.get(country)
    return RATED[movie_id][column] if movie_id in RATED and column is not None else None


def discover_keeps(movie_id, query):
    """Whether /3/discover/movie's certification filters (if any) keep the movie."""
    country = query.get("certification_country")
    exact, most, least = query.get("certification"), query.get("certification.lte"), query.get("certification.gte")
    if not country or not (exact or most or least):
        return True
    ranked = [c for c, _ in ORDERS.get(country, [])]
    have = certification(movie_id, country)
    if have is None or have not in ranked:
        return False
    rank = ranked.index(have)
    return ((exact is None or have == exact)
            and (most is None or most in ranked and rank <= ranked.index(most))
            and (least is None or least in ranked and rank >= ranked.index(least)))
