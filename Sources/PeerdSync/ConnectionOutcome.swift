package import PeerdModel
package import PeerdSecurity
package import PeerdWire

/// How a peer connection ended, for the dialer's backoff and `peerctl peers`: built by
/// ``PeerConnectionStateMachine`` as the connection goes.
package struct ConnectionOutcome: Hashable, Sendable {
    /// The other side's id, once TLS showed its certificate.
    package var peer: PeerID?
    /// How long the session was established, if it was.
    package var establishedFor: Duration?
    /// What went wrong, for `lastError`; nil for an ordinary close (proto/PEER.md, "Errors and closing").
    package var error: String?
    /// The code of the error either side closed with, if any.
    package var code: ErrorCode?
    /// Admission refused the other side, or the other side refused us.
    package var refusal: AdmissionRefusal?
    /// The refusal was the other side's: it refused us.
    package var refusedByPeer = false
    /// The other side refused us for a spent invite code of its own: which, when, and its name.
    package var spentInvite: SpentInvite?
    /// The proof this side gave in admission, once TLS showed who the other side is.
    package var proof: AdmissionMethod?
    /// The last stage the connection reached: `tls` until the peer's certificate is seen, then
    /// `admission`, then `session` once the peer's hello (not a refusal) arrives.
    package var reached = DialRecord.Stage.tls

    package init(peer: PeerID? = nil, error: String? = nil) {
        self.peer = peer
        self.error = error
    }

    /// Whether the connection reached this daemon itself.
    package var reachedItself: Bool { code == .selfConnection || refusal == .selfConnection }

    /// Stopping, or keeping the other session with a peer, closes a session in the ordinary way.
    static func isOrdinary(_ code: ErrorCode) -> Bool { code == .shuttingDown || code == .duplicateSession }

    /// Notes what `actions` close with: the error this side sends, or the one the peer reported.
    mutating func note(_ actions: [PeerSession<some InstantProtocol>.Action]) {
        for action in actions {
            switch action {
            case .close(let error?):
                code = code ?? error.code
                if !Self.isOrdinary(error.code) { self.error = self.error ?? error.description }
            case .peerReported(let error):
                code = error.code
                if !Self.isOrdinary(error.code) { self.error = "peer said: \(error)" }
            default:
                break
            }
        }
    }
}
