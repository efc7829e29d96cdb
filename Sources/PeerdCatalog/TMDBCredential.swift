package import SystemPackage

/// A TMDB credential; its description (and its mirror) never shows the secret.
///
/// A v4 read access token (a JWT, `eyJ…`) is sent as `Authorization: Bearer …`; a v3 API key
/// (32 hex digits) as the `api_key` query item.
package struct TMDBCredential: Sendable, CustomStringConvertible, CustomReflectable {
    /// Which of TMDB's two kinds of credential this is.
    package enum Kind: Hashable, Sendable {
        /// A v4 read access token: `Authorization: Bearer`.
        case readAccessToken
        /// A v3 API key: `?api_key=`.
        case apiKey
    }

    /// The environment variable that holds a token.
    package static let environmentVariable = "TMDB_TOKEN"
    /// A token file's size limit: real ones are under 300 bytes.
    static let fileSizeLimit = 4_096

    package let kind: Kind
    /// Where it came from, for messages: "/home/a/.config/peerd/tmdb.token" or "TMDB_TOKEN".
    package let source: String
    /// The secret itself: only ``TMDBClient`` reads it, to send it to TMDB.
    let token: String

    /// A credential from `token` (whitespace around it ignored); `source` names where it came from.
    package init(token: String, source: String) throws(CatalogError) {
        let start = token.firstIndex { !$0.isWhitespace } ?? token.endIndex
        let end = token.lastIndex { !$0.isWhitespace }.map(token.index(after:)) ?? start
        let trimmed = String(token[start..<max(start, end)])
        guard let kind = Self.kind(of: trimmed) else { throw .tokenNotRecognised(source: source) }
        self.kind = kind
        self.source = source
        self.token = trimmed
    }

    /// `file` if given (the --tmdb-token-file flag or the config file's tmdbTokenFile); else the
    /// TMDB_TOKEN environment variable; else $XDG_CONFIG_HOME/peerd/tmdb.token (or
    /// ~/.config/peerd/tmdb.token) if it exists; else nil. A file others can read (group/other bits)
    /// is refused: the error says `chmod 600 <path>`.
    package static func load(file: FilePath?, environment: [String: String]) throws(CatalogError) -> TMDBCredential? {
        if let file {
            return try TMDBCredential(token: TokenFile.read(file), source: file.string)
        }
        if let token = environment[environmentVariable], token.contains(where: { !$0.isWhitespace }) {
            return try TMDBCredential(token: token, source: environmentVariable)
        }
        guard let path = defaultFile(environment: environment), TokenFile.exists(path) else { return nil }
        return try TMDBCredential(token: TokenFile.read(path), source: path.string)
    }

    /// `$XDG_CONFIG_HOME/peerd/tmdb.token`, else `$HOME/.config/peerd/tmdb.token`; a relative
    /// `XDG_CONFIG_HOME` is ignored, as the XDG Base Directory spec requires.
    package static func defaultFile(environment: [String: String]) -> FilePath? {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            return FilePath(config).appending("peerd/tmdb.token")
        }
        if let home = environment["HOME"], !home.isEmpty {
            return FilePath(home).appending(".config/peerd/tmdb.token")
        }
        return nil
    }

    package var description: String {
        switch kind {
        case .readAccessToken: return "TMDB v4 read access token from \(source)"
        case .apiKey: return "TMDB v3 API key from \(source)"
        }
    }

    package var customMirror: Mirror { Mirror(self, children: ["kind": kind, "source": source]) }

    private static func kind(of token: String) -> Kind? {
        let bytes = Array(token.utf8)
        if bytes.count == 32, bytes.allSatisfy(isHexDigit) { return .apiKey }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        if token.hasPrefix("eyJ"), bytes.count <= fileSizeLimit, parts.count == 3,
            parts.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy(isBase64URL) })
        {
            return .readAccessToken
        }
        return nil
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }

    private static func isBase64URL(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5a).contains(byte) || (0x61...0x7a).contains(byte)
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
    }
}
