#if canImport(Glibc)
import Glibc
#endif

/// The address guests reach the opener on (proto/WEB.md, "Guests"): the first IPv4 address in
/// 10/8, 172.16/12 or 192.168/16 of an interface that is up, else the first other IPv4 address
/// that is not loopback or link-local. Asked at each opening of the door, so a laptop that changed
/// networks links its current address.
package enum LANAddress {
    package static func detect() -> String? {
        let addresses = interfaceAddresses()
        return addresses.first(where: isPrivate) ?? addresses.first
    }

    /// The IPv4 addresses of interfaces that are up, not loopback, not link-local, in the system's order.
    static func interfaceAddresses() -> [String] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var found: [String] = []
        for entry in sequence(first: first, next: { $0.pointee.ifa_next }) {
            let flags = Int32(entry.pointee.ifa_flags)
            guard let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET),
                flags & Int32(IFF_UP) != 0, flags & Int32(IFF_LOOPBACK) == 0
            else { continue }
            let octets = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                withUnsafeBytes(of: $0.pointee.sin_addr.s_addr) { Array($0) }
            }
            guard octets[0] != 127, !(octets[0] == 169 && octets[1] == 254) else { continue }
            found.append(octets.map(String.init).joined(separator: "."))
        }
        return found
    }

    static func isPrivate(_ address: String) -> Bool {
        let octets = address.split(separator: ".").compactMap { Int($0) }
        guard octets.count == 4 else { return false }
        return octets[0] == 10 || (octets[0] == 172 && (16...31).contains(octets[1]))
            || (octets[0] == 192 && octets[1] == 168)
    }
}
