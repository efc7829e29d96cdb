#!/usr/bin/env python3
"""A fake of The Movie Database's API v3 on 127.0.0.1, for tests: the real API's JSON shapes for a
handful of real movies, its paging and error bodies, both kinds of credential, and faults to switch
on at runtime.

    /3/movie/{id}?language=    details (401 status_code 7 without a valid token, 404 status_code 34 unknown id)
    /3/search/movie?query=&year=&page=   20 results a page; "matrix" spans 3 pages
    /3/configuration           images.secure_base_url, poster_sizes, change_keys
    /3/find/{imdb_id}?external_source=imdb_id   movie_results (empty lists for an id it doesn't know)
    with `synthetic`, also made-up movies: /3/movie/N and a search for "Movie N"; always, the markers'
    ids (MARKERS: 8 000 001 to 8 099 999) as made-up movies, and every other id it doesn't know as a 404
    the lists (popular, top rated, upcoming, now playing, trending, discover), genres, recommendations and
    where to watch: fake_tmdb_lists.py; `append_to_response=watch/providers` on /3/movie/{id}, and
    /3/movie/{id}/watch/providers (a test changes a movie's offers with `set_offers`)
    release dates and certifications (/3/movie/{id}/release_dates, /3/certification/movie/list,
    `append_to_response=release_dates`, discover's certification filter): fake_tmdb_certifications.py

A v4 read access token (a JWT, "eyJ…") is accepted only as `Authorization: Bearer …`, a v3 key
(32 hex digits) only as `api_key=…`, as TMDB does; each request records which one it carried.

Fault modes (every /3/ request while on): ok (optional latency), fail80 (80% get 500, seeded, the
first six of each switch among them), ratelimit (429, Retry-After: 2), stall (10 s, then the answer),
malformed (200, broken JSON), huge (200, a 50 MB body streamed chunked, no length announced),
reset (the connection closed with RST).

In a test: `tmdb = FakeTMDB([token]).start(); tmdb.url; tmdb.set_fault("stall"); tmdb.count("/3/movie/603")`.
Standalone: `python3 fake_tmdb.py --port 0 --token T` prints its URL; GET /_fake/fault?mode=M switches
the fault, GET /_fake/requests lists what was asked.
"""
import argparse
import datetime
import hashlib
import json
import random
import re
import socket
import struct
import sys
import threading
import time
import unicodedata
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import fake_tmdb_certifications as certifications
import fake_tmdb_lists as lists

