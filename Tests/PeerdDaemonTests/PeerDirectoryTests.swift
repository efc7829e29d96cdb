import PeerdModel
import PeerdSync
import PeerdWire
import Synchronization
import Testing

@testable import PeerdDaemon

/// ``PeerDirectory``'s verdicts on completed handshakes.
@Suite("The peer directory")
struct PeerDirectoryTests {
    static let me = PeerID("a1b2c3d4a1b2c3d4a1b2c3d4a1b2c3d4")!
    static let carol = PeerID("c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0")!

    /// What the directory closed connections with.
    final class Closes: Sendable {
        let errors = Mutex<[WireError]>([])
    }

    /// A connection of carol's whose closes are counted.
    func open(_ directory: PeerDirectory, closes: Closes) async -> Int {
        await directory.opened(address: "10.77.0.3:7601", source: .mdns, role: .dialer) { error in
            closes.errors.withLock { $0.append(error) }
        }
    }

    func hello() -> PeerMessage.Hello {
        PeerMessage.Hello(peer: Self.carol, name: "carol", port: 7601, vector: VersionVector())
    }

    @Test("a handshake that completes after its key's removal is refused with the removal")
    func removedWhileHandshaking() async {
        let directory = PeerDirectory(localID: Self.me)
        let closes = Closes()
        let id = await open(directory, closes: closes)
        let removal = WireError(.removed, "removed from the group by alice at 18:56")
        await directory.disconnect(Self.carol, removal)
        #expect(await directory.established(id, hello: hello(), now: 1) == removal)
        #expect(await directory.isConnected(Self.carol) == false)
    }

    @Test("a session established before the removal is closed by it; a duplicate is refused as one")
    func removedWhileConnected() async {
        let directory = PeerDirectory(localID: Self.me)
        let closes = Closes()
        let first = await open(directory, closes: closes)
        #expect(await directory.established(first, hello: hello(), now: 1) == nil)
        let second = await open(directory, closes: closes)
        #expect(await directory.established(second, hello: hello(), now: 2)?.code == .duplicateSession)
        let removal = WireError(.removed, "removed from the group by alice at 18:56")
        await directory.disconnect(Self.carol, removal)
        #expect(closes.errors.withLock { $0 } == [removal])
        #expect(await directory.isConnected(Self.carol) == false)
    }

    @Test("a direct session replaces a relayed one; a target with addresses still dials while relayed")
    func directReplacesRelayed() async {
        let directory = PeerDirectory(localID: Self.me)
        let closes = Closes()
        let relayed = await directory.opened(
            address: "198.51.100.10:22067",
            source: .inbound,
            role: .acceptor,
            via: "198.51.100.10:22067"
        ) { error in closes.errors.withLock { $0.append(error) } }
        #expect(await directory.established(relayed, hello: hello(), now: 1) == nil)
        #expect(await directory.relayedSessions() == ["198.51.100.10:22067": 1])
        let address = PeerAddress(host: "10.1.0.3", port: 7601)
        _ = await directory.upsertTarget(.member(Self.carol), addresses: [address], source: .group, peer: Self.carol)
        // Relayed only: the member's address is still dialed (a direct path would replace the relay).
        #expect(
            await directory.next(.member(Self.carol), now: .now, dialable: true)
                == .dial([address], connectTimeout: .seconds(5))
        )
        let direct = await open(directory, closes: closes)
        #expect(await directory.established(direct, hello: hello(), now: 2) == nil)
        #expect(closes.errors.withLock { $0.map(\.code) } == [.duplicateSession], "the relayed session was closed")
        #expect(await directory.isConnectedDirectly(Self.carol))
        #expect(await directory.relayedSessions().isEmpty)
        await directory.ended(.member(Self.carol), DialTarget.Outcome(error: "no route"), now: .now)
        #expect(await directory.next(.member(Self.carol), now: .now + .seconds(60), dialable: true) == .waitForChange)
    }

    @Test("a session at an address another member announced too leaves that member's target alone")
    func sharedAddressLeavesAnotherMembersTargetAlone() async {
        let bob = PeerID("b0b00000000000000000000000000002")!
        let shared = PeerAddress(host: "10.77.0.3", port: 7601)  // bob's in his house, carol's in hers
        let closes = Closes()
        let directory = PeerDirectory(localID: Self.me)
        _ = await directory.upsertTarget(.member(bob), addresses: [shared], source: .group, peer: bob)
        #expect(await directory.established(await open(directory, closes: closes), hello: hello(), now: 1) == nil)
        #expect(await directory.target(.member(bob))?.peer == bob)
        #expect(await directory.target(.member(bob))?.name == nil)
        // A target named by that address learns whom it reached.
        let named = PeerDirectory(localID: Self.me)
        _ = await named.upsertTarget(.address(shared), addresses: [shared], source: .named)
        #expect(await named.established(await open(named, closes: closes), hello: hello(), now: 1) == nil)
        #expect(await named.target(.address(shared))?.peer == Self.carol)
        #expect(await named.target(.address(shared))?.name == "carol")
    }
}
