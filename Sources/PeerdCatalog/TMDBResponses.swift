package import PeerdModel
package import PeerdWire

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Pure parsing of TMDB's JSON: `/3/movie/{id}`, the pages of movies (`/3/search/movie`, the lists,
/// recommendations), `/3/genre/movie/list`, `/3/configuration` and TMDB's error body. A body of another shape is `CatalogError.unexpectedResponse`, never a crash.
///
/// TMDB's values are fitted to a describe's limits (proto/PEER.md, "Describing a movie"): an overview
/// is cut to 1 000 characters, `vote_average` becomes hundredths (8.219 → 822), an empty
/// `release_date`, `imdb_id` or `poster_path` is absent, and so is a runtime of 0 or a vote average
/// with no votes (TMDB's way of saying unknown).
package enum TMDBResponses {
    /// Where posters are when `/3/configuration` was never fetched.
    package static let defaultImageBase = "https://image.tmdb.org/t/p/w500"

    /// `/3/movie/{id}`: the movie's details, as asked for in `language` at `fetchedAt` (ms since 1970),
    /// with where to watch it in `region` (by default the language's).
    package static func details(
        _ body: [UInt8],
        language: String,
        region: String? = nil,
        fetchedAt: Int64
    ) throws(CatalogError) -> MovieDetails {
        let movie = try decode(TMDBShapes.Movie.self, from: body)
        guard let title = movie.title, !title.isEmpty else {
            throw .unexpectedResponse("movie \(movie.id) has no title")
        }
        let details = MovieDetails(
            .init(
                title: title,
                originalTitle: movie.originalTitle.flatMap(nonEmpty),
                releaseDate: movie.releaseDate.flatMap(date),
                runtime: movie.runtime.flatMap { $0 > 0 ? $0 : nil },
                genres: genres(movie.genres ?? []),
                overview: movie.overview.flatMap(nonEmpty).map(MovieDetails.capped(overview:)),
                posterPath: movie.posterPath.flatMap(path),
                voteAverage: hundredths(movie.voteAverage, votes: movie.voteCount),
                imdbID: movie.imdbId.flatMap(nonEmpty),
                providers: try providers(body, region: region ?? Self.region(of: language)),
                language: language,
                fetchedAt: fetchedAt
            )
        )
        if let reason = details.invalidReason {
            throw .unexpectedResponse("movie \(movie.id) breaks a limit of describes: \(reason)")
        }
        return details
    }

    /// The region a language names (`en-US`: `US`); `US` for a language without one (`en`).
    package static func region(of language: String) -> String {
        let parts = language.split(separator: "-")
        guard let last = parts.last, parts.count > 1, last.count == 2, last.allSatisfy(\.isLetter) else { return "US" }
        return last.uppercased()
    }

    /// One page of movies: of `/3/search/movie` for `query`, or of a list (then `query` names it).
    /// Results without an id or a title are left out, and a page holds at most 20, as TMDB's do.
    package static func searchPage(_ body: [UInt8], query: String) throws(CatalogError) -> SearchResultsRecord {
        let page = try decode(TMDBShapes.SearchPage.self, from: body)
        return SearchResultsRecord(
            query: query,
            page: page.page,
            totalPages: page.totalPages,
            totalResults: page.totalResults,
            results: results(page.results)
        )
    }

    /// `/3/find/{imdb}`: its movies as one page.
    package static func foundPage(_ body: [UInt8], imdb: String) throws(CatalogError) -> SearchResultsRecord {
        let found = try decode(TMDBShapes.FoundByExternalID.self, from: body)
        let results = results(found.movieResults)
        return SearchResultsRecord(query: imdb, page: 1, totalPages: 1, totalResults: results.count, results: results)
    }

    private static func results(_ found: [TMDBShapes.SearchResult]) -> [SearchResultRecord] {
        found.prefix(maxPageResults).compactMap { result -> SearchResultRecord? in
            guard let movie = MovieID(result.id), let title = result.title, !title.isEmpty else { return nil }
            return SearchResultRecord(
                movieId: movie.rawValue,
                title: title,
                originalTitle: result.originalTitle.flatMap(nonEmpty),
                year: result.releaseDate.flatMap(date).flatMap { Int($0.prefix(4)) }.flatMap {
                    (1870...9999).contains($0) ? $0 : nil
                },
                overview: result.overview.flatMap(nonEmpty).map(MovieDetails.capped(overview:)),
                posterPath: result.posterPath.flatMap(path),
                voteAverage: hundredths(result.voteAverage, votes: result.voteCount)
            )
        }
    }

    /// `/3/genre/movie/list`: the genres with an id and a name (at most 64 characters, as a describe allows), at most 100.
    package static func genres(_ body: [UInt8]) throws(CatalogError) -> [GenreRecord] {
        let list = try decode(TMDBShapes.GenreList.self, from: body)
        let genres = list.genres.compactMap { genre -> GenreRecord? in
            guard let id = genre.id, id > 0, let name = genre.name, !name.isEmpty,
                name.count <= MovieDetails.maxGenreLength
            else { return nil }
            return GenreRecord(id: id, name: name)
        }
        return Array(genres.prefix(100))
    }

    /// The most results one page of movies holds: TMDB's own page size.
    package static let maxPageResults = 20

    /// `/3/configuration`: the poster base URL, `images.secure_base_url` and the size `w500` (or the
    /// largest size TMDB lists below `original`), e.g. `https://image.tmdb.org/t/p/w500`.
    package static func imageBase(_ body: [UInt8]) throws(CatalogError) -> String {
        let images = try decode(TMDBShapes.Configuration.self, from: body).images
        guard let base = images.secureBaseUrl, base.hasPrefix("https://"), !base.contains(where: \.isWhitespace) else {
            throw .unexpectedResponse("images.secure_base_url is not an https URL")
        }
        let sizes = images.posterSizes ?? []
        let size =
            sizes.isEmpty || sizes.contains("w500") ? "w500" : sizes.last { $0 != "original" } ?? "original"
        return (base.hasSuffix("/") ? base : base + "/") + size
    }

    /// TMDB's error body `{status_code, status_message, success: false}`: its message (at most 200
    /// characters), or nil for any other body.
    package static func errorMessage(_ body: [UInt8]) -> String? {
        guard let status = try? decode(TMDBShapes.Status.self, from: body), let message = status.statusMessage,
            !message.isEmpty
        else { return nil }
        return String(message.prefix(200))
    }

    static func decode<Shape: Decodable>(_ shape: Shape.Type, from body: [UInt8]) throws(CatalogError) -> Shape {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        do {
            return try decoder.decode(shape, from: Data(body))
        } catch let error as DecodingError {
            throw .unexpectedResponse(TMDBShapes.reason(error))
        } catch {
            throw .unexpectedResponse("it is not JSON")
        }
    }

    private static func nonEmpty(_ text: String) -> String? { text.isEmpty ? nil : text }

    /// `YYYY-MM-DD`, else nil (TMDB sends "" for an unknown date).
    private static func date(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        let digits = bytes.enumerated().allSatisfy { index, byte in
            index == 4 || index == 7 ? byte == UInt8(ascii: "-") : (0x30...0x39).contains(byte)
        }
        return bytes.count == 10 && digits ? text : nil
    }

    /// A path on TMDB's image server: starts with `/`, at most 300 bytes.
    static func path(_ text: String) -> String? {
        text.hasPrefix("/") && text.utf8.count <= MovieDetails.maxPathLength ? text : nil
    }

    private static func genres(_ genres: [TMDBShapes.Genre]) -> [String] {
        let names = genres.compactMap(\.name).filter { !$0.isEmpty && $0.count <= MovieDetails.maxGenreLength }
        return Array(names.prefix(MovieDetails.maxGenres))
    }

    /// 8.219 → 822; nil when no one voted (TMDB then says 0).
    private static func hundredths(_ average: Double?, votes: Int?) -> Int? {
        guard let average, average.isFinite, votes != 0 else { return nil }
        return Int((min(max(average, 0), 10) * 100).rounded())
    }
}