US = [{"iso_3166_1": "US", "name": "United States of America"}]
EN = [{"english_name": "English", "iso_639_1": "en", "name": "English"}]
# id, title, release date, runtime, genre ids, IMDb id, vote average, overview (ours, short), original (title, language)
MOVIES = [
    (603, "The Matrix", "1999-03-31", 136, [28, 878], "tt0133093", 8.22, "A hacker learns his world is simulated."),
    (604, "The Matrix Reloaded", "2003-05-15", 138, [12, 28, 53, 878], "tt0234215", 7.07, "Neo's fight goes on."),
    (605, "The Matrix Revolutions", "2003-11-05", 129, [12, 28, 53, 878], "tt0242653", 6.71, "The war ends."),
    (624860, "The Matrix Resurrections", "2021-12-16", 148, [878, 28, 12], "tt10838180", 6.4, "Back to the Matrix."),
    (55931, "The Animatrix", "2003-06-02", 102, [16, 878], "tt0328832", 7.3, "Nine animated shorts."),
    (14543, "The Matrix Revisited", "2001-11-20", 123, [99], "tt0295432", 7.1, "How The Matrix was made."),
    (550, "Fight Club", "1999-10-15", 139, [18], "tt0137523", 8.43, "An insomniac and a soap maker start a club."),
    (680, "Pulp Fiction", "1994-09-10", 154, [53, 80], "tt0110912", 8.49, "Crime stories in Los Angeles, interlaced."),
    (13, "Forrest Gump", "1994-06-23", 142, [35, 18, 10749], "tt0109830", 8.47, "A kind man lives through history."),
    (27205, "Inception", "2010-07-15", 148, [28, 878, 12], "tt1375666", 8.37, "A thief steals secrets in dreams."),
    (155, "The Dark Knight", "2008-07-16", 152, [18, 28, 80, 53], "tt0468569", 8.52, "Batman meets the Joker."),
    (278, "The Shawshank Redemption", "1994-09-23", 142, [18, 80], "tt0111161", 8.71, "Hope inside a prison."),
    (238, "The Godfather", "1972-03-14", 175, [18, 80], "tt0068646", 8.69, "A crime family's reluctant son."),
    (129, "Spirited Away", "2001-07-20", 125, [16, 10751, 14], "tt0245429", 8.54, "A girl works in a bathhouse.",
     "千と千尋の神隠し", "ja"),
    (194, "Amélie", "2001-04-25", 122, [35, 10749], "tt0211915", 7.9, "A shy waitress changes lives in Paris.",
     "Le Fabuleux Destin d'Amélie Poulain", "fr"),
    (157336, "Interstellar", "2014-11-05", 169, [12, 18, 878], "tt0816692", 8.46, "A voyage to save mankind."),
    (78, "Blade Runner", "1982-06-25", 117, [878, 18, 53], "tt0083658", 7.94, "A hunter of replicants."),
    (62, "2001: A Space Odyssey", "1968-04-02", 149, [878, 9648, 12], "tt0062622", 8.07, "A monolith and HAL."),
    (105, "Back to the Future", "1985-07-03", 116, [12, 35, 878], "tt0088763", 8.32, "A teenager goes back to 1955."),
    (862, "Toy Story", "1995-10-30", 81, [16, 12, 10751, 35], "tt0114709", 7.97, "Toys come alive."),
    (841, "Dune", "1984-12-14", 137, [28, 878, 12], "tt0087182", 6.29, "Paul Atreides on Arrakis."),
    (438631, "Dune", "2021-09-15", 155, [878, 12], "tt1160419", 7.78, "Paul Atreides on Arrakis, again."),
    (807, "Se7en", "1995-09-22", 127, [80, 9648, 53], "tt0114369", 8.37, "Two detectives and seven sins."),
    (769, "GoodFellas", "1990-09-12", 145, [18, 80], "tt0099685", 8.46, "Henry Hill's life in the mob. " * 50),
]


def _details(row):
    mid, title, date, runtime, genres, imdb, vote, overview = row[:8]
    original, language = row[8:] if len(row) > 8 else (title, "en")
    image = lambda kind: "/" + hashlib.sha1(f"{mid}{kind}".encode()).hexdigest()[:27] + ".jpg"  # noqa: E731
    return {"adult": False, "backdrop_path": image("b"), "belongs_to_collection": {"id": 2344, "name": "The Matrix "
            "Collection", "poster_path": image("c"), "backdrop_path": image("d")} if 603 <= mid <= 605 else None,
            "budget": 63000000, "genres": [{"id": g, "name": lists.GENRE_NAMES[g]} for g in genres], "homepage": "",
            "id": mid, "imdb_id": imdb, "origin_country": ["JP" if language == "ja" else "US"],
            "original_language": language, "original_title": original, "overview": overview.strip(),
            "popularity": round(100 - len(title) / 3, 3), "poster_path": "/f89U3ADr1oiB1s9GkdPOEpXUk5H.jpg"
            if mid == 603 else image("p"), "production_companies": [{"id": 174, "logo_path": image("l"), "name":
            "Warner Bros. Pictures", "origin_country": "US"}], "production_countries": US, "release_date": date,
            "revenue": 463517383, "runtime": runtime, "spoken_languages": EN, "status": "Released", "tagline": "",
            "title": title, "video": False, "vote_average": vote, "vote_count": 26000}


DETAILS = {row[0]: _details(row) for row in MOVIES}
# The lists run over these too: made-up movies, some dated from today (fake_tmdb_lists.made_up_rows).
TODAY = datetime.date.today()
EXTRA = {row[0]: {**_details(row), "popularity": round(90 - (row[0] % 100) * 1.1, 3), "vote_count": 500}
         for row in lists.made_up_rows(TODAY)}
CATALOG = {**DETAILS, **EXTRA}
# Ids a test adds on a token holder to see its fetches settle (test_catalog.wait_settled): made-up movies.
MARKERS = range(8_000_001, 8_100_000)
# Search-only entries (no details), so that "matrix" has three pages: made up, ids above 9 000 000.
FILLER = [{"id": 9_000_000 + k, "title": f"Matrix Fan Film {k}", "release_date": f"{1990 + k % 20}-01-01",
           "overview": "Made up for the fake.", "genre_ids": [878], "popularity": 1.0 - k / 100,
           "vote_average": 5.0, "poster_path": None} for k in range(1, 42)]
