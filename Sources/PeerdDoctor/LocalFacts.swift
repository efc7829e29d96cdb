/// One network interface as the kernel describes it: its flags (`/sys/class/net/IF/flags`) and
/// whether it has an address.
package struct NetworkInterface: Hashable, Sendable {
    package static let up: UInt32 = 0x1
    package static let loopback: UInt32 = 0x8
    package static let pointToPoint: UInt32 = 0x10
    package static let multicast: UInt32 = 0x1000

    package var name: String
    package var flags: UInt32
    /// It has an IPv4 or IPv6 address.
    package var hasAddress: Bool

    package init(name: String, flags: UInt32, hasAddress: Bool) {
        self.name = name
        self.flags = flags
        self.hasAddress = hasAddress
    }

    /// `0x1003` (and a newline), as `/sys/class/net/IF/flags` holds them.
    package static func flags(sysfs text: String) -> UInt32? {
        let trimmed = text.filter { !$0.isWhitespace }
        guard trimmed.hasPrefix("0x") else { return UInt32(trimmed) }
        return UInt32(trimmed.dropFirst(2), radix: 16)
    }

    /// Up, with an address, and neither loopback nor point-to-point (a VPN): mDNS runs here, so it
    /// needs multicast.
    package var carriesMDNS: Bool {
        flags & Self.up != 0 && flags & (Self.loopback | Self.pointToPoint) == 0 && hasAddress
    }

    package var isMulticast: Bool { flags & Self.multicast != 0 }
}

/// The modes and owners of peerd's state directory and control socket.
package struct FileFacts: Sendable {
    package enum Entry: Hashable, Sendable {
        /// `mode` is `st_mode`'s permission bits (with set-id and sticky bits); `owner` a uid.
        case found(mode: UInt32, owner: UInt32)
        case unreadable(String)
    }

    package var stateDir: (path: String, entry: Entry)?
    package var socketDir: (path: String, entry: Entry)?
    package var socket: (path: String, entry: Entry)?
    /// The socket is the default one, whose directory the daemon makes and keeps at 0700.
    package var socketIsDefault: Bool
    /// peerctl's own uid.
    package var uid: UInt32

    package init(
        stateDir: (path: String, entry: Entry)? = nil,
        socketDir: (path: String, entry: Entry)? = nil,
        socket: (path: String, entry: Entry)? = nil,
        socketIsDefault: Bool = false,
        uid: UInt32 = 0
    ) {
        self.stateDir = stateDir
        self.socketDir = socketDir
        self.socket = socket
        self.socketIsDefault = socketIsDefault
        self.uid = uid
    }
}

/// The `hosts:` line of /etc/nsswitch.conf.
package enum NSSwitch {
    /// The modules of the hosts line (`files`, `mdns4_minimal`, `dns`), without `[…]` actions; nil
    /// without a hosts line.
    package static func hostsModules(_ text: String?) -> [String]? {
        for line in (text ?? "").split(separator: "\n") {
            let content = line.prefix { $0 != "#" }.drop { $0 == " " || $0 == "\t" }
            guard content.hasPrefix("hosts:") else { continue }
            var modules: [String] = []
            var inAction = false
            for word in content.dropFirst("hosts:".count).split(whereSeparator: { $0 == " " || $0 == "\t" }) {
                if word.hasPrefix("[") { inAction = true }
                if !inAction { modules.append(String(word)) }
                if word.hasSuffix("]") { inAction = false }
            }
            return modules
        }
        return nil
    }
}
