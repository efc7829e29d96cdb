"""The fake TMDB's lists, in the shapes of TMDB's API reference (developer.themoviedb.org/reference):

    /3/movie/popular, /3/movie/top_rated           paged lists (20 a page)
    /3/movie/upcoming, /3/movie/now_playing        the same, with "dates": {"maximum", "minimum"}
    /3/trending/movie/{day|week}                   paged, each result with "media_type": "movie"
    /3/discover/movie                              with_genres ("," all of, "|" any of), primary_release_year,
                                                   with_runtime.gte/.lte, vote_average.gte, with_watch_providers
                                                   (with watch_region), certification_country with
                                                   certification(.lte/.gte) (fake_tmdb_certifications), sort_by, page
    /3/genre/movie/list                            {"genres": [{"id", "name"}]}
    /3/movie/{id}/recommendations                  paged, "media_type": "movie"; 404 for an unknown movie
    /3/movie/{id}/watch/providers                  {"id", "results": {REGION: {"link", "flatrate", "rent", "buy"}}}
    /3/watch/providers/movie?watch_region=         {"results": [{"display_priorities", "display_priority",
                                                   "logo_path", "provider_name", "provider_id"}]}

and `append_to_response=watch/providers` on /3/movie/{id}. Beside the movies of fake_tmdb.MOVIES it lists
made-up ones (ids from 9 100 000), so that each list runs over several pages and each filter keeps some
and drops others; 16 of them are dated from today, for upcoming and now playing.
"""
import datetime
import hashlib
import re

import fake_tmdb_certifications as certifications

# TMDB's movie genres (/3/genre/movie/list, en-US).
GENRE_LIST = [(28, "Action"), (12, "Adventure"), (16, "Animation"), (35, "Comedy"), (80, "Crime"),
              (99, "Documentary"), (18, "Drama"), (10751, "Family"), (14, "Fantasy"), (36, "History"),
              (27, "Horror"), (10402, "Music"), (9648, "Mystery"), (10749, "Romance"), (878, "Science Fiction"),
              (10770, "TV Movie"), (53, "Thriller"), (10752, "War"), (37, "Western")]
GENRE_NAMES = dict(GENRE_LIST)
# id, name, display priority in US and DE (a provider missing from a region has none there).
PROVIDERS = [(8, "Netflix", {"US": 0, "DE": 0}), (9, "Amazon Prime Video", {"US": 1, "DE": 1}),
             (337, "Disney Plus", {"US": 2, "DE": 2}), (15, "Hulu", {"US": 3}), (11, "MUBI", {"US": 4, "DE": 3}),
             (1899, "Max", {"US": 5}), (2, "Apple TV", {"US": 6, "DE": 4}), (3, "Google Play Movies", {"US": 7, "DE": 5})]
STREAMING = (8, 9, 337, 15, 11, 1899)
SHOPS = (2, 3)
SORTS = ("popularity", "vote_average", "primary_release_date", "title", "vote_count", "revenue")
PAGE = 20


def _hash(*parts):
    return int(hashlib.sha1("/".join(map(str, parts)).encode()).hexdigest()[:8], 16)


def _image(*parts):
    return "/" + hashlib.sha1("/".join(map(str, parts)).encode()).hexdigest()[:27] + ".jpg"


def made_up_rows(today):
    """Rows in fake_tmdb.MOVIES' form: 60 spread over 1960–2025, and 8 upcoming and 8 now playing from `today`."""
    ids = [g for g, _ in GENRE_LIST]
    rows = []
    for k in range(76):
        if k < 60:
            date = f"{1960 + k % 66}-{1 + k % 12:02d}-{1 + k % 28:02d}"
        else:
            days = 10 + 9 * (k - 60) if k < 68 else -(3 + 5 * (k - 68))
            date = (today + datetime.timedelta(days=days)).isoformat()
        genres = [ids[k % len(ids)], ids[(k * 7 + 3) % len(ids)]] if k % 3 else [ids[k % len(ids)]]
        rows.append((9_100_000 + k, f"Fake Feature {k}", date, 80 + (k * 37) % 95, sorted(set(genres)),
                     f"tt9{k:06d}", round(4.0 + (k * 13 % 50) / 10, 1), "Made up for the fake."))
    return rows


