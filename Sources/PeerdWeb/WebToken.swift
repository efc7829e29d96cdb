package import PeerdStore
package import SystemPackage

/// The page's secret: 32 random bytes from the system's CSPRNG, as 64 hex digits, made at first
/// start and kept in `<state-dir>/web.token` (mode 0600). Whoever holds it is the user at this
/// machine: `peerctl open` (over the control socket, which admits only this user) hands it out.
package struct WebToken: Sendable, CustomStringConvertible {
    package let hex: String

    package init?(hex: String) {
        guard hex.utf8.count == 64, hex.utf8.allSatisfy({ Self.hexDigits.contains($0) }) else { return nil }
        self.hex = hex
    }

    /// A new token.
    package static func random() -> WebToken {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return WebToken(hex: bytes.map { String($0, radix: 16).leftPadded(to: 2) }.joined())!
    }

    /// Whether `candidate` is this token, in time that doesn't depend on where they differ.
    package func matches(_ candidate: String) -> Bool {
        let given = Array(candidate.utf8)
        let mine = Array(hex.utf8)
        guard given.count == mine.count else { return false }
        return zip(given, mine).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// Never the token itself, so it can't reach a log by accident.
    package var description: String { "WebToken(…)" }

    private static let hexDigits = Set("0123456789abcdef".utf8)

    /// The token kept at `path`, made there if there is none. A file others may read is refused.
    /// `purpose` is what goes off when it is refused, for the error's words.
    package static func load(at path: FilePath, for purpose: String = "the page") throws(WebTokenError) -> WebToken {
        let bytes: [UInt8]?
        do throws(StoreError) {
            bytes = try AtomicFile.read(path)
            if bytes == nil {
                let token = random()
                try AtomicFile.write(Array((token.hex + "\n").utf8), to: path)
                return token
            }
        } catch {
            throw .store(error, purpose)
        }
        if let status = try? path.stat(),
            !status.permissions.isDisjoint(with: [.groupReadWriteExecute, .otherReadWriteExecute])
        {
            throw .openToOthers(path, String(status.permissions.rawValue, radix: 8), purpose)
        }
        let text = String(decoding: bytes ?? [], as: UTF8.self).filter { !$0.isWhitespace }
        guard let token = WebToken(hex: text) else { throw .malformed(path, purpose) }
        return token
    }
}

package enum WebTokenError: Error, CustomStringConvertible {
    case openToOthers(FilePath, String, String)
    case malformed(FilePath, String)
    case store(StoreError, String)

    package var description: String {
        switch self {
        case .openToOthers(let path, let mode, let purpose):
            "\(path) is open to other users (mode \(mode)), so \(purpose) is off: chmod 600 \(path)"
        case .malformed(let path, let purpose):
            "\(path) is not 64 hex digits, so \(purpose) is off: delete it and peerd makes a new one"
        case .store(let error, let purpose): "the secret of \(purpose): \(error)"
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
