import Crypto
package import PeerdModel
package import SystemPackage

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The opener's secret for its guests (proto/WEB.md, "Guests"): 32 random bytes in
/// `<state-dir>/guest.key`, mode 0600. Each pick's capability and each guest's token are HMACs
/// under it, so nothing about them needs to be stored, and a restarted opener serves the same link.
package struct GuestKey: Sendable, CustomStringConvertible {
    private let key: SymmetricKey

    package init(_ secret: WebToken) {
        key = SymmetricKey(data: Self.bytes(ofHex: secret.hex))
    }

    /// The key kept at `path`, made there if there is none; the same file rules as the page's token.
    package static func load(at path: FilePath) throws(WebTokenError) -> GuestKey {
        GuestKey(try WebToken.load(at: path, for: "the guest page"))
    }

    /// The pick's capability: 22 base64url characters, 128 bits.
    package func capability(for pick: PickOnList) -> String {
        mac("peerd-guest-v1\n\(Self.name(of: pick))")
    }

    /// The pick as the MACs name it: a pick on the group's list as before lists, so that its links
    /// and tokens are the ones an older peerd made; one on another list with the list's id first.
    private static func name(of pick: PickOnList) -> String {
        let id = "\(pick.id.origin.rawValue)/\(pick.id.seq)"
        return pick.list.map { "\($0.rawValue)/\(id)" } ?? id
    }

    /// A guest's token: `ID.NAME.MAC`, `NAME` in base64url so that it holds no dot.
    package func token(for guest: Pick.Guest, in pick: PickOnList) -> String {
        let name = Self.base64url(Array(guest.name.utf8))
        return "\(guest.id).\(name).\(mac(Self.tokenMessage(guest.id, name, pick)))"
    }

    /// The guest a token names, when this key made it for this pick.
    package func guest(fromToken token: Substring, in pick: PickOnList) -> Pick.Guest? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ $0.utf8.count <= 80 }) else { return nil }
        let (id, name) = (String(parts[0]), String(parts[1]))
        guard Self.constantTimeEqual(mac(Self.tokenMessage(id, name, pick)), parts[2]),
            let bytes = Self.bytes(ofBase64url: name)
        else { return nil }
        return Pick.Guest(id: id, name: String(decoding: bytes, as: UTF8.self))
    }

    /// Whether `candidate` is `pick`'s capability, in time that doesn't depend on where they differ.
    package func opens(_ pick: PickOnList, with candidate: Substring) -> Bool {
        Self.constantTimeEqual(capability(for: pick), candidate)
    }

    /// Never the key itself, so it can't reach a log by accident.
    package var description: String { "GuestKey(…)" }

    private func mac(_ message: String) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: Array(message.utf8), using: key)
        return Self.base64url(Array(code.prefix(16)))
    }

    private static func tokenMessage(_ id: String, _ name: String, _ pick: PickOnList) -> String {
        "peerd-guest-token-v1\n\(Self.name(of: pick))\n\(id)\n\(name)"
    }

    static func constantTimeEqual(_ mine: String, _ given: Substring) -> Bool {
        let (a, b) = (Array(mine.utf8), Array(given.utf8))
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// RFC 4648 §5, without padding.
    static func base64url(_ bytes: [UInt8]) -> String {
        String(
            Data(bytes).base64EncodedString().compactMap { character -> Character? in
                switch character {
                case "+": "-"
                case "/": "_"
                case "=": nil
                default: character
                }
            }
        )
    }

    static func bytes(ofBase64url text: String) -> [UInt8]? {
        guard text.utf8.allSatisfy({ Self.base64urlDigits.contains($0) }) else { return nil }
        var standard = String(text.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
        return Data(base64Encoded: standard).map(Array.init)
    }

    static let base64urlDigits = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    private static func bytes(ofHex hex: String) -> [UInt8] {
        let digits = Array(hex.utf8)
        return stride(from: 0, to: digits.count - 1, by: 2).map {
            UInt8(String(decoding: digits[$0...$0 + 1], as: UTF8.self), radix: 16) ?? 0
        }
    }
}
