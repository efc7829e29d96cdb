/// Error codes carried by `error` frames on both sockets. Documented in proto/ERRORS.md.
package enum ErrorCode: String, Codable, Sendable, CaseIterable {
    /// The bytes are not a frame holding a UTF-8 JSON object of the right shape.
    case malformedFrame = "malformed-frame"
    /// A length header is over the limit.
    case frameTooLarge = "frame-too-large"
    /// The first message's protocol version is not one this daemon speaks.
    case unsupportedVersion = "unsupported-version"
    /// The `type` is not a message this side knows.
    case unknownType = "unknown-type"
    /// A message arrived that the session state does not allow (e.g. `ops` before `hello`).
    case unexpectedMessage = "unexpected-message"
    /// An operation is malformed, out of order, or forged in the receiver's own name.
    case invalidOperation = "invalid-operation"
    /// A request is well formed but asks for something impossible (bad cursor, bad address).
    case badRequest = "bad-request"
    /// `remove` of a movie that is not on the list.
    case notListed = "not-listed"
    /// The peer connected to itself.
    case selfConnection = "self-connection"
    /// Another session with this peer is already established; this one is closed.
    case duplicateSession = "duplicate-session"
    /// No `hello` within the handshake deadline, or no traffic within the keepalive timeout.
    case timeout
    /// The operation could not be made durable (e.g. the disk is full). Nothing was changed.
    case storageFailed = "storage-failed"
    /// The control socket's caller is not the user the daemon runs as (checked with `SO_PEERCRED`).
    case forbidden
    /// The daemon is shutting down.
    case shuttingDown = "shutting-down"
    /// A peer sent frames faster than the per-peer rate limit allows.
    case rateLimited = "rate-limited"
    /// This side revoked the peer (`peerctl forget`): its sessions close.
    case revoked
    /// The other side's key was removed from the group (a `member` removal): its sessions close, and
    /// a daemon whose own key was removed refuses to make operations.
    case removed
    /// The request needs what this daemon lacks (`search` and `refresh` without a TMDB token).
    case unavailable
    /// TMDB did not answer as it should; the message names the request and the cause.
    case upstreamFailed = "upstream-failed"
    /// Anything else; the message says what.
    case `internal`
}

/// The body of an `error` frame.
package struct WireError: Error, Hashable, Sendable, Codable, CustomStringConvertible {
    package var code: ErrorCode
    package var message: String

    /// An error; a `message` whose JSON would break `WireCoding.maxStringBytes` is cut to fit (ending
    /// in "…"), so an error that quotes a long bad input still reaches the other side readable.
    package init(_ code: ErrorCode, _ message: String) {
        self.code = code
        self.message = Self.fitted(message)
    }

    static func fitted(_ message: String) -> String {
        let ellipsis = "…"
        var used = 0
        var cut: String.UnicodeScalarView.Index?
        let scalars = message.unicodeScalars
        for index in scalars.indices {
            let width = Self.jsonBytes(scalars[index])
            // The first scalar that would leave no room for the ellipsis is where a cut goes.
            if cut == nil, used + width + ellipsis.utf8.count > WireCoding.maxStringBytes { cut = index }
            used += width
            if used > WireCoding.maxStringBytes, let cut { return String(scalars[..<cut]) + ellipsis }
        }
        return message
    }

    /// The bytes `scalar` takes inside a JSON string as `JSONEncoder` writes it.
    private static func jsonBytes(_ scalar: Unicode.Scalar) -> Int {
        switch scalar.value {
        case 0x22, 0x5C, 0x08, 0x09, 0x0A, 0x0C, 0x0D: 2
        case 0..<0x20: 6
        default: UTF8.width(scalar)
        }
    }

    package var description: String { "\(code.rawValue): \(message)" }
}

extension WireError {
    /// The last frame of every peer session and control connection while peerd stops (ERRORS.md).
    package static let shuttingDown = WireError(.shuttingDown, "peerd is shutting down")
}
