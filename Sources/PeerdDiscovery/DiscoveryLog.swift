package import PeerdModel
package import PeerdWire

/// How discovery stands, folded from `AvahiEvent`s for `peerctl doctor` (proto/CONTROL.md,
/// "diagnose"): the Avahi client's state, our announcement and host name, and the services seen. Pure.
package struct DiscoveryLog: Sendable {
    /// At most this many services (by name) are kept; the ones resolved longest ago go first.
    package static let serviceLimit = 64

    struct Resolution {
        var service: ResolvedService
        var txt: Result<ServiceTXT, ServiceTXT.Unusable>
        var at: Int64
    }

    private let localID: PeerID
    private var avahi = DiscoveryRecord.AvahiState.starting
    private var avahiError: String?
    private var hostName: String?
    private var service: String?
    private var registered = false
    private var registerError: String?
    private var browseError: String?
    /// Our own service's resolutions: our browse sees us.
    private var own = Set<DiscoveredPeers.Key>()
    private var host: (resolved: Bool, address: String?, error: String?)?
    private var others: [DiscoveredPeers.Key: Resolution] = [:]

    package init(localID: PeerID) {
        self.localID = localID
    }

    package mutating func apply(_ event: AvahiEvent, at: Int64) {
        switch event {
        case .unavailable(let reason): lost(.failed, reason)
        case .connecting(let reason): lost(.connecting, reason)
        case .running: (avahi, avahiError, browseError) = (.running, nil, nil)
        case .hostName(let name) where name != hostName: (hostName, host) = (name, nil)
        case .hostName: break
        case .hostResolved(let name, let address) where name == hostName: host = (true, address, nil)
        case .hostNotResolved(let name, let reason) where name == hostName || name.isEmpty:
            host = (false, nil, reason)
        case .hostResolved, .hostNotResolved: break
        case .published(let name): (service, registered, registerError) = (name, true, nil)
        case .renamed(_, let to): (service, registered) = (to, false)
        case .publishFailed(let reason): (registered, registerError) = (false, reason)
        case .browseFailed(let reason): browseError = reason
        case .resolved(let resolved): self.resolved(resolved, at: at)
        case .removed(let name, let interface, let ipv6):
            let key = DiscoveredPeers.Key(name: name, interface: interface, ipv6: ipv6)
            own.remove(key)
            others[key] = nil
        }
    }

    /// Avahi went away (or never came): nothing it said holds any more.
    private mutating func lost(_ state: DiscoveryRecord.AvahiState, _ reason: String) {
        (avahi, avahiError, registered, host) = (state, reason, false, nil)
        own.removeAll()
        others.removeAll()
    }

    private mutating func resolved(_ resolved: ResolvedService, at: Int64) {
        let key = DiscoveredPeers.Key(name: resolved.name, interface: resolved.interface, ipv6: resolved.ipv6)
        let txt = ServiceTXT.parse(resolved.txt)
        if case .success(let parsed) = txt, parsed.peer == localID {
            own.insert(key)
            return
        }
        others[key] = Resolution(service: resolved, txt: txt, at: at)
        let names = Set(others.values.map(\.service.name))
        guard names.count > Self.serviceLimit else { return }
        let stalest = others.min { $0.value.at < $1.value.at }!.value.service.name
        others = others.filter { $0.value.service.name != stalest }
    }

    package var record: DiscoveryRecord {
        DiscoveryRecord(
            mdns: true,
            avahi: avahi,
            avahiError: avahiError,
            hostName: hostName,
            service: service,
            registered: registered,
            registerError: registerError,
            browseError: browseError,
            selfSeen: !own.isEmpty,
            hostResolved: host?.resolved,
            hostAddress: host?.address,
            hostError: host?.error,
            services: services
        )
    }

    /// One entry per service name, its addresses best first, by name.
    private var services: [DiscoveryRecord.Service] {
        Dictionary(grouping: others.values, by: \.service.name).map { name, resolutions in
            let addresses = resolutions.map { DiscoveredPeers.address(of: $0.service) }
                .sorted { DiscoveredPeers.rank($0) < DiscoveredPeers.rank($1) }
            var unique: [String] = []
            for address in addresses.map(\.description) where !unique.contains(address) { unique.append(address) }
            let latest = resolutions.max { $0.at < $1.at }!
            return DiscoveryRecord.Service(
                name: name,
                peer: try? latest.txt.get().peer,
                note: Self.note(latest.txt),
                addresses: unique,
                at: latest.at
            )
        }
        .sorted { $0.name < $1.name }
    }

    private static func note(_ txt: Result<ServiceTXT, ServiceTXT.Unusable>) -> String? {
        switch txt {
        case .success: nil
        case .failure(.missing(let key)): "its TXT has no usable '\(key)'"
        case .failure(.otherProtocol(let version)): "speaks peer protocol \(version), not \(ProtocolVersion.peer)"
        }
    }
}
