package import PeerdModel

/// Turns what people paste into a TMDB movie id: `603`, `tmdb:603`,
/// `https://www.themoviedb.org/movie/603-the-matrix` (any language path, query or fragment).
package enum MovieReference {
    package static let accepted = """
        a TMDB movie id (603), tmdb:603, or a TMDB movie URL \
        (https://www.themoviedb.org/movie/603-the-matrix)
        """

    /// A provisional title from a TMDB URL's slug (`…/movie/550-fight-club` gives "Fight Club"): what
    /// the list shows until a peer with a TMDB token describes the movie. Nil without a slug.
    package static func slugTitle(_ text: String) -> String? {
        guard parse(text) != nil, let segment = movieSegment(text) else { return nil }
        let words = segment.drop { $0.isASCII && $0.isNumber }.split(separator: "-").filter { !$0.isEmpty }
        guard !words.isEmpty else { return nil }
        return words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
    }

    /// The path segment after `/movie/` of a TMDB URL.
    private static func movieSegment(_ text: String) -> Substring? {
        var rest = Substring(text.trimmingSpaces)
        for scheme in ["https://", "http://"] where rest.lowercased().hasPrefix(scheme) {
            rest = rest.dropFirst(scheme.count)
        }
        let host = rest.prefix { $0 != "/" }
        let segments = rest.dropFirst(host.count).prefix { $0 != "?" && $0 != "#" }.split(separator: "/")
        guard let index = segments.firstIndex(of: "movie"), index + 1 < segments.count else { return nil }
        return segments[index + 1]
    }

    package static func parse(_ text: String) -> MovieID? {
        let trimmed = text.trimmingSpaces
        if let id = Int(trimmed) { return MovieID(id) }
        if trimmed.lowercased().hasPrefix("tmdb:") { return Int(trimmed.dropFirst(5)).flatMap(MovieID.init) }
        var rest = Substring(trimmed)
        for scheme in ["https://", "http://"] where rest.lowercased().hasPrefix(scheme) {
            rest = rest.dropFirst(scheme.count)
        }
        let host = rest.prefix { $0 != "/" }.lowercased()
        guard host == "themoviedb.org" || host.hasSuffix(".themoviedb.org") else { return nil }
        let path = rest.dropFirst(host.count).prefix { $0 != "?" && $0 != "#" }
        let segments = path.split(separator: "/")
        guard let movieIndex = segments.firstIndex(of: "movie"), movieIndex + 1 < segments.count else { return nil }
        let digits = segments[movieIndex + 1].prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty else { return nil }
        return Int(digits).flatMap(MovieID.init)
    }
}

extension String {
    var trimmingSpaces: String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
