package import PeerdModel

/// Pure: the devices linked to this machine's members and the links not used yet (proto/WEB.md,
/// "Devices"). It holds no secret: a link's code and a device's capability are known here only by
/// their SHA-256 (``DeviceSecret``), so the file it is kept in opens nothing. Times are ms since
/// 1970, given by the caller.
package struct DeviceBook: Hashable, Sendable, Codable {
    /// The member a device acts for: a profile's peer id, or nil for the machine's own member; and
    /// its name when the device was linked, for people to read.
    package struct Member: Hashable, Sendable, Codable {
        package var peer: PeerID?
        package var name: String

        package init(peer: PeerID?, name: String) {
            self.peer = peer
            self.name = name
        }
    }

    package struct Device: Hashable, Sendable, Codable {
        package var id: String
        package var name: String
        package var member: Member
        /// The SHA-256 of its capability, in hex.
        package var key: String
        /// The address that opened the link: the only one the capability works from.
        package var address: String
        package var linkedAt: Int64
        package var lastSeen: Int64?
    }

    /// A link made and not used yet; forgotten at its expiry, at its use, or when peerd restarts.
    package struct Link: Hashable, Sendable, Codable {
        /// The SHA-256 of its code, in hex.
        package var key: String
        package var member: Member
        package var name: String?
        package var expiresAt: Int64

        package init(key: String, member: Member, name: String?, expiresAt: Int64) {
            self.key = key
            self.member = member
            self.name = name
            self.expiresAt = expiresAt
        }
    }

    /// Why a link or a capability opens nothing; the door answers each with a 401.
    package enum Refusal: Error, Hashable, Sendable {
        /// No such link: never made, used already, or forgotten at a restart.
        case unknownLink
        case expiredLink
        /// No device holds the capability: never linked, or unlinked.
        case unknownDevice
        /// The device's capability, from another address than the one it linked from.
        case otherAddress
    }

    package private(set) var devices: [Device] = []
    /// Not kept on disk: a pending link is forgotten at a restart, like an invite code.
    package private(set) var links: [Link] = []

    package init() {}

    /// Whether the door has anyone to serve: a device, or a link not used yet.
    package var needsDoor: Bool { !devices.isEmpty || !links.isEmpty }

    /// When the next pending link expires, if one is pending.
    package var nextExpiry: Int64? { links.map(\.expiresAt).min() }

    package mutating func add(_ link: Link) { links.append(link) }

    /// Forgets the link whose code hashes to `key`, unused.
    package mutating func cancel(_ key: String) { links.removeAll { $0.key == key } }

    /// Drops the links expired at `now`; returns them.
    @discardableResult
    package mutating func expire(now: Int64) -> [Link] {
        let expired = links.filter { $0.expiresAt <= now }
        links.removeAll { $0.expiresAt <= now }
        return expired
    }

    /// Uses the link whose code hashes to `linkKey`: it is gone, and the device it makes holds the
    /// capability hashing to `capabilityKey`, works from `address` only, and is named after its
    /// member and `kind` unless the link named it (numbered when the name is taken).
    package mutating func redeem(
        linkKey: String,
        capabilityKey: String,
        id: String,
        address: String,
        kind: DeviceKind,
        now: Int64
    ) -> Result<Device, Refusal> {
        guard let index = links.firstIndex(where: { $0.key == linkKey }) else { return .failure(.unknownLink) }
        let link = links.remove(at: index)
        guard link.expiresAt > now else { return .failure(.expiredLink) }
        let name = freeName(link.name ?? "\(link.member.name)'s \(kind.rawValue)")
        let device = Device(
            id: id,
            name: name,
            member: link.member,
            key: capabilityKey,
            address: address,
            linkedAt: now,
            lastSeen: nil
        )
        devices.append(device)
        return .success(device)
    }

    /// The device whose capability hashes to `capabilityKey`, asking from `address`.
    package func device(capabilityKey: String, from address: String) -> Result<Device, Refusal> {
        guard let device = devices.first(where: { $0.key == capabilityKey }) else { return .failure(.unknownDevice) }
        guard device.address == address else { return .failure(.otherAddress) }
        return .success(device)
    }

    /// Notes that device `id` asked something at `now`.
    package mutating func seen(_ id: String, now: Int64) {
        guard let index = devices.firstIndex(where: { $0.id == id }) else { return }
        devices[index].lastSeen = now
    }

    /// The device `nameOrID` names: its id, or its name in any case.
    package func device(named nameOrID: String) -> Device? {
        devices.first { $0.id == nameOrID } ?? devices.first { $0.name.lowercased() == nameOrID.lowercased() }
    }

    /// Unlinks the device `nameOrID` names; returns it, or nil when none does.
    package mutating func unlink(_ nameOrID: String) -> Device? {
        guard let device = device(named: nameOrID) else { return nil }
        devices.removeAll { $0.id == device.id }
        return device
    }

    /// Unlinks every device, and forgets every link, of the members `removed` says are out of the
    /// group (it is given a device's member: nil is the machine's own); returns the devices.
    package mutating func unlinkMembers(where removed: (PeerID?) -> Bool) -> [Device] {
        let gone = devices.filter { removed($0.member.peer) }
        devices.removeAll { removed($0.member.peer) }
        links.removeAll { removed($0.member.peer) }
        return gone
    }

    /// `name`, or `name 2`, `name 3`… whichever no device has yet (in any case).
    func freeName(_ name: String) -> String {
        let taken = Set(devices.map { $0.name.lowercased() })
        guard taken.contains(name.lowercased()) else { return name }
        let number = (2...).first { !taken.contains("\(name.lowercased()) \($0)") } ?? 2
        return "\(name) \(number)"
    }

    private enum CodingKeys: String, CodingKey { case devices }

    /// The file's form: the devices only.
    package init(from decoder: any Decoder) throws {
        devices = try decoder.container(keyedBy: CodingKeys.self).decode([Device].self, forKey: .devices)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(devices, forKey: .devices)
    }
}
