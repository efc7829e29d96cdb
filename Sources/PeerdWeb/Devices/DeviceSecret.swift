import Crypto

/// A device link's code and a device's capability (proto/WEB.md, "Devices"): random bytes from the
/// system's CSPRNG in base64url, and the SHA-256 by which ``DeviceBook`` knows them, so neither is
/// kept anywhere but in the link and the device's cookie.
package enum DeviceSecret {
    /// A link's code: 16 bytes, 128 bits, 22 characters.
    package static func code() -> String { random(16) }

    /// A device's capability: 32 bytes, 256 bits, 43 characters.
    package static func capability() -> String { random(32) }

    /// A device's id, for `peerctl device unlink ID`: 4 bytes in hex, not a secret.
    package static func id() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            .map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// The SHA-256 of `secret`, in hex: how the book looks it up. The lookup takes the same time
    /// whatever a guess shares with a real secret, as the hash of a guess shares nothing predictable.
    package static func key(_ secret: some StringProtocol) -> String {
        SHA256.hash(data: Array(secret.utf8)).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// Whether `text` could be a link's code: 22 base64url characters.
    static func isCode(_ text: Substring) -> Bool { isBase64url(text, count: 22) }

    /// Whether `text` could be a capability: 43 base64url characters.
    static func isCapability(_ text: Substring) -> Bool { isBase64url(text, count: 43) }

    private static func isBase64url(_ text: Substring, count: Int) -> Bool {
        text.utf8.count == count && text.utf8.allSatisfy { GuestKey.base64urlDigits.contains($0) }
    }

    private static func random(_ count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return GuestKey.base64url((0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }
}
