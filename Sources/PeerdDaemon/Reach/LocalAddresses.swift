import NIOCore
import NIOPosix
import PeerdModel

/// This machine's addresses that a member elsewhere may dial, as its `reach` announces them
/// (proto/PEER.md, "Relays and reach"): each interface's IPv4 address and global IPv6 address, not
/// loopback or link-local, with the port peerd listens on; or the one address it listens on.
enum LocalAddresses {
    static func current(listening host: String, port: Int) -> [PeerAddress] {
        guard host == "::" || host == "0.0.0.0" || host.isEmpty else { return [PeerAddress(host: host, port: port)] }
        let devices = (try? System.enumerateDevices()) ?? []
        let hosts = devices.compactMap { $0.address?.ipAddress }.filter(isDialable)
        var seen = Set<String>()
        // IPv4 first: a house's LAN and most overlays speak it.
        let ordered = hosts.filter { !$0.contains(":") } + hosts.filter { $0.contains(":") }
        return ordered.filter { seen.insert($0).inserted }.prefix(PeerReach.maxAddresses).map {
            PeerAddress(host: $0, port: port)
        }
    }

    /// Not loopback, not link-local (which names no host beyond the link without its interface).
    static func isDialable(_ ip: String) -> Bool {
        let lower = ip.lowercased()
        if lower.contains(":") {
            return !(lower == "::1" || lower.hasPrefix("fe80:") || lower.hasPrefix("::ffff:127."))
        }
        return !(lower.hasPrefix("127.") || lower.hasPrefix("169.254.") || lower == "0.0.0.0")
    }
}
