import NIOCore
import NIOPosix
import PeerdModel

/// This machine's addresses that a member elsewhere may dial, as its `reach` announces them
/// (proto/PEER.md, "Relays and reach"): each interface's IPv4 address and global IPv6 address, not
/// loopback or link-local, nor on a bridge of containers or virtual machines, with the port peerd
/// listens on; or the one address it listens on.
enum LocalAddresses {
    static func current(listening host: String, port: Int) -> [PeerAddress] {
        guard host == "::" || host == "0.0.0.0" || host.isEmpty else { return [PeerAddress(host: host, port: port)] }
        let devices = (try? System.enumerateDevices()) ?? []
        let hosts = devices.filter { !isLocalOnly(interface: $0.name) }.compactMap { $0.address?.ipAddress }
            .filter(isDialable)
        var seen = Set<String>()
        // IPv4 first: a house's LAN and most overlays speak it.
        let ordered = hosts.filter { !$0.contains(":") } + hosts.filter { $0.contains(":") }
        return ordered.filter { seen.insert($0).inserted }.prefix(PeerReach.maxAddresses).map {
            PeerAddress(host: $0, port: port)
        }
    }

    /// An interface only this machine's containers and virtual machines reach: Docker's `docker0`
    /// and `br-<network id>`, libvirt's `virbr0` and `vnet0`, LXC's, LXD's, Podman's and CNI's
    /// bridges, and the `veth` ends of them all. Another house can't reach its address, and the
    /// same address (172.17.0.1, 192.168.122.1) is often on the dialer's own machine. A bridge of
    /// the user's own (`br0`) carries the LAN, and stays.
    static func isLocalOnly(interface name: String) -> Bool {
        let prefixes = ["docker", "br-", "virbr", "vnet", "veth", "lxcbr", "lxdbr", "podman", "cni", "flannel"]
        return prefixes.contains { name.hasPrefix($0) }
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
