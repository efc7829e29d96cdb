package import SystemPackage

/// Where and how to reach TMDB, as the daemon's flags and config file say.
package struct CatalogSettings: Sendable {
    package static let defaultBaseURL = "https://api.themoviedb.org"
    package static let defaultLanguage = "en-US"

    /// `https://host[:port][/prefix]` without a trailing `/`; plain `http` only for a loopback host
    /// (tests and local mirrors).
    package let baseURL: String
    /// The language TMDB is asked for, e.g. `en-US`.
    package let language: String
    package let credential: TMDBCredential
    /// Where ``DetailsCache`` keeps fetched details: a folder in the state directory.
    package let cacheDirectory: FilePath
    package let limits: CatalogLimits

    /// - Throws: `CatalogError.badSetting` for a base URL that is not `https` (or loopback `http`),
    ///   or a language that is not a tag like `en-US`.
    package init(
        credential: TMDBCredential,
        cacheDirectory: FilePath,
        baseURL: String = defaultBaseURL,
        language: String = defaultLanguage,
        limits: CatalogLimits = CatalogLimits()
    ) throws(CatalogError) {
        var base = Substring(baseURL)
        while base.hasSuffix("/") { base = base.dropLast() }
        if let reason = Self.baseURLProblem(base) { throw .badSetting("--tmdb-url \(baseURL) \(reason).") }
        guard Self.isLanguage(language) else {
            throw .badSetting("--tmdb-language \(language) is not a language tag like en-US (letters, digits and -).")
        }
        self.baseURL = String(base)
        self.language = language
        self.credential = credential
        self.cacheDirectory = cacheDirectory
        self.limits = limits
    }

    /// A language tag fit for a query and a file name: 2 to 35 ASCII letters, digits and `-`.
    package static func isLanguage(_ text: String) -> Bool {
        (2...35).contains(text.utf8.count)
            && text.utf8.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5a).contains(byte) || (0x61...0x7a).contains(byte)
                    || byte == UInt8(ascii: "-")
            }
    }

    private static func baseURLProblem(_ url: Substring) -> String? {
        let secure = url.hasPrefix("https://")
        guard secure || url.hasPrefix("http://") else { return "is not an https:// URL" }
        let rest = url.dropFirst(secure ? 8 : 7)
        let authority = rest.prefix { $0 != "/" }
        if authority.isEmpty || rest.contains(where: { "?#@ ".contains($0) }) {
            return "is not a base URL like https://api.themoviedb.org"
        }
        if !secure && !isLoopback(authority) { return "is plain http: use https (plain http is for loopback only)" }
        return nil
    }

    private static func isLoopback(_ authority: Substring) -> Bool {
        if authority.hasPrefix("[") { return authority.hasPrefix("[::1]") }
        let host = authority.prefix { $0 != ":" }
        return host == "localhost" || host.hasPrefix("127.")
    }
}

/// What bounds each request to TMDB.
package struct CatalogLimits: Hashable, Sendable {
    /// From sending the request to the last byte of the answer.
    package var requestTimeout: Duration
    /// A body over this many bytes is refused while it streams in, never buffered whole.
    package var maxResponseBytes: Int
    /// peerd's own cap on its request rate: one request per `requestInterval` on average (4 a second
    /// by default), with bursts of up to `burst` requests.
    package var requestInterval: Duration
    package var burst: Int

    package init(
        requestTimeout: Duration = .seconds(5),
        maxResponseBytes: Int = 2 << 20,
        requestInterval: Duration = .milliseconds(250),
        burst: Int = 8
    ) {
        self.requestTimeout = requestTimeout
        self.maxResponseBytes = maxResponseBytes
        self.requestInterval = max(.milliseconds(1), requestInterval)
        self.burst = max(1, burst)
    }
}
