/// How a request to TMDB failed.
package enum UpstreamFailure: Hashable, Sendable, CustomStringConvertible {
    /// No whole answer within the request's deadline.
    case timedOut(Duration)
    /// An answer with a status other than 2xx: its code and reason phrase, TMDB's `status_message`
    /// when the body had one, and how long TMDB asked to wait (`Retry-After` on a 429 or 503).
    case status(code: Int, reason: String, message: String?, retryAfter: Duration?)
    /// A body over the size limit (bytes), refused while it streamed in.
    case tooLarge(limit: Int)
    /// A body that is not the JSON TMDB sends.
    case malformed(String)
    /// No answer: the connection could not be made, or broke (the reason says how).
    case transport(String)
    /// peerd's own cap on its request rate: a slot frees up after this long.
    case throttled(Duration)
    /// The request was cancelled (peerd is stopping).
    case cancelled

    package var description: String {
        switch self {
        case .timedOut(let limit):
            return "no answer within \(FetchWait.text(limit))"
        case .status(let code, let reason, let message, let retryAfter):
            let asked = retryAfter.map { " and asked to wait \(FetchWait.text($0))" } ?? ""
            let said = message.map { ": " + ($0.hasSuffix(".") ? String($0.dropLast()) : $0) } ?? ""
            return "TMDB answered \(code) (\(reason))\(asked)\(said)"
        case .tooLarge(let limit):
            let size = limit % (1 << 20) == 0 ? "\(limit >> 20) MiB" : "\(limit >> 10) KiB"
            return "TMDB's answer is over peerd's limit of \(size)"
        case .malformed(let reason):
            return "TMDB's answer is not the JSON peerd expects (\(reason))"
        case .transport(let reason):
            return "could not reach TMDB (\(reason))"
        case .throttled(let wait):
            return "peerd is at its own limit of requests to TMDB for the next \(FetchWait.text(wait))"
        case .cancelled:
            return "the request was cancelled because peerd is stopping"
        }
    }

    /// What to do about it, as the end of a message.
    package var advice: String {
        switch self {
        case .status(401, _, _, _):
            return "check the TMDB token (--tmdb-token-file, tmdbTokenFile or TMDB_TOKEN)"
        case .status(404, _, _, _):
            return "check the movie id"
        case .status(_, _, _, .some(let wait)), .throttled(let wait):
            return "try again in \(FetchWait.text(wait))"
        case .transport:
            return "check the network and --tmdb-url, then try again"
        case .cancelled:
            return "try again once peerd runs"
        default:
            return "try again"
        }
    }

    /// How long TMDB (or peerd's own rate cap) asked every request to wait, when it did.
    package var retryAfter: Duration? {
        switch self {
        case .status(_, _, _, let wait): return wait
        case .throttled(let wait): return wait
        default: return nil
        }
    }

    /// Whether asking again at once may well work: a 5xx without `Retry-After`, no answer in time,
    /// or a connection that failed or broke. TMDB's edge answers these now and then on its own.
    package var isTransient: Bool {
        switch self {
        case .status(let code, _, _, nil): return (500...599).contains(code)
        case .timedOut, .transport: return true
        default: return false
        }
    }

    /// Whether TMDB has no such thing (404): a movie id it doesn't know.
    package var isMissing: Bool {
        if case .status(404, _, _, _) = self { return true }
        return false
    }

    /// Whether asking again, unchanged, cannot help: a refused token (401) or no such movie (404).
    package var isPermanent: Bool {
        if case .status(let code, _, _, _) = self { return code == 401 || code == 404 }
        return false
    }
}
