package import Crypto
package import PeerdModel

/// A one-time invite: the inviter's id, 16 secret bytes, and a 2-byte typo check, as
/// `wl1-xxxxx-xxxxx-…` in lower-case base32 (proto/SECURITY.md, "Invite codes").
package struct InviteCode: Hashable, Sendable, CustomStringConvertible {
    package var inviter: PeerID
    package var secret: [UInt8]

    static let prefix = "wl1"

    package init(inviter: PeerID, secret: [UInt8]) {
        precondition(secret.count == 16)
        self.inviter = inviter
        self.secret = secret
    }

    /// A fresh code of `inviter`'s, from the system's CSPRNG.
    package static func make(inviter: PeerID) -> InviteCode {
        var generator = SystemRandomNumberGenerator()
        return InviteCode(inviter: inviter, secret: (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    /// The key its proof is made with.
    package var key: SymmetricKey { AdmissionMAC.key(secret: secret, salt: "peerd invite v1") }

    package var description: String {
        let payload = inviter.bytes + secret
        let text = Base32.encode(payload + Array(SHA256.hash(data: payload).prefix(2)))
        var groups: [Substring] = []
        var rest = Substring(text)
        while !rest.isEmpty {
            groups.append(rest.prefix(5))
            rest = rest.dropFirst(5)
        }
        return ([Self.prefix] + groups.map(String.init)).joined(separator: "-")
    }

    /// Parses a code as printed; dashes, whitespace (a pasted newline or tab too) and case don't matter.
    package init?(_ text: String) {
        var body = text.lowercased().filter { $0 != "-" && !$0.isWhitespace }
        guard body.hasPrefix(Self.prefix) else { return nil }
        body.removeFirst(Self.prefix.count)
        guard let bytes = Base32.decode(body), bytes.count == 34 else { return nil }
        let payload = Array(bytes[0..<32])
        guard Array(SHA256.hash(data: payload).prefix(2)) == Array(bytes[32...]),
            let inviter = PeerID(bytes: payload[0..<16])
        else { return nil }
        self.init(inviter: inviter, secret: Array(payload[16...]))
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
