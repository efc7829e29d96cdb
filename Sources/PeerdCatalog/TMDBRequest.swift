package import PeerdModel

/// One kind of request to TMDB's API v3: its path, its query and how messages name it.
package enum TMDBRequest: Hashable, Sendable, CustomStringConvertible {
    /// `GET /3/movie/{id}`.
    case details(MovieID)
    /// `GET /3/search/movie`: one page of results.
    case search(query: String, year: Int?, page: Int)
    /// `GET /3/configuration`: where the images are.
    case configuration

    package var description: String {
        switch self {
        case .details(let movie): return "TMDB details of movie \(movie)"
        case .search(let query, _, let page): return "TMDB search for '\(query.prefix(200))', page \(page)"
        case .configuration: return "TMDB configuration"
        }
    }

    var path: String {
        switch self {
        case .details(let movie): return "/3/movie/\(movie.rawValue)"
        case .search: return "/3/search/movie"
        case .configuration: return "/3/configuration"
        }
    }

    /// The query items, without the credential.
    func query(language: String) -> [(name: String, value: String)] {
        switch self {
        case .details:
            return [("language", language)]
        case .search(let query, let year, let page):
            var items = [("query", query), ("include_adult", "false"), ("language", language), ("page", "\(page)")]
            if let year { items.append(("year", "\(year)")) }
            return items
        case .configuration:
            return []
        }
    }

    /// `path?name=value&…`, each name and value percent-encoded (RFC 3986: all but unreserved bytes).
    func target(language: String, extra: [(name: String, value: String)] = []) -> String {
        let items = query(language: language) + extra
        guard !items.isEmpty else { return path }
        return path + "?"
            + items.map { "\(Self.percentEncoded($0.name))=\(Self.percentEncoded($0.value))" }
            .joined(separator: "&")
    }

    static func percentEncoded(_ text: String) -> String {
        var encoded = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF")
                encoded += "%\(hex[Int(byte >> 4)])\(hex[Int(byte & 0xf)])"
            }
        }
        return encoded
    }
}
