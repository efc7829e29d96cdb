import PeerdDiscovery
import PeerdModel
import PeerdWire
import Testing

/// What `peerctl doctor` is told about discovery, folded from Avahi's events.
@Suite("The discovery log")
struct DiscoveryLogTests {
    let me = PeerID("aaaaaaaaaaaaaaaa")!
    let bob = PeerID("bbbbbbbbbbbbbbbb")!

    func resolved(_ name: String, id: PeerID, address: String, ipv6: Bool = false, proto: Int = ProtocolVersion.peer)
        -> AvahiEvent
    {
        .resolved(
            ResolvedService(
                name: name,
                interface: 2,
                interfaceName: "eth0",
                ipv6: ipv6,
                address: address,
                port: 7601,
                txt: ["proto": String(proto), "id": id.rawValue, "name": name]
            )
        )
    }

    @Test func beforeAvahiAnswersItIsStarting() {
        let record = DiscoveryLog(localID: me).record
        #expect(record.mdns && record.avahi == .starting && record.registered == false && record.selfSeen == false)
        #expect(record.hostResolved == nil && record.services == [])
    }

    @Test func aRunningAvahiWithOurServiceAnnouncedSeenAndOurNameResolved() {
        var log = DiscoveryLog(localID: me)
        for event: AvahiEvent in [
            .connecting("avahi-daemon is not running"), .running, .hostName("alice.local"), .published(name: "alice"),
            resolved("alice", id: me, address: "10.0.0.1"), .hostResolved(name: "alice.local", address: "10.0.0.1"),
            resolved("bob", id: bob, address: "fe80::2", ipv6: true), resolved("bob", id: bob, address: "10.0.0.2"),
        ] {
            log.apply(event, at: 100)
        }
        let record = log.record
        #expect(record.avahi == .running && record.avahiError == nil)
        #expect(record.registered == true && record.service == "alice" && record.selfSeen == true)
        #expect(record.hostName == "alice.local" && record.hostResolved == true && record.hostAddress == "10.0.0.1")
        #expect(
            record.services == [
                DiscoveryRecord.Service(
                    name: "bob",
                    peer: bob,
                    addresses: ["10.0.0.2:7601", "[fe80::2%eth0]:7601"],
                    at: 100
                )
            ]
        )
    }

    @Test func avahiGoingAwayForgetsWhatItSaid() {
        var log = DiscoveryLog(localID: me)
        for event: AvahiEvent in [.running, .published(name: "alice"), resolved("bob", id: bob, address: "10.0.0.2")] {
            log.apply(event, at: 1)
        }
        log.apply(.connecting("avahi-daemon is not running; waiting for it"), at: 2)
        let record = log.record
        #expect(record.avahi == .connecting && record.avahiError == "avahi-daemon is not running; waiting for it")
        #expect(record.registered == false && record.services == [])
        log.apply(.unavailable("Daemon connection failed"), at: 3)
        #expect(log.record.avahi == .failed)
    }

    @Test func aServiceRemovedIsNoLongerSeenAndOurOwnNoLongerSelfSeen() {
        var log = DiscoveryLog(localID: me)
        log.apply(resolved("alice", id: me, address: "10.0.0.1"), at: 1)
        log.apply(resolved("bob", id: bob, address: "10.0.0.2"), at: 1)
        log.apply(.removed(name: "alice", interface: 2, ipv6: false), at: 2)
        log.apply(.removed(name: "bob", interface: 2, ipv6: false), at: 2)
        #expect(log.record.selfSeen == false && log.record.services == [])
    }

    @Test func aServiceOfAnotherProtocolIsListedWithoutAPeerAndWhy() {
        var log = DiscoveryLog(localID: me)
        log.apply(resolved("old", id: bob, address: "10.0.0.9", proto: 1), at: 1)
        let service = log.record.services?.first
        #expect(service?.peer == nil && service?.note == "speaks peer protocol 1, not \(ProtocolVersion.peer)")
    }

    @Test func aFailedResolutionOfOurNameIsKeptUntilItResolves() {
        var log = DiscoveryLog(localID: me)
        log.apply(.hostName("alice.local"), at: 1)
        log.apply(.hostNotResolved(name: "alice.local", reason: "Timeout reached"), at: 2)
        #expect(log.record.hostResolved == false && log.record.hostError == "Timeout reached")
        log.apply(.hostName("alice.local"), at: 3)
        #expect(log.record.hostResolved == false, "resolving again keeps the last answer until the next one")
        log.apply(.hostResolved(name: "alice.local", address: "10.0.0.1"), at: 4)
        #expect(log.record.hostResolved == true && log.record.hostError == nil)
        log.apply(.hostResolved(name: "other.local", address: "10.0.0.5"), at: 5)
        #expect(log.record.hostAddress == "10.0.0.1", "an answer about another name is not ours")
    }

    @Test func atMostSixtyFourServicesAreKept() {
        var log = DiscoveryLog(localID: me)
        for index in 0...DiscoveryLog.serviceLimit {
            let id = PeerID(String(repeating: "c", count: 12) + String(format4(index)))!
            log.apply(resolved("p\(index)", id: id, address: "10.0.1.\(index)"), at: Int64(index))
        }
        #expect(log.record.services?.count == DiscoveryLog.serviceLimit)
        #expect(log.record.services?.contains { $0.name == "p0" } == false)
    }

    func format4(_ n: Int) -> String {
        let digits = String(n, radix: 16)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }
}
