/// The relays the group's peers meet through from different houses (proto/PEER.md, "Relays and
/// reach"): Syncthing relay servers (`strelaysrv`), each named by the URL it prints. A `relays`
/// operation carries them, one setting for the whole group, and the newest by the list's order wins
/// on every peer, as the group's settings do. A relay only forwards bytes between two peers that
/// joined it; peerd's own TLS and admission run inside, so a relay is trusted with nothing.
///
/// A class, like ``GroupSettings``, so that an operation holds it in one pointer's room
/// (``Operation/Payload``). Its JSON is the bare array of URLs: `["relay://198.51.100.10:22067/?id=…"]`.
package final class GroupRelays: Hashable, Sendable, Codable, CustomStringConvertible {
    package static let maxRelays = 8
    package static let maxURLLength = 512
    /// How a relay's URL starts.
    package static let scheme = "relay://"

    /// Relay URLs as `strelaysrv` prints them, `relay://host:port/?id=…`, printable ASCII; sorted
    /// by their bytes, each once. Empty when the group has no relay.
    package let urls: [String]

    /// The URLs sorted by their UTF-8 bytes, each once: the one form every peer writes.
    package init(urls: [String]) {
        let sorted = urls.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        var kept: [String] = []
        for url in sorted where kept.last.map({ !$0.utf8.elementsEqual(url.utf8) }) ?? true { kept.append(url) }
        self.urls = kept
    }

    /// Reads the URLs as they came, unsorted or repeated ones too: such relays are refused
    /// (``invalidReason``), not quietly put in order, which would change what was signed.
    package init(from decoder: any Decoder) throws {
        urls = try decoder.singleValueContainer().decode([String].self)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(urls)
    }

    /// Why these can't be stored, or nil when they can.
    package var invalidReason: String? {
        if urls.count > Self.maxRelays { return "a group has at most \(Self.maxRelays) relays" }
        for url in urls {
            if let reason = Self.invalidReason(of: url) { return reason }
        }
        if zip(urls, urls.dropFirst()).contains(where: { !$0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            return "relays are sorted, each once"
        }
        return nil
    }

    /// Why `url` is not a relay's URL, or nil when it is one.
    package static func invalidReason(of url: String) -> String? {
        guard (1...maxURLLength).contains(url.utf8.count) else {
            return "a relay's URL is 1 to \(maxURLLength) bytes"
        }
        guard url.utf8.starts(with: scheme.utf8), url.utf8.count > scheme.utf8.count else {
            return "a relay's URL starts with \(scheme), as strelaysrv prints it"
        }
        // Printable ASCII, as strelaysrv prints it (a host of other letters is written in punycode):
        // no space or control character, and no two ways to write the same URL.
        guard url.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            return "a relay's URL is printable ASCII, without spaces"
        }
        return nil
    }

    /// Where each relay is, `host:port`, without its scheme and its device id: what people are shown.
    package var addresses: [String] { urls.map(Self.address(of:)) }

    /// `203.0.113.7:22067` of `relay://203.0.113.7:22067/?id=…`.
    package static func address(of url: String) -> String {
        let rest = url.utf8.starts(with: scheme.utf8) ? url.dropFirst(scheme.count) : Substring(url)
        return String(rest.prefix { $0 != "/" && $0 != "?" })
    }

    /// "203.0.113.7:22067, relay.example.org:22067", or "no relay".
    package var description: String { urls.isEmpty ? "no relay" : addresses.joined(separator: ", ") }

    package static func == (lhs: GroupRelays, rhs: GroupRelays) -> Bool {
        lhs === rhs || lhs.urls == rhs.urls
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(urls)
    }
}
