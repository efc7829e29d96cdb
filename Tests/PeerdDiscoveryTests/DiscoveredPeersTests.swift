import PeerdDiscovery
import PeerdModel
import PeerdWire
import Testing

@Suite("What mDNS says about other peers")
struct DiscoveredPeersTests {
    let me = PeerID("aaaaaaaaaaaaaaaa")!
    let bob = PeerID("bbbbbbbbbbbbbbbb")!

    func resolved(
        _ name: String,
        id: PeerID,
        address: String,
        ipv6: Bool = false,
        interface: Int32 = 2,
        proto: String = String(ProtocolVersion.peer)
    ) -> AvahiEvent {
        .resolved(
            ResolvedService(
                name: name,
                interface: interface,
                interfaceName: "eth0",
                ipv6: ipv6,
                address: address,
                port: 7601,
                txt: ["proto": proto, "id": id.rawValue, "name": name]
            )
        )
    }

    @Test func aResolvedServiceIsAFoundPeerWithItsAddressesBestFirst() {
        var peers = DiscoveredPeers(localID: me)
        _ = peers.apply(resolved("bob", id: bob, address: "fe80::1", ipv6: true))
        let (changes, _) = peers.apply(resolved("bob", id: bob, address: "10.0.0.2"))
        #expect(
            changes == [
                .found(
                    bob,
                    name: "bob",
                    addresses: [
                        PeerAddress(host: "10.0.0.2", port: 7601), PeerAddress(host: "fe80::1%eth0", port: 7601),
                    ]
                )
            ]
        )
    }

    @Test func ourOwnServiceIsIgnored() {
        var peers = DiscoveredPeers(localID: me)
        #expect(peers.apply(resolved("me", id: me, address: "10.0.0.1")).changes.isEmpty)
    }

    @Test func aServiceWithAnotherProtocolOrNoIDIsIgnoredWithAReason() {
        var peers = DiscoveredPeers(localID: me)
        let future = ProtocolVersion.peer + 1
        let other = peers.apply(resolved("future", id: bob, address: "10.0.0.2", proto: String(future)))
        #expect(other.changes.isEmpty)
        #expect(other.ignored?.contains("protocol \(future)") == true)
        let broken = AvahiEvent.resolved(
            ResolvedService(
                name: "x",
                interface: 2,
                interfaceName: nil,
                ipv6: false,
                address: "10.0.0.9",
                port: 1,
                txt: ["proto": String(ProtocolVersion.peer)]
            )
        )
        #expect(peers.apply(broken).ignored?.contains("'id'") == true)
    }

    @Test func aPeerIsLostOnlyWhenItsLastAddressIsRemoved() {
        var peers = DiscoveredPeers(localID: me)
        _ = peers.apply(resolved("bob", id: bob, address: "10.0.0.2"))
        _ = peers.apply(resolved("bob", id: bob, address: "fe80::1", ipv6: true))
        let first = peers.apply(.removed(name: "bob", interface: 2, ipv6: true)).changes
        #expect(first == [.found(bob, name: "bob", addresses: [PeerAddress(host: "10.0.0.2", port: 7601)])])
        #expect(peers.apply(.removed(name: "bob", interface: 2, ipv6: false)).changes == [.lost(bob)])
        #expect(peers.apply(.removed(name: "bob", interface: 2, ipv6: false)).changes.isEmpty)
    }

    @Test func losingAvahiForgetsEveryPeerItHadFound() {
        var peers = DiscoveredPeers(localID: me)
        _ = peers.apply(resolved("bob", id: bob, address: "10.0.0.2"))
        #expect(peers.apply(.unavailable("Daemon not running")).changes == [.lost(bob)])
    }

    @Test func theTXTRecordCarriesProtocolIDAndName() {
        let txt = ServiceTXT(peer: bob, name: "bob")
        #expect(txt.entries.map(\.0) == ["proto", "id", "name"])
        #expect(ServiceTXT.parse(Dictionary(uniqueKeysWithValues: txt.entries)) == .success(txt))
    }
}
