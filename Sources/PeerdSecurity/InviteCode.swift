package import Crypto
package import PeerdModel

/// A one-time invite: the inviter's id, 16 secret bytes, and a 2-byte typo check, as
/// `wl1-xxxxx-xxxxx-…` in lower-case base32 (proto/SECURITY.md, "Invite codes"). When the group has
/// a relay the code is `wl2-…` and carries it too, so that a machine in another house can ask the
/// relay for the inviter: the inviter's device id there (32 bytes) and the relay's `host:port`.
package struct InviteCode: Hashable, Sendable, CustomStringConvertible {
    package var inviter: PeerID
    package var secret: [UInt8]
    package var relay: Relay?

    /// Where the inviter can be reached through a relay.
    package struct Relay: Hashable, Sendable {
        /// The inviter's device id on the relay: SHA-256 of its TLS certificate.
        package var device: [UInt8]
        /// The relay's `host:port`, as the group's setting names it.
        package var address: String

        package init(device: [UInt8], address: String) {
            precondition(device.count == 32)
            self.device = device
            self.address = address
        }
    }

    static let prefix = "wl1"
    static let relayPrefix = "wl2"
    /// A relay's `host:port` is at most this long in a code (a DNS name's 253, a colon, a port).
    static let maxRelayAddress = 259

    package init(inviter: PeerID, secret: [UInt8], relay: Relay? = nil) {
        precondition(secret.count == 16)
        self.inviter = inviter
        self.secret = secret
        self.relay = relay
    }

    /// A fresh code of `inviter`'s, from the system's CSPRNG.
    package static func make(inviter: PeerID, relay: Relay? = nil) -> InviteCode {
        var generator = SystemRandomNumberGenerator()
        let secret = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return InviteCode(inviter: inviter, secret: secret, relay: relay)
    }

    /// The key its proof is made with.
    package var key: SymmetricKey { AdmissionMAC.key(secret: secret, salt: "peerd invite v1") }

    package var description: String {
        var payload = inviter.bytes + secret
        if let relay { payload += relay.device + Array(relay.address.utf8) }
        let text = Base32.encode(payload + Array(SHA256.hash(data: payload).prefix(2)))
        var groups: [Substring] = []
        var rest = Substring(text)
        while !rest.isEmpty {
            groups.append(rest.prefix(5))
            rest = rest.dropFirst(5)
        }
        return ([relay == nil ? Self.prefix : Self.relayPrefix] + groups.map(String.init)).joined(separator: "-")
    }

    /// Parses a code as printed; dashes, whitespace (a pasted newline or tab too) and case don't matter.
    package init?(_ text: String) {
        var body = text.lowercased().filter { $0 != "-" && !$0.isWhitespace }
        let withRelay = body.hasPrefix(Self.relayPrefix)
        guard withRelay || body.hasPrefix(Self.prefix) else { return nil }
        body.removeFirst(Self.prefix.count)
        let fixed = withRelay ? 64 : 32
        guard let bytes = Base32.decode(body), bytes.count >= fixed + 2,
            withRelay ? bytes.count <= fixed + 2 + Self.maxRelayAddress : bytes.count == fixed + 2
        else { return nil }
        let payload = Array(bytes.dropLast(2))
        guard Array(SHA256.hash(data: payload).prefix(2)) == Array(bytes.suffix(2)),
            let inviter = PeerID(bytes: payload[0..<16])
        else { return nil }
        var relay: Relay?
        if withRelay {
            guard let address = String(validating: payload[64...], as: UTF8.self), !address.isEmpty else { return nil }
            relay = Relay(device: Array(payload[32..<64]), address: address)
        }
        self.init(inviter: inviter, secret: Array(payload[16..<32]), relay: relay)
    }
}

/// RFC 4648 base32, lower case, no padding. Written here because none of the allowed libraries
/// offers base32, and it is twenty lines; base32 because codes are read aloud and typed.
enum Base32 {
    static let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        var buffer = 0
        var bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | Int(byte)
            bits += 8
            while bits >= 5 {
                out.append(alphabet[(buffer >> (bits - 5)) & 31])
                bits -= 5
            }
        }
        if bits > 0 { out.append(alphabet[(buffer << (5 - bits)) & 31]) }
        return String(decoding: out, as: UTF8.self)
    }

    static func decode(_ text: String) -> [UInt8]? {
        var out: [UInt8] = []
        var buffer = 0
        var bits = 0
        for c in text.utf8 {
            guard let value = alphabet.firstIndex(of: c) else { return nil }
            buffer = (buffer << 5) | value
            bits += 5
            if bits >= 8 {
                out.append(UInt8((buffer >> (bits - 8)) & 0xff))
                bits -= 8
            }
            buffer &= 0xffff
        }
        return out
    }
}