SEARCHABLE = list(DETAILS.values()) + FILLER
CONFIGURATION = {
    "images": {"base_url": "http://image.tmdb.org/t/p/", "secure_base_url": "https://image.tmdb.org/t/p/",
               "backdrop_sizes": ["w300", "w780", "w1280", "original"], "logo_sizes": ["w45", "w92", "original"],
               "poster_sizes": ["w92", "w154", "w185", "w342", "w500", "w780", "original"],
               "profile_sizes": ["w45", "w185", "h632", "original"], "still_sizes": ["w92", "w185", "original"]},
    "change_keys": ["adult", "backdrop_path", "genres", "imdb_id", "overview", "poster_path", "release_date",
                    "runtime", "title", "vote_average"]}


def made_up(movie):
    """Details in the real shape for an id no table here has (`synthetic`)."""
    return _details((movie, f"Movie {movie}", "2000-01-01", 100, [18], f"tt{movie:07d}", 7.0, f"Movie {movie}."))


def tmdb_error(code, message):
    return {"status_code": code, "status_message": message, "success": False}


INVALID_KEY = tmdb_error(7, "Invalid API key: You must be granted a valid key.")
NOT_FOUND = tmdb_error(34, "The resource you requested could not be found.")
INTERNAL = tmdb_error(11, "Internal error: Something went wrong, contact TMDB.")
LIMITED = tmdb_error(25, "Your request count (41) is over the allowed limit of 40.")
MODES = ("ok", "fail80", "ratelimit", "stall", "malformed", "huge", "reset")
HUGE_BYTES = 50 << 20


def token_kind(token):
    """"bearer" for a v4 read access token (a JWT), "api_key" for a v3 key (32 hex digits), else None."""
    if token.startswith("eyJ"):
        return "bearer"
    return "api_key" if re.fullmatch(r"[0-9a-f]{32}", token) else None


def search_result(movie):
    keys = ("adult", "backdrop_path", "genre_ids", "id", "original_language", "original_title", "overview",
            "popularity", "poster_path", "release_date", "title", "video", "vote_average", "vote_count")
    full = {"adult": False, "backdrop_path": None, "genre_ids": [g["id"] for g in movie.get("genres", [])],
            "original_language": "en", "original_title": movie["title"], "video": False, "vote_count": 10, **movie}
    return {k: full[k] for k in keys}


def unaccented(text):
    """TMDB's search ignores accents: "amelie" finds Amélie."""
    return "".join(c for c in unicodedata.normalize("NFKD", text.lower()) if not unicodedata.combining(c))


