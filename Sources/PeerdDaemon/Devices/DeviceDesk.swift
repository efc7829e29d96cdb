import PeerdModel
import PeerdWeb
import PeerdWire

/// Linked devices for `peerctl device` (proto/CONTROL.md, "deviceLink", "deviceList",
/// "deviceUnlink"): links made for the member a request acts for (its `profile`, resolved by
/// ``ControlResponder`` into ``ActingMember``), the devices listed, one unlinked.
/// The door itself, and the devices' requests, are ``DeviceDoor``'s.
struct DeviceDesk: Sendable {
    /// How long a link stays valid when the request doesn't say, and at most.
    static var defaultExpiry: Int { 600 }
    static var maxExpiry: Int { 86_400 }

    let ledger: DeviceLedger
    /// This machine's own member: its id and name.
    let machine: PeerID
    let machineName: String

    /// A link for a device of the member the request acts for.
    func link(_ request: DeviceLinkRequest) async -> ControlResponse {
        let expiresIn = request.expiresIn ?? Self.defaultExpiry
        guard (1...Self.maxExpiry).contains(expiresIn) else {
            return .error(WireError(.badRequest, "a link expires in 1 to \(Self.maxExpiry) seconds, not \(expiresIn)"))
        }
        if let name = request.name, !Self.isName(name) {
            return .error(
                WireError(.badRequest, "a device's name is 1 to 40 characters, none of them control characters")
            )
        }
        switch await ledger.link(for: member, name: request.name, expiresIn: expiresIn) {
        case .success(let link): return .deviceLink(link)
        case .failure(let problem): return .error(WireError(.unavailable, problem.description))
        }
    }

    func list() -> ControlResponse { .devices(DevicesRecord(devices: ledger.records)) }

    func unlink(_ nameOrID: String) async -> ControlResponse {
        guard let device = await ledger.unlink(nameOrID) else {
            let known = ledger.records.map(\.name)
            let hint = known.isEmpty ? "no device is linked" : "linked: " + known.joined(separator: ", ")
            return .error(WireError(.badRequest, "no device is named '\(nameOrID)' or has that id; \(hint)"))
        }
        return .deviceUnlinked(device)
    }

    static func isName(_ name: String) -> Bool {
        (1...40).contains(name.unicodeScalars.count) && !name.allSatisfy(\.isWhitespace)
            && !name.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    /// The member the request acts for (``ActingMember``): a profile of this machine, or its own.
    private var member: DeviceBook.Member {
        guard let acting = ActingMember.current, acting.id != machine else {
            return DeviceBook.Member(peer: nil, name: machineName)
        }
        return DeviceBook.Member(peer: acting.id, name: acting.name)
    }
}
