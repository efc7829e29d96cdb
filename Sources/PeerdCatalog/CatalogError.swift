package import PeerdModel
package import SystemPackage

/// Why the catalog could not do what was asked. Each message says what happened and what to do; a
/// failed request names the request (and a search its page) and the cause. None ever holds the token.
package enum CatalogError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The token file can be read or written by other users (its mode in octal), so it was refused.
    case tokenFileOpenToOthers(FilePath, mode: String)
    /// The token file could not be opened or read.
    case tokenFileUnreadable(FilePath, Errno)
    /// The token is neither a v4 read access token nor a v3 API key; `source` says where it came from.
    case tokenNotRecognised(source: String)
    /// A setting (the base URL or the language) cannot be used; the text says which and why.
    case badSetting(String)
    /// A body is not the JSON of TMDB's that peerd expects (from the pure parsers, which know no request).
    case unexpectedResponse(String)
    /// A request to TMDB failed.
    case upstream(TMDBRequest, UpstreamFailure)
    /// Fetched details could not be saved in the cache (the reason is the store's message).
    case cacheUnwritable(FilePath, reason: String)
    /// The replica refused the describe (the reason is its message).
    case describeFailed(MovieID, reason: String)
    /// A query of a kind (or a list) this version doesn't know (``CatalogQuery/Ask/unanswerable(kind:reason:)``).
    case unanswerable(kind: String, reason: String)

    package var description: String {
        switch self {
        case .tokenFileOpenToOthers(let path, let mode):
            return "The TMDB token file \(path) is open to other users (mode \(mode)), so it was refused. "
                + "Run chmod 600 \(path)."
        case .tokenFileUnreadable(let path, let errno):
            return "Cannot read the TMDB token file \(path): \(errno). Check that it exists and that you own it "
                + "(ls -l \(path)), or give another with --tmdb-token-file."
        case .tokenNotRecognised(let source):
            return "The TMDB token in \(source) is neither a v4 read access token (eyJ…) nor a v3 API key "
                + "(32 hex digits). Copy one from your TMDB account's API settings."
        case .badSetting(let reason):
            return reason
        case .unexpectedResponse(let reason):
            return "TMDB's answer is not the JSON peerd expects (\(reason))."
        case .upstream(let request, let failure):
            return "\(request): \(failure); \(failure.advice)"
        case .cacheUnwritable(let path, let reason):
            return "Cannot save fetched details in \(path): \(reason)"
        case .describeFailed(let movie, let reason):
            return "Could not append the describe of movie \(movie): \(reason)"
        case .unanswerable(_, let reason):
            return reason
        }
    }

    /// The failure of a TMDB request, if this is one.
    package var upstreamFailure: UpstreamFailure? {
        if case .upstream(_, let failure) = self { return failure }
        return nil
    }
}