def search(query, year, page):
    words = [w for w in re.findall(r"\w+", unaccented(query)) if w not in ("the", "a", "an")] or [query.lower()]
    found = [m for m in SEARCHABLE
             if all(w in unaccented(m["title"] + " " + m.get("original_title", "")) for w in words)
             and (not year or m["release_date"].startswith(year))]
    found.sort(key=lambda m: -m["popularity"])
    return {"page": page, "results": [search_result(m) for m in found[(page - 1) * 20: page * 20]],
            "total_pages": (len(found) + 19) // 20, "total_results": len(found)}


def find(external, source):
    """/3/find: what TMDB has under an external id, in its shape (an unknown id is 200 with empty lists)."""
    if source not in ("imdb_id", "tvdb_id", "wikidata_id", "facebook_id", "instagram_id", "twitter_id", "tiktok_id",
                      "youtube_id"):
        return {"success": False, "status_code": 22, "status_message": "Invalid external_source."}
    found = [m for m in DETAILS.values() if source == "imdb_id" and m["imdb_id"] == external]
    return {"movie_results": [search_result(m) for m in found], "person_results": [], "tv_results": [],
            "tv_episode_results": [], "tv_season_results": []}


class FakeTMDB:
    def __init__(self, tokens=(), seed=3, stall_seconds=10.0, synthetic=False):
        self.kinds = {t: token_kind(t) for t in tokens}
        self.tokens = list(tokens)
        # For benchmarks: any id it doesn't know gets made-up details instead of a 404.
        self.synthetic = synthetic
        self.seed, self.stall_seconds = seed, stall_seconds
        self.lock, self.stopping = threading.Lock(), threading.Event()
        self.log = []  # {"path", "query", "auth", "status", "mode", "at"}
        self.offers = {}  # (movie, region) -> where it is offered now, in place of the made-up offers
        self.holds = {}  # path -> threading.Event: requests of that path wait until it is set
        self.set_fault("ok")
        self.server = None

    def allow(self, token):
        """Accepts one more token or key from now on."""
        with self.lock:
            self.kinds[token] = token_kind(token)
            self.tokens.append(token)

    def start(self, port=0):
        self.server = _Server(("127.0.0.1", port), _Handler)
        self.server.fake = self
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    @property
    def url(self):
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def stop(self):
        self.stopping.set()
        if self.server:
            self.server.shutdown()
            self.server.server_close()

    def set_fault(self, mode, latency_ms=0):
        if mode not in MODES:
            raise ValueError(f"no fault mode {mode!r}; one of {', '.join(MODES)}")
        with self.lock:
            self.mode, self.latency, self.rng = mode, latency_ms / 1000, random.Random(self.seed)

    def set_offers(self, movie, region, stream=(), rent=(), buy=()):
        """From now on `movie` is offered in `region` as given (provider ids of fake_tmdb_lists.PROVIDERS),
        in its details' `watch/providers` and at /3/movie/{id}/watch/providers alike."""
        with self.lock:
            self.offers[(movie, region)] = lists.offers(movie, region, stream, rent, buy)

    def hold(self, path):
        """Requests of `path` wait from now on until `release(path)` (or the fake stops)."""
        with self.lock:
            self.holds[path] = threading.Event()

    def release(self, path):
        with self.lock:
            held = self.holds.pop(path, None)
        if held:
            held.set()

    def watch_providers(self, movie):
        """{"REGION": {...}}: the made-up offers, with those `set_offers` changed."""
        with self.lock:
            changed = {region: entry for (m, region), entry in self.offers.items() if m == movie["id"]}
        results = {**lists.watch_providers(movie), **changed}
        return {region: entry for region, entry in results.items() if entry}

    def requests(self, path=None):
        """What was asked, oldest first; only of `path` (exact, without the query) when given."""
        with self.lock:
            return [dict(r) for r in self.log if path is None or r["path"] == path]

    def count(self, path, status=None):
        return sum(1 for r in self.requests(path) if status is None or r["status"] == status)

    def counts(self):
        return dict(Counter(r["path"] for r in self.requests()))


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], OSError):  # a client that went away is no error of the fake's
            super().handle_error(request, client_address)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "fake-tmdb/1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        fake, url = self.server.fake, urlsplit(self.path)
        query = {k: v[-1] for k, v in parse_qs(url.query).items()}
        if url.path.startswith("/_fake/"):
            return self.admin(fake, url.path, query)
        bearer = self.headers.get("Authorization", "").removeprefix("Bearer ").strip()
        auth = ("bearer" if fake.kinds.get(bearer) == "bearer" else
                "api_key" if fake.kinds.get(query.get("api_key", "")) == "api_key" else None)
        with fake.lock:
            mode, latency = fake.mode, fake.latency
            failing = mode == "fail80" and fake.rng.random() < 0.8
            used = bearer if auth == "bearer" else query.get("api_key") if auth else None
            record = {"path": url.path, "query": {k: v for k, v in query.items() if k != "api_key"},
                      "auth": auth, "token": fake.tokens.index(used) if auth else None,
                      "status": 0, "mode": mode, "at": time.monotonic()}
            fake.log.append(record)
        with fake.lock:
            held = fake.holds.get(url.path)
        if held:
            while not (held.wait(0.1) or fake.stopping.is_set()):
                pass
        if latency or mode == "stall":
            fake.stopping.wait(latency + (fake.stall_seconds if mode == "stall" else 0))
        if mode == "reset":
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.close_connection = True
            return self.connection.close()
        if mode == "ratelimit":
            record["status"] = 429
            return self.send_json(429, LIMITED, {"Retry-After": "2"})
        if failing:
            record["status"] = 500
            return self.send_json(500, INTERNAL)
        status, body = self.route(url.path, query, auth)
        record["status"] = status
        if status == 200 and mode == "malformed":
            return self.send_raw(200, json.dumps(body).encode()[:-7] + b'",,]')
        if status == 200 and mode == "huge":
            return self.send_huge()
        self.send_json(status, body)

    def route(self, path, query, auth):
        if not auth:
            return 401, INVALID_KEY
        if path == "/3/configuration":
            return 200, CONFIGURATION
        match = re.fullmatch(r"/3/movie/(\d+)", path)
        if match:
            found = self.movie(int(match[1]))
            appended = query.get("append_to_response", "").split(",")
            if found and "watch/providers" in appended:
                found = {**found, "watch/providers": {"results": self.server.fake.watch_providers(found)}}
            if found and "release_dates" in appended:
                found = {**found, "release_dates": certifications.release_dates(found)}
            return (200, found) if found else (404, NOT_FOUND)
        match = re.fullmatch(r"/3/movie/(\d+)/watch/providers", path)
        if match:
            found = self.movie(int(match[1]))
            return (200, {"id": found["id"], "results": self.server.fake.watch_providers(found)}) if found else \
                (404, NOT_FOUND)
        match = re.fullmatch(r"/3/movie/(\d+)/release_dates", path)
        if match:
            found = self.movie(int(match[1]))
            return (200, {"id": found["id"], **certifications.release_dates(found)}) if found else (404, NOT_FOUND)
        if path == "/3/certification/movie/list":
            return 200, certifications.certification_list()
        synthetic = self.server.fake.synthetic
        if path == "/3/search/movie":
            page = int(query.get("page", "1")) if query.get("page", "1").isdigit() else 0
            if not 1 <= page <= 500:
                return 400, {"errors": ["page must be less than or equal to 500"]}
            made = re.fullmatch(r"movie (\d{1,9})", query.get("query", "").lower()) if synthetic else None
            if made and page == 1:
                return 200, {"page": 1, "results": [search_result(made_up(int(made[1])))], "total_pages": 1,
                             "total_results": 1}
            return 200, search(query.get("query", ""), query.get("year", ""), page)
        match = re.fullmatch(r"/3/find/(.+)", path)
        if match:
            return 200, find(match[1], query.get("external_source"))
        return lists.route(path, query, CATALOG, TODAY) or (404, NOT_FOUND)

    def movie(self, movie):
        """The details of `movie`, made up for a marker or (`synthetic`) any id; None for a 404."""
        found = CATALOG.get(movie)
        if not found and (movie in MARKERS or self.server.fake.synthetic and 0 < movie < 1 << 31):
            found = made_up(movie)
        return found

    def admin(self, fake, path, query):
        if path == "/_fake/fault":
            try:
                fake.set_fault(query.get("mode", "ok"), int(query.get("latency_ms", "0")))
            except ValueError as error:
                return self.send_json(400, {"error": str(error)})
            return self.send_json(200, {"mode": fake.mode})
        if path == "/_fake/requests":
            return self.send_json(200, {"counts": fake.counts(), "requests": fake.requests()})
        self.send_json(404, NOT_FOUND)

    def send_json(self, status, body, headers=None):
        self.send_raw(status, json.dumps(body, ensure_ascii=False).encode(), headers)

    def send_raw(self, status, data, headers=None):
        self.send_response(status)
        self.send_header("Content-Type", "application/json;charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def send_huge(self):
        """A JSON object of HUGE_BYTES in 64 KiB chunks, with no Content-Length: the reader must stop it."""
        self.send_response(200)
        self.send_header("Content-Type", "application/json;charset=utf-8")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        head, tail, chunk = b'{"id":603,"title":"The Matrix","overview":"', b'"}', b"x" * 65536
        try:
            for part in [head] + [chunk] * -(-(HUGE_BYTES - len(head) - len(tail)) // len(chunk)) + [tail]:
                if self.server.fake.stopping.is_set():
                    break
                self.wfile.write(b"%x\r\n%s\r\n" % (len(part), part))
            self.wfile.write(b"0\r\n\r\n")
        except OSError:  # the client gave up reading: what it should do
            self.close_connection = True


def main():
    parser = argparse.ArgumentParser(description="A fake TMDB API v3 on 127.0.0.1.")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--token", action="append", default=[], help="a v4 token (eyJ…) or a v3 key; repeatable")
    parser.add_argument("--fault", default="ok", choices=MODES)
    parser.add_argument("--latency-ms", type=int, default=0)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--synthetic", action="store_true", help="made-up details for ids it doesn't know, not 404")
    args = parser.parse_args()
    fake = FakeTMDB(args.token, seed=args.seed, synthetic=args.synthetic).start(args.port)
    fake.set_fault(args.fault, args.latency_ms)
    print(fake.url, flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        fake.stop()


if __name__ == "__main__":
    main()
