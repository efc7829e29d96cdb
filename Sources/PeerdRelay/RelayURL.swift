/// A relay as the group's setting names it, in the form strelaysrv prints at start:
///
/// ```
/// relay://203.0.113.7:22067/?id=P56IOI7-MZJNU2Y-…&pingInterval=1m0s&networkTimeout=2m0s&…
/// ```
///
/// Only the address, the relay's id (checked against its certificate) and a token (for a relay
/// started with `-token`) matter to a client; the other query items describe the relay and are dropped.
package struct RelayURL: Hashable, Sendable, CustomStringConvertible {
    /// A name or an IP address; an IPv6 address without its brackets.
    package var host: String
    package var port: Int
    /// The relay's device id: when set, a relay presenting another certificate is refused.
    package var id: RelayDeviceID?
    package var token: String?

    package init(host: String, port: Int, id: RelayDeviceID? = nil, token: String? = nil) {
        self.host = host
        self.port = port
        self.id = id
        self.token = token
    }

    /// `host:port`, `[v6]:port`: where the relay listens, for both of its modes.
    package var address: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// The canonical form: `relay://host:port/?id=ID`, with `&token=…` when there is one.
    package var description: String {
        var query: [String] = []
        if let id { query.append("id=\(id)") }
        if let token { query.append("token=\(URLQuery.escape(token))") }
        return "relay://\(address)/" + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
    }

    /// Reads a relay URL as a person pastes it, or says what is wrong with it.
    package static func parse(_ text: String) -> Result<RelayURL, RelayURLError> {
        let trimmed = text.trimmingSpaces
        guard trimmed.lowercased().hasPrefix(scheme) else { return .failure(.notRelay(trimmed)) }
        let rest = trimmed.dropFirst(scheme.count)
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        var tail = rest.dropFirst(authority.count)
        if tail.hasPrefix("/") { tail = tail.dropFirst() }
        guard tail.isEmpty || tail.hasPrefix("?") else { return .failure(.path(trimmed)) }
        let url: RelayURL
        switch hostAndPort(authority, in: trimmed) {
        case .success(let (host, port)): url = RelayURL(host: host, port: port)
        case .failure(let error): return .failure(error)
        }
        return url.with(query: tail.dropFirst())
    }

    private static let scheme = "relay://"

    private static func hostAndPort(_ authority: Substring, in text: String) -> Result<(String, Int), RelayURLError> {
        guard !authority.contains("@") else { return .failure(.userInfo(text)) }
        let host: Substring
        let portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return .failure(.badHost(text)) }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":") else { return .failure(.badHost(text)) }
            portText = after.isEmpty ? nil : after.dropFirst()
        } else {
            guard authority.filter({ $0 == ":" }).count <= 1 else { return .failure(.unbracketedIPv6(text)) }
            let parts = authority.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            host = parts[0]
            portText = parts.count == 2 ? parts[1] : nil
        }
        let name = host.lowercased()
        if ["0.0.0.0", "::", "0:0:0:0:0:0:0:0"].contains(name) { return .failure(.unspecified(name)) }
        guard !name.isEmpty else { return .failure(.noHost(text)) }
        guard name.allSatisfy({ $0.isLetter || $0.isNumber || "-._:%".contains($0) }) else {
            return .failure(.badHost(text))
        }
        guard let portText, !portText.isEmpty else { return .failure(.noPort(text)) }
        guard portText.allSatisfy(\.isASCII), let port = Int(portText), (1...65_535).contains(port) else {
            return .failure(.badPort(String(portText)))
        }
        return .success((name, port))
    }

    private func with(query: Substring) -> Result<RelayURL, RelayURLError> {
        var url = self
        for item in query.split(separator: "&") {
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = URLQuery.unescape(pair[0]) else { return .failure(.badQuery(String(item))) }
            guard let value = pair.count == 2 ? URLQuery.unescape(pair[1]) : "" else {
                return .failure(.badQuery(String(item)))
            }
            switch name {
            case "id" where !value.isEmpty:
                guard let id = RelayDeviceID(value) else { return .failure(.badID(value)) }
                url.id = id
            case "token" where !value.isEmpty: url.token = value
            default: continue
            }
        }
        return .success(url)
    }
}

/// What is wrong with a relay URL, in words for the person who typed it.
package enum RelayURLError: Error, Hashable, Sendable, CustomStringConvertible {
    case notRelay(String)
    case userInfo(String)
    case noHost(String)
    case badHost(String)
    case unbracketedIPv6(String)
    case unspecified(String)
    case noPort(String)
    case badPort(String)
    case path(String)
    case badQuery(String)
    case badID(String)

    package var description: String {
        switch self {
        case .notRelay(let text):
            "\(text) is no relay URL: a relay URL starts with relay:// (strelaysrv prints it as `URI: relay://…` at start)"
        case .userInfo(let text): "\(text) has a user name in it; a relay URL is relay://HOST:PORT/?id=ID"
        case .noHost(let text): "\(text) names no host: give the relay machine's address, relay://HOST:PORT/?id=ID"
        case .badHost(let text): "the host of \(text) is not a name or an IP address"
        case .unbracketedIPv6(let text): "\(text): an IPv6 address goes in brackets, relay://[2001:db8::7]:22067/"
        case .unspecified(let host):
            "\(host) is where the relay listens, not its address: give the relay machine's address"
        case .noPort(let text): "\(text) needs a port: relay://HOST:PORT/ (strelaysrv's is 22067 unless told otherwise)"
        case .badPort(let port): "\(port) is not a port (1 to 65535)"
        case .path(let text): "\(text) has a path; a relay URL is relay://HOST:PORT/?id=ID"
        case .badQuery(let item): "\(item) in the relay URL is not name=value (a stray % ?)"
        case .badID(let id): "the id \(id) is not a relay device id (a typo?)"
        }
    }
}

/// Percent-encoding of a URL's query values (RFC 3986): what a token may hold.
enum URLQuery {
    static func escape(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            let character = Character(Unicode.Scalar(byte))
            if byte < 0x80, character.isLetter || character.isNumber || "-._~".contains(character) {
                out.append(character)
            } else {
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }

    /// Nil when a `%` is not followed by two hex digits or the bytes are not UTF-8; `+` is a space.
    static func unescape(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "%"):
                guard let high = iterator.next(), let low = iterator.next(),
                    let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
                else { return nil }
                bytes.append(value)
            case UInt8(ascii: "+"): bytes.append(UInt8(ascii: " "))
            default: bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }

    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