def result(details, media_type=False):
    """A list's entry for a movie, from its details, as /3/movie/popular and the rest give it."""
    entry = {"adult": False, "backdrop_path": details["backdrop_path"],
             "genre_ids": [g["id"] for g in details["genres"]], "id": details["id"],
             "original_language": details["original_language"], "original_title": details["original_title"],
             "overview": details["overview"], "popularity": details["popularity"],
             "poster_path": details["poster_path"], "release_date": details["release_date"],
             "title": details["title"], "video": False, "vote_average": details["vote_average"],
             "vote_count": details["vote_count"]}
    return {**entry, "media_type": "movie"} if media_type else entry


def paged(movies, query, media_type=False, extra=None):
    page = query.get("page", "1")
    page = int(page) if page.isdigit() else 0
    if not 1 <= page <= 500:
        return 400, {"errors": ["page must be less than or equal to 500"]}
    body = {"page": page, "results": [result(m, media_type) for m in movies[(page - 1) * PAGE: page * PAGE]],
            "total_pages": (len(movies) + PAGE - 1) // PAGE, "total_results": len(movies)}
    return 200, {**(extra or {}), **body}


def providers(movie, region):
    """Where `movie` streams, rents and sells in `region`, the same each time: a hash of id and region."""
    offer = lambda p, kind: {"logo_path": _image("logo", p[0]), "provider_id": p[0],  # noqa: E731
                             "provider_name": p[1], "display_priority": p[2][region]}
    here = [p for p in PROVIDERS if region in p[2]]
    streams = [offer(p, "flatrate") for p in here if p[0] in STREAMING and _hash(movie["id"], region, p[0]) % 3 == 0]
    shops = [p for p in here if p[0] in SHOPS]
    slug = re.sub(r"[^a-z0-9]+", "-", movie["title"].lower()).strip("-")
    entry = {"link": f"https://www.themoviedb.org/movie/{movie['id']}-{slug}/watch?locale={region}"}
    if streams:
        entry["flatrate"] = streams
    if _hash(movie["id"], region) % 4:
        entry["rent"] = [offer(p, "rent") for p in shops]
        entry["buy"] = [offer(p, "buy") for p in shops]
    return entry if len(entry) > 1 else None


def offers(movie, region, stream=(), rent=(), buy=()):
    """A region's entry offering `movie` on the providers given by id (of PROVIDERS); None when on none."""
    named = {p[0]: p for p in PROVIDERS}
    offer = lambda i: {"logo_path": _image("logo", i), "provider_id": i,  # noqa: E731
                       "provider_name": named[i][1], "display_priority": named[i][2].get(region, 1)}
    entry = {"link": f"https://www.themoviedb.org/movie/{movie}/watch?locale={region}"}
    for kind, ids in (("flatrate", stream), ("rent", rent), ("buy", buy)):
        if ids:
            entry[kind] = [offer(i) for i in ids]
    return entry if len(entry) > 1 else None


def watch_providers(movie):
    """{"REGION": {...}} for the regions where the movie is offered at all."""
    return {r: e for r in ("US", "DE") if (e := providers(movie, r))}


def provider_list(query):
    region = query.get("watch_region")
    listed = [p for p in PROVIDERS if region is None or region in p[2]]
    return 200, {"results": [{"display_priorities": p[2], "display_priority": p[2].get(region, min(p[2].values())),
                              "logo_path": _image("logo", p[0]), "provider_name": p[1], "provider_id": p[0]}
                             for p in listed]}


def _matches_genres(movie, spec):
    if not spec:
        return True
    have = {g["id"] for g in movie["genres"]}
    if "|" in spec:
        return any(int(g) in have for g in spec.split("|") if g.isdigit())
    return all(int(g) in have for g in spec.split(",") if g.isdigit())


def _number(query, key, kind=float):
    try:
        return kind(query[key]) if key in query else None
    except ValueError:
        return None


def discover(movies, query):
    year, low, high = _number(query, "primary_release_year", int), _number(query, "with_runtime.gte"), \
        _number(query, "with_runtime.lte")
    rating, region = _number(query, "vote_average.gte"), query.get("watch_region", "US")
    wanted = {int(p) for p in re.split(r"[|,]", query.get("with_watch_providers", "")) if p.isdigit()}
    found = [m for m in movies if _matches_genres(m, query.get("with_genres", ""))
             and (year is None or m["release_date"].startswith(f"{year}-"))
             and (low is None or m["runtime"] >= low) and (high is None or m["runtime"] <= high)
             and (rating is None or m["vote_average"] >= rating)
             and (not wanted or wanted & {o["provider_id"] for o in
                                          (providers(m, region) or {}).get("flatrate", [])})
             and certifications.discover_keeps(m["id"], query)]
    key, _, order = query.get("sort_by", "popularity.desc").partition(".")
    if key not in SORTS or order not in ("asc", "desc"):
        return 422, {"errors": [f"sort_by must be one of {', '.join(s + '.asc, ' + s + '.desc' for s in SORTS)}"]}
    field = {"primary_release_date": "release_date"}.get(key, key)
    found.sort(key=lambda m: (m.get(field, 0), m["id"]), reverse=order == "desc")
    return paged(found, query)


def recommendations(movies, movie, query):
    mine = {g["id"] for g in movie["genres"]}
    near = [m for m in movies if m["id"] != movie["id"] and mine & {g["id"] for g in m["genres"]}]
    near.sort(key=lambda m: (-len(mine & {g["id"] for g in m["genres"]}), -m["popularity"], m["id"]))
    return paged(near[:40], query, media_type=True)


def dated(movies, query, today, upcoming):
    """Upcoming (from tomorrow to 12 weeks on) or now playing (the last 6 weeks), with their "dates"."""
    if upcoming:
        low, high = today + datetime.timedelta(days=1), today + datetime.timedelta(weeks=12)
    else:
        low, high = today - datetime.timedelta(weeks=6), today
    within = [m for m in movies if low.isoformat() <= m["release_date"] <= high.isoformat()]
    within.sort(key=lambda m: (-m["popularity"], m["id"]))
    return paged(within, query, extra={"dates": {"maximum": high.isoformat(), "minimum": low.isoformat()}})


def trending(movies, window, query):
    """Day and week each in an order of their own, the same all day."""
    ranked = sorted(movies, key=lambda m: (_hash(window, m["id"]) % 1000 - m["popularity"], m["id"]))
    return paged(ranked, query, media_type=True)


def route(path, query, movies, today):
    """(status, body) for one of the lists' paths, or None for a path that is not one of them."""
    by_popularity = sorted(movies.values(), key=lambda m: (-m["popularity"], m["id"]))
    if path == "/3/movie/popular":
        return paged(by_popularity, query)
    if path == "/3/movie/top_rated":
        return paged(sorted(movies.values(), key=lambda m: (-m["vote_average"], m["id"])), query)
    if path in ("/3/movie/upcoming", "/3/movie/now_playing"):
        return dated(by_popularity, query, today, path.endswith("upcoming"))
    if match := re.fullmatch(r"/3/trending/movie/(day|week)", path):
        return trending(by_popularity, match[1], query)
    if path == "/3/discover/movie":
        return discover(by_popularity, query)
    if path == "/3/genre/movie/list":
        return 200, {"genres": [{"id": g, "name": n} for g, n in GENRE_LIST]}
    if path == "/3/watch/providers/movie":
        return provider_list(query)
    if match := re.fullmatch(r"/3/movie/(\d+)/(recommendations|watch/providers)", path):
        movie = movies.get(int(match[1]))
        if movie is None:
            return None
        if match[2] == "recommendations":
            return recommendations(by_popularity, movie, query)
        return 200, {"id": movie["id"], "results": watch_providers(movie)}
    return None
