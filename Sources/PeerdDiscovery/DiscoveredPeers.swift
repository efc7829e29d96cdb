package import PeerdModel
import PeerdWire

/// What mDNS currently says about other peers, folded from `AvahiEvent`s. Pure.
///
/// Avahi reports each service once per interface and address family; a peer is found when its
/// first usable address resolves and lost when the last one is removed.
package struct DiscoveredPeers: Sendable {
    package enum Change: Hashable, Sendable {
        /// A peer's addresses (best first: IPv4, then IPv6 global, then link-local with scope).
        case found(PeerID, name: String, addresses: [PeerAddress])
        case lost(PeerID)
    }

    struct Key: Hashable {
        var name: String
        var interface: Int32
        var ipv6: Bool
    }

    private let localID: PeerID
    private var resolutions: [Key: (peer: PeerID, name: String, address: PeerAddress)] = [:]

    package init(localID: PeerID) {
        self.localID = localID
    }

    /// Applies one event; returns what changed for the peers it concerns, and a reason when a
    /// resolved service was ignored (for a log line).
    package mutating func apply(_ event: AvahiEvent) -> (changes: [Change], ignored: String?) {
        switch event {
        case .resolved(let service):
            let txt: ServiceTXT
            switch ServiceTXT.parse(service.txt) {
            case .success(let parsed): txt = parsed
            case .failure(.missing(let key)): return ([], "service '\(service.name)' has no usable '\(key)' in its TXT")
            case .failure(.otherProtocol(let version)):
                return ([], "service '\(service.name)' speaks peer protocol \(version), not \(ProtocolVersion.peer)")
            }
            guard txt.peer != localID else { return ([], nil) }
            let key = Key(name: service.name, interface: service.interface, ipv6: service.ipv6)
            resolutions[key] = (txt.peer, txt.name, Self.address(of: service))
            return ([found(txt.peer)], nil)
        case .removed(let name, let interface, let ipv6):
            guard let gone = resolutions.removeValue(forKey: Key(name: name, interface: interface, ipv6: ipv6)) else {
                return ([], nil)
            }
            let remaining = resolutions.values.contains { $0.peer == gone.peer }
            return ([remaining ? found(gone.peer) : .lost(gone.peer)], nil)
        case .unavailable, .connecting:
            // Without Avahi nothing is known any more; sessions carry on regardless.
            let peers = Set(resolutions.values.map(\.peer))
            resolutions.removeAll()
            return (peers.sorted().map(Change.lost), nil)
        case .running, .published, .renamed, .publishFailed, .browseFailed, .hostName, .hostResolved,
            .hostNotResolved:
            return ([], nil)
        }
    }

    private func found(_ peer: PeerID) -> Change {
        let mine = resolutions.values.filter { $0.peer == peer }
        let addresses = mine.map(\.address).sorted { Self.rank($0) < Self.rank($1) }
        var unique: [PeerAddress] = []
        for address in addresses where !unique.contains(address) { unique.append(address) }
        return .found(peer, name: mine.first?.name ?? peer.short, addresses: unique)
    }

    /// IPv6 link-local addresses only mean something on their interface: they carry it as scope.
    static func address(of service: ResolvedService) -> PeerAddress {
        var host = service.address
        if service.ipv6, host.lowercased().hasPrefix("fe80:"), let scope = service.interfaceName {
            host += "%" + scope
        }
        return PeerAddress(host: host, port: service.port)
    }

    static func rank(_ address: PeerAddress) -> (Int, String) {
        if !address.host.contains(":") { return (0, address.host) }
        return (address.host.lowercased().hasPrefix("fe80:") ? 2 : 1, address.host)
    }
}
