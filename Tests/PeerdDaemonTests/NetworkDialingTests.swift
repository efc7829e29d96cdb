import PeerdModel
import PeerdSync
import PeerdWire
import Testing

@testable import PeerdDaemon

/// Which addresses a dial passes over (proto/PEER.md, "Relays and reach"): one where the session
/// never got going because it reached this daemon, or someone other than the peer it dialed.
@Suite("Network dialing")
struct NetworkDialingTests {
    let alice = PeerID("a11ce000000000000000000000000001")!
    let bob = PeerID("b0b00000000000000000000000000002")!

    @Test func anAddressThatReachedThisDaemonOrSomeoneElseIsPassedOver() {
        var itself = ConnectionOutcome(peer: bob, error: "this address is this peerd itself")
        itself.code = .selfConnection
        #expect(NetworkDialing.reachedSomeoneElse(itself, expected: alice))
        #expect(NetworkDialing.reachedSomeoneElse(ConnectionOutcome(peer: bob, error: "not alice"), expected: alice))
    }

    @Test func theExpectedPeerOrNoneSeenIsNotPassedOver() {
        // The peer it dialed refused, or TLS never showed who answered: the relay would fare no better.
        #expect(!NetworkDialing.reachedSomeoneElse(ConnectionOutcome(peer: alice, error: "refused"), expected: alice))
        #expect(!NetworkDialing.reachedSomeoneElse(ConnectionOutcome(error: "TLS failed"), expected: alice))
        var established = ConnectionOutcome(peer: bob)
        established.establishedFor = .seconds(3)
        #expect(!NetworkDialing.reachedSomeoneElse(established, expected: alice))
    }
}
