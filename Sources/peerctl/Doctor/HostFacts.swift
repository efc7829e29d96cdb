import PeerControl
import PeerdDoctor
import PeerdWire

#if canImport(Glibc)
import Glibc
#endif

/// Reads what `peerctl doctor` checks on this machine: thin I/O around PeerdDoctor's pure parsers
/// and checks.
enum HostFacts {
    static func read(status: StatusRecord?) -> Doctor.LocalFacts {
        Doctor.LocalFacts(
            interfaces: interfaces(),
            firewall: firewall(),
            nsswitch: file("/etc/nsswitch.conf").map { String(decoding: $0, as: UTF8.self) },
            files: status.map(files) ?? FileFacts(uid: getuid()),
            systemd: systemd()
        )
    }

    /// Every interface with an address (getifaddrs), with its flags from /sys/class/net.
    static func interfaces() -> [NetworkInterface] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return [] }
        defer { freeifaddrs(list) }
        var found: [String: NetworkInterface] = [:]
        var names: [String] = []
        var entry = list
        while let current = entry?.pointee {
            entry = current.ifa_next
            let name = String(cString: current.ifa_name)
            let family = current.ifa_addr.map { Int32($0.pointee.sa_family) }
            let hasAddress = family == AF_INET || family == AF_INET6
            if found[name] == nil {
                names.append(name)
                let sysfs = file("/sys/class/net/\(name)/flags").map { String(decoding: $0, as: UTF8.self) }
                let flags = sysfs.flatMap(NetworkInterface.flags(sysfs:)) ?? current.ifa_flags
                found[name] = NetworkInterface(name: name, flags: flags, hasAddress: false)
            }
            if hasAddress { found[name]?.hasAddress = true }
        }
        return names.compactMap { found[$0] }
    }

    /// nftables' rules, and iptables' (legacy tables are not in nft's), when they can be read.
    static func firewall() -> FirewallReading {
        var rulesets: [FirewallRuleset] = []
        var refusals: [String] = []
        if let nft = Subprocess.find("nft"), let run = Subprocess.run(nft, ["-j", "list", "ruleset"]) {
            if run.succeeded, let rules = try? NFTRuleset.parse(run.output) {
                rulesets.append(rules)
            } else {
                refusals.append("nft: \(run.complaint)")
            }
        }
        if let save = Subprocess.find("iptables-save"), let run = Subprocess.run(save, []) {
            if run.succeeded {
                let rules = IPTablesSave.parse(String(decoding: run.output, as: UTF8.self))
                if !rules.chains.isEmpty { rulesets.append(rules) }
            } else {
                refusals.append("iptables-save: \(run.complaint)")
            }
        }
        guard rulesets.isEmpty else { return .rules(rulesets) }
        if refusals.isEmpty { return .unreadable("neither nft nor iptables-save is installed") }
        if getuid() != 0 { return .unreadable("needs root (sudo peerctl doctor)") }
        return .unreadable(refusals.joined(separator: "; "))
    }

    static func files(_ status: StatusRecord) -> FileFacts {
        let socketDir = status.socket.lastIndex(of: "/").map { String(status.socket[..<$0]) } ?? "."
        return FileFacts(
            stateDir: (status.stateDir, entry(status.stateDir)),
            socketDir: (socketDir.isEmpty ? "/" : socketDir, entry(socketDir.isEmpty ? "/" : socketDir)),
            socket: (status.socket, entry(status.socket)),
            socketIsDefault: status.socket == PeerdEnvironment.current.defaultSocketPath,
            uid: getuid()
        )
    }

    private static func entry(_ path: String) -> FileFacts.Entry {
        var info = stat()
        guard stat(path, &info) == 0 else { return .unreadable(String(cString: strerror(errno))) }
        return .found(mode: UInt32(info.st_mode) & 0o7777, owner: info.st_uid)
    }

    /// The peerd user unit's state: its file wherever systemd looks for user units (a package's in
    /// /usr/lib/systemd/user, `make install`'s in ~/.config/systemd/user), and what the user
    /// manager says of it, when one answers.
    static func systemd() -> SystemdUnitState {
        let directories = SystemdUnitState.userUnitDirectories(PeerdEnvironment.current.variables)
        let installed = directories.map { $0 + "/" + SystemdUnitState.unitName }.first { access($0, F_OK) == 0 }
        guard let systemctl = Subprocess.find("systemctl") else {
            return SystemdUnitState.read(installed: installed, show: .noSystemctl)
        }
        let arguments = ["--user", "show", SystemdUnitState.unitName, "-p", SystemdUnitState.showProperties]
        guard let show = Subprocess.run(systemctl, arguments, limit: 5) else {
            return SystemdUnitState.read(installed: installed, show: .failed("systemctl could not be started"))
        }
        guard show.succeeded else { return SystemdUnitState.read(installed: installed, show: .failed(show.complaint)) }
        return SystemdUnitState.read(
            installed: installed,
            show: .answered(String(decoding: show.output, as: UTF8.self))
        )
    }

    /// A whole (small) file, or nil.
    static func file(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return n == 0 ? bytes : nil }
            bytes += buffer[..<n]
        }
    }
}
