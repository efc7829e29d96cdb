import NIOCore
import PeerdModel
import PeerdSecurity
import PeerdSync
import PeerdWire
import Testing

@testable import PeerdDaemon

#if canImport(Glibc)
import Glibc
#endif

/// What a dial came to, in the words `peerctl peers` and `doctor` show.
@Suite("Dial results")
struct DialResultTests {
    let alice = PeerID("a11ce000000000000000000000000001")!
    let bob = PeerID("b0b00000000000000000000000000002")!
    let mallory = PeerID("d00d0000000000000000000000000066")!

    var result: DialResult { DialResult(address: "10.0.0.2:7601", expected: bob, local: alice) }

    @Test(
        arguments: [
            (DialResult.ConnectFailure.errno(ECONNREFUSED), DialRecord.Outcome.refused, "nothing listens"),
            (.errno(ETIMEDOUT), .timeout, "timed out connecting to 10.0.0.2:7601 (a firewall?)"),
            (.timedOut, .timeout, "(a firewall?)"),
            (.errno(EHOSTUNREACH), .unreachable, "client isolation"),
            (.errno(ENETUNREACH), .unreachable, "no route to 10.0.0.2:7601"),
            (.errno(EACCES), .other, "cannot connect to 10.0.0.2:7601"),
        ] as [(DialResult.ConnectFailure, DialRecord.Outcome, String)]
    )
    func aFailedConnectSaysWhyInWords(failure: DialResult.ConnectFailure, outcome: DialRecord.Outcome, words: String) {
        let record = result.connectFailed(failure, at: 5)
        #expect(record.stage == .tcp && record.outcome == outcome && record.at == 5)
        #expect(record.message.contains(words), "\(record.message)")
        #expect(record.peer == bob, "the id dialed for stands in for the one never shown")
    }

    @Test func nioErrorsAreToldApart() {
        #expect(
            DialResult.connectFailure(of: IOError(errnoCode: ECONNREFUSED, reason: "connect")) == .errno(ECONNREFUSED)
        )
        #expect(DialResult.connectFailure(of: ChannelError.connectTimeout(.seconds(5))) == .timedOut)
    }

    @Test func aRefusalSaysWhoRefusedAndWhatToDo() {
        var theirs = ConnectionOutcome(peer: bob, error: "refused by the peer: not a member")
        (theirs.refusal, theirs.refusedByPeer, theirs.reached) = (.notAMember, true, .admission)
        let notMember = result.ended(theirs, at: 9)
        #expect(notMember.stage == .admission && notMember.outcome == .notMember && notMember.by == .peer)
        #expect(notMember.message.contains("not a member") && notMember.message.contains("peerctl invite"))

        theirs.refusal = .revoked
        let revoked = result.ended(theirs, at: 9)
        #expect(revoked.outcome == .revoked && revoked.message.contains("peerctl trust \(alice)"))

        var ours = ConnectionOutcome(peer: mallory, error: "refused")
        (ours.refusal, ours.reached) = (.keyMismatch, .admission)
        let mismatch = result.ended(ours, at: 9)
        #expect(mismatch.outcome == .keyMismatch && mismatch.by == .us)
        #expect(mismatch.peer == mallory && mismatch.expected == bob)
        #expect(mismatch.message.contains(mallory.short) && mismatch.message.contains(bob.short))

        var relayed = DialResult(address: "relay 198.51.100.10:22067", expected: bob, local: alice)
        relayed.throughRelay = true
        let lie = relayed.ended(ours, at: 9)
        #expect(lie.outcome == .keyMismatch && lie.peer == mallory)
        #expect(
            lie.message
                == "relay 198.51.100.10:22067 put the session through to key \(mallory.short), not \(bob.short) "
                + "it was asked for: the relay lied about the session; nobody was admitted"
        )
    }

    @Test func tlsThatNeverShowedACertificateIsATLSFailure() {
        let outcome = ConnectionOutcome(error: "handshake failed: bad record")
        let record = result.ended(outcome, at: 1)
        #expect(record.stage == .tls && record.outcome == .tlsFailed && record.message.contains("bad record"))
    }

    @Test func aSessionThatWasUpIsOKWhateverEndedIt() {
        var outcome = ConnectionOutcome(peer: bob, error: "connection lost: reset")
        (outcome.establishedFor, outcome.reached) = (.seconds(30), .session)
        let record = result.ended(outcome, at: 1)
        #expect(
            record.stage == .session && record.outcome == .ok
                && record.message == "session ended: connection lost: reset"
        )

        var duplicate = ConnectionOutcome(peer: bob)
        (duplicate.code, duplicate.reached) = (.duplicateSession, .session)
        #expect(result.ended(duplicate, at: 1).outcome == .ok)
        #expect(result.established(peer: bob, at: 2).message == "connected")
    }
}
