/// A peer's TCP address as people write it: `host:port`, `[ipv6]:port`, or a bare host (default port).
package struct PeerAddress: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The port peerd listens on when none is given.
    package static let defaultPort = 7601

    package var host: String
    package var port: Int

    package init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Parses `text`, or returns nil with nothing guessed. A bare host gets `defaultPort`; with
    /// `defaultPort` nil a port is required (the control protocol's `host:port`).
    package init?(_ text: String, defaultPort: Int? = PeerAddress.defaultPort) {
        var host = Substring(text)
        var portText: Substring?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return nil }
            let rest = host[host.index(after: close)...]
            host = host[host.index(after: host.startIndex)..<close]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return nil }
                portText = rest.dropFirst()
            }
        } else if let colon = host.lastIndex(of: ":") {
            guard host.firstIndex(of: ":") == colon else { return nil }  // bare IPv6 needs brackets
            portText = host[host.index(after: colon)...]
            host = host[..<colon]
        }
        guard !host.isEmpty, !host.contains(where: { $0 == " " || $0 == "/" }) else { return nil }
        let port = portText.map { Int($0) } ?? defaultPort
        guard let port, (1...65535).contains(port) else { return nil }
        self.host = String(host)
        self.port = port
    }

    package var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let address = PeerAddress(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not host:port")
        }
        self = address
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
