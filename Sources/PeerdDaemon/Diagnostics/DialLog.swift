import PeerdModel
import PeerdWire

/// What `peerctl doctor` asks the daemon about its peers (proto/CONTROL.md, "diagnose"), kept in
/// memory and bounded: the latest dial results per address, the latest inbound refusals and the
/// latest inbound session of each peer. Pure: the directory feeds it and reads it.
struct DialLog: Sendable {
    static let resultsPerAddress = 8
    static let addressLimit = 64
    static let refusalLimit = 32
    static let inboundLimit = 32

    /// Each address's latest results, oldest first.
    private var results: [String: [DialRecord]] = [:]
    /// Addresses from the least to the most recently dialed: the first goes when there are too many.
    private var addresses: [String] = []
    /// Oldest first.
    private(set) var refusals: [RefusalRecord] = []
    /// One per peer, oldest first.
    private(set) var inbound: [InboundRecord] = []

    /// Every result kept, oldest first.
    var dials: [DialRecord] {
        results.values.joined().sorted { ($0.at, $0.address) < ($1.at, $1.address) }
    }

    mutating func record(_ dial: DialRecord) {
        addresses.removeAll { $0 == dial.address }
        addresses.append(dial.address)
        results[dial.address] = (results[dial.address] ?? []).suffix(Self.resultsPerAddress - 1) + [dial]
        while addresses.count > Self.addressLimit { results[addresses.removeFirst()] = nil }
    }

    mutating func refused(_ refusal: RefusalRecord) {
        refusals.append(refusal)
        refusals.removeFirst(max(0, refusals.count - Self.refusalLimit))
    }

    /// A session with `peer` was established (`inbound` when it dialed us): its refusals are over.
    mutating func admitted(_ peer: PeerID, inbound session: InboundRecord?) {
        refusals.removeAll { $0.peer == peer }
        guard let session else { return }
        inbound.removeAll { $0.peer == peer }
        inbound.append(session)
        inbound.removeFirst(max(0, inbound.count - Self.inboundLimit))
    }
}
