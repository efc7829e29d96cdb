/// A link made by `deviceLink` (proto/CONTROL.md): the URL to open on the phone, until when, and
/// for whom.
package struct DeviceLinkRecord: Hashable, Sendable, Codable {
    /// `http://ADDRESS:PORT/link/CODE`: the code is 128 bits and works once.
    package var url: String
    /// ms since 1970.
    package var expiresAt: Int64
    /// The member's name.
    package var member: String
    /// The name the device will have, when one was given.
    package var name: String?

    package init(url: String, expiresAt: Int64, member: String, name: String?) {
        self.url = url
        self.expiresAt = expiresAt
        self.member = member
        self.name = name
    }

    private enum CodingKeys: String, CodingKey { case url, expiresAt, member, name }

    /// `name` is written even when absent, as `null`: a script reads every key.
    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(url, forKey: .url)
        try c.encode(expiresAt, forKey: .expiresAt)
        try c.encode(member, forKey: .member)
        try c.encode(name, forKey: .name)
    }
}

/// One linked device as `deviceList` and `deviceUnlink` show it.
package struct DeviceRecord: Hashable, Sendable, Codable {
    package var id: String
    package var name: String
    /// The member's name.
    package var member: String
    /// ms since 1970.
    package var linkedAt: Int64
    /// ms since 1970; absent before its first request after linking.
    package var lastSeen: Int64?
    /// The address it linked from, the only one its capability works from.
    package var address: String

    package init(id: String, name: String, member: String, linkedAt: Int64, lastSeen: Int64?, address: String) {
        self.id = id
        self.name = name
        self.member = member
        self.linkedAt = linkedAt
        self.lastSeen = lastSeen
        self.address = address
    }

    private enum CodingKeys: String, CodingKey { case id, name, member, linkedAt, lastSeen, address }

    /// `lastSeen` is written even when absent, as `null`: a script reads every key.
    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(name, forKey: .name)
        try c.encode(member, forKey: .member)
        try c.encode(linkedAt, forKey: .linkedAt)
        try c.encode(lastSeen, forKey: .lastSeen)
        try c.encode(address, forKey: .address)
    }
}

/// The answer to `deviceList`.
package struct DevicesRecord: Hashable, Sendable, Codable {
    package var devices: [DeviceRecord]

    package init(devices: [DeviceRecord]) { self.devices = devices }
}
