import NIOCore
import NIOPosix
import PeerdModel
import PeerdSecurity
import PeerdSync
import PeerdWire

#if canImport(Glibc)
import Glibc
#endif

/// Turns what a dial came to into a ``DialRecord``: the stage it reached, the outcome, and the words
/// `peerctl peers` shows as `lastError` and `peerctl doctor` as a cause. Pure.
struct DialResult: Sendable {
    /// How the TCP connect failed, as far as the words depend on it.
    enum ConnectFailure: Hashable, Sendable {
        case errno(Int32)
        case timedOut
        case other(String)
    }

    let address: String
    /// The id dialed for, if any (mDNS's, or an earlier session's at that address).
    let expected: PeerID?
    /// This daemon's id: the other side must trust it again to undo a revocation.
    let local: PeerID
    /// The dial went through a relay (`address` is then `relay host:port`).
    var throughRelay = false

    /// The session came up.
    func established(peer: PeerID, at: Int64) -> DialRecord {
        DialRecord(
            address: address,
            peer: peer,
            expected: expected,
            at: at,
            stage: .session,
            outcome: .ok,
            message: "connected"
        )
    }

    /// The TCP connect failed.
    func connectFailed(_ failure: ConnectFailure, at: Int64) -> DialRecord {
        let (outcome, message): (DialRecord.Outcome, String)
        switch failure {
        case .errno(ECONNREFUSED):
            outcome = .refused
            message =
                "connection refused by \(address): nothing listens on that port there "
                + "(is peerd running there, on that port?), or a firewall rejects"
        case .errno(ETIMEDOUT), .timedOut:
            (outcome, message) = (.timeout, "timed out connecting to \(address) (a firewall?)")
        case .errno(let code) where [EHOSTUNREACH, ENETUNREACH, EHOSTDOWN, ENETDOWN].contains(code):
            outcome = .unreachable
            message =
                "no route to \(address) (\(Self.text(of: code))): another subnet or VLAN, or client isolation?"
        case .errno(let code): (outcome, message) = (.other, "cannot connect to \(address): \(Self.text(of: code))")
        case .other(let detail): (outcome, message) = (.other, "cannot connect to \(address): \(detail)")
        }
        return DialRecord(
            address: address,
            peer: expected,
            expected: expected,
            at: at,
            stage: .tcp,
            outcome: outcome,
            message: message
        )
    }

    /// The connection ended (TLS, admission or the session is over).
    func ended(_ connection: ConnectionOutcome, at: Int64) -> DialRecord {
        var record = DialRecord(
            address: address,
            peer: connection.peer ?? expected,
            expected: expected,
            at: at,
            stage: connection.reached,
            outcome: .ok,
            message: ""
        )
        if connection.establishedFor != nil {
            record.stage = .session
            record.message = "session ended: \(connection.error ?? "closed")"
        } else if let refusal = connection.refusal {
            record.stage = .admission
            record.outcome = DialRecord.Outcome(refusal)
            record.by = connection.refusedByPeer ? .peer : .us
            record.message = words(refusal, byPeer: connection.refusedByPeer, presented: connection.peer)
            if refusal == .removed, let removal = connection.spentInvite {
                record.message = removedWords(removal, byPeer: connection.refusedByPeer, presented: connection.peer)
            }
        } else {
            (record.outcome, record.message) = unfinished(connection)
        }
        return record
    }

    /// A connection that ended before its session without a refusal.
    private func unfinished(_ connection: ConnectionOutcome) -> (DialRecord.Outcome, String) {
        let error = connection.error ?? "closed"
        switch connection.reached {
        case .tcp, .tls: return (.tlsFailed, "TLS with \(address) failed (\(error)): is a peerd listening there?")
        case .admission: return (.other, "admission with \(address) did not finish: \(error)")
        case .session:
            if connection.code == .duplicateSession { return (.ok, "another session with this peer was kept") }
            return (.other, error)
        }
    }

    private func words(_ refusal: AdmissionRefusal, byPeer: Bool, presented: PeerID?) -> String {
        let other = presented?.short ?? address
        switch (refusal, byPeer) {
        case (.notAMember, true):
            return "refused by the peer: not a member — \(Self.pairing)"
        case (.notAMember, false):
            return "refused \(other): not a member — \(Self.pairing)"
        case (.revoked, true):
            return "refused by the peer: it revoked this peerd (peerctl forget); if that was a mistake, "
                + "run peerctl trust \(local) there"
        case (.revoked, false):
            return "refused \(other): revoked here with peerctl forget; to undo it: peerctl trust "
                + (presented?.rawValue ?? "ID")
        case (.keyMismatch, false) where throughRelay:
            return "\(address) put the session through to key \(other), not \(expected?.short ?? "the one") it "
                + "was asked for: the relay lied about the session; nobody was admitted"
        case (.keyMismatch, false):
            return "\(address) presented key \(other), not \(expected?.short ?? "the one") it was announced "
                + "with: another peerd at that address, or an impostor"
        case (.selfConnection, _):
            return "\(address) is this peerd itself"
        default:
            return byPeer ? "refused by the peer: \(refusal)" : "refused \(other): \(refusal)"
        }
    }

    /// A refusal of a key removed from the group, with who removed it and when.
    private func removedWords(_ removal: SpentInvite, byPeer: Bool, presented: PeerID?) -> String {
        let words = Membership.removedWords(by: removal.inviter ?? "a member", at: removal.at)
        guard byPeer else { return "refused \(presented?.short ?? address): it was \(words)" }
        return "refused by the peer: this peerd was \(words); it no longer dials the group"
    }

    static let pairing = "pair with peerctl invite / peerctl join, or share the group secret"

    /// How `error` (from NIO's connect) failed.
    static func connectFailure(of error: any Error) -> ConnectFailure {
        let connection = error as? NIOConnectionError
        let underlying = connection?.connectionErrors.first?.error ?? error
        if let io = underlying as? IOError { return .errno(io.errnoCode) }
        if case .connectTimeout? = underlying as? ChannelError { return .timedOut }
        if let connection, connection.connectionErrors.isEmpty {
            return .other("cannot resolve \(connection.host) (\(connection))")
        }
        return .other("\(underlying)")
    }

    private static func text(of code: Int32) -> String { String(cString: strerror(code)).lowercased() }
}

extension DialRecord.Outcome {
    /// The outcome an admission refusal stands for.
    init(_ refusal: AdmissionRefusal) {
        switch refusal {
        case .notAMember, .inviteUsed, .inviteExpired: self = .notMember
        case .revoked: self = .revoked
        case .removed: self = .removed
        case .keyMismatch: self = .keyMismatch
        case .selfConnection, .busy, .unsupportedKey: self = .other
        }
    }
}
