/// How to reach one peer (proto/PEER.md, "Relays and reach"): where it listens, and its device id on
/// the group's relays. A `reach` operation carries it, made by the peer it describes (its origin:
/// nobody can sign for another key), so a member in another house can dial a member it never met.
/// Each peer's newest by the list's order wins on every peer.
///
/// A class, like ``GroupSettings``, so that an operation holds it in one pointer's room
/// (``Operation/Payload``). Its JSON: `{"addresses":["192.168.1.20:7601","[fd00::2]:7601"],"device":"MFZWI3D-…"}`.
package final class PeerReach: Hashable, Sendable, Codable, CustomStringConvertible {
    package static let maxAddresses = 16
    package static let maxDeviceLength = 80
    /// The longest host an address names, as DNS allows a name.
    package static let maxHostLength = 253

    /// Where it listens: its LAN (and overlay) addresses with its port, best first, each once.
    package let addresses: [PeerAddress]
    /// Its device id on relays (Syncthing's text form of SHA-256 of its TLS certificate,
    /// `MFZWI3D-BONSGYC-…`), "" when it has none.
    package let device: String

    private enum CodingKeys: String, CodingKey {
        case addresses, device
    }

    package init(addresses: [PeerAddress], device: String) {
        self.addresses = addresses
        self.device = device
    }

    /// Reads each address as `host:port` with its port (``PeerAddress/init(_:defaultPort:)`` with
    /// none to fill in), so what is read writes back as it came.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let texts = try container.decode([String].self, forKey: .addresses)
        addresses = try texts.map { text in
            guard let address = PeerAddress(text, defaultPort: nil), address.description == text else {
                throw DecodingError.dataCorruptedError(
                    forKey: .addresses,
                    in: container,
                    debugDescription: "'\(text)' is not host:port"
                )
            }
            return address
        }
        device = try container.decode(String.self, forKey: .device)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(addresses.map(\.description), forKey: .addresses)
        try container.encode(device, forKey: .device)
    }

    /// Why this can't be stored, or nil when it can.
    package var invalidReason: String? {
        if addresses.count > Self.maxAddresses { return "a peer names at most \(Self.maxAddresses) addresses" }
        if !addresses.allSatisfy(Self.isPlain) {
            return "an address is host:port: 1 to \(Self.maxHostLength) printable ASCII characters and a port"
        }
        if Set(addresses).count != addresses.count { return "a peer names each address once" }
        guard device.utf8.count <= Self.maxDeviceLength, device.utf8.allSatisfy(Self.isDeviceByte) else {
            return "a device id is up to \(Self.maxDeviceLength) capital letters, digits and dashes"
        }
        return nil
    }

    /// Whether `address` is one peerd dials as written: a host of printable ASCII without `/`, `[`
    /// or `]`, within the length DNS allows, and a port of 1 to 65535.
    private static func isPlain(_ address: PeerAddress) -> Bool {
        let host = address.host.utf8
        return (1...maxHostLength).contains(host.count) && (1...65535).contains(address.port)
            && host.allSatisfy { (0x21...0x7E).contains($0) && !"/[]".utf8.contains($0) }
    }

    private static func isDeviceByte(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x30...0x39).contains(byte) || byte == UInt8(ascii: "-")
    }

    /// The device id's first group (`MFZWI3D`), as Syncthing shortens it; "" when it has none.
    package var shortDevice: String { String(device.prefix { $0 != "-" }) }

    /// "192.168.1.20:7601, [fd00::2]:7601; relays as MFZWI3D", "no address".
    package var description: String {
        let listening = addresses.isEmpty ? "no address" : addresses.map(\.description).joined(separator: ", ")
        return device.isEmpty ? listening : "\(listening); relays as \(shortDevice)"
    }

    package static func == (lhs: PeerReach, rhs: PeerReach) -> Bool {
        lhs === rhs || (lhs.addresses == rhs.addresses && lhs.device == rhs.device)
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(addresses)
        hasher.combine(device)
    }
}
