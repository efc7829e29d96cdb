import PeerdWire

/// `permissions`: the state directory (it holds the identity key) and the control socket are the
/// daemon's user's alone.
extension Doctor {
    func permissionsCheck(_ status: StatusRecord) -> DoctorCheck {
        let files = local.files
        var owner = files.uid
        if case .found(_, let socketOwner)? = files.socket?.entry { owner = socketOwner }
        var problems: [(what: String, fix: String)] = []
        var unread: [String] = []
        func look(
            _ file: (path: String, entry: FileFacts.Entry)?,
            _ rule: (UInt32) -> Bool,
            wanted: String,
            owners: Set<UInt32>
        ) {
            guard let file else { return }
            switch file.entry {
            case .unreadable(let why): unread.append("\(file.path) (\(why))")
            case .found(let mode, let fileOwner):
                if !rule(mode) {
                    problems.append(("\(file.path) is mode \(Self.octal(mode))", "chmod \(wanted) \(file.path)"))
                }
                if !owners.contains(fileOwner) {
                    problems.append(
                        (
                            "\(file.path) belongs to uid \(fileOwner), not peerd's (uid \(owner))",
                            "sudo chown \(owner) \(file.path)"
                        )
                    )
                }
            }
        }
        look(files.stateDir, { $0 & 0o077 == 0 }, wanted: "700", owners: [owner])
        look(files.socket, { $0 & 0o077 == 0 }, wanted: "600", owners: [owner])
        // The default socket's directory is the daemon's to keep private. One given with --socket
        // (/tmp, say) only must not let others replace the socket: owned by peerd's user or root,
        // writable by no one else unless sticky. The daemon checks each caller's uid anyway.
        if files.socketIsDefault {
            look(files.socketDir, { $0 & 0o077 == 0 }, wanted: "700", owners: [owner])
        } else {
            look(files.socketDir, { $0 & 0o022 == 0 || $0 & 0o1000 != 0 }, wanted: "755", owners: [owner, 0])
        }
        guard problems.isEmpty else {
            return .fail(
                .permissions,
                problems.map(\.what).joined(separator: "; "),
                cause: "other users of this machine could read peerd's identity key and list, or reach or "
                    + "replace its control socket",
                fix: problems.map(\.fix).joined(separator: "; ")
            )
        }
        guard unread.isEmpty else {
            return .skip(.permissions, "couldn't look at \(unread.joined(separator: ", "))")
        }
        return .pass(
            .permissions,
            "\(status.stateDir) is private (0700) and the socket \(status.socket) is 0600 in a directory only its "
                + "owner can change"
        )
    }

    /// `0755`.
    static func octal(_ mode: UInt32) -> String {
        let digits = String(mode & 0o7777, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
