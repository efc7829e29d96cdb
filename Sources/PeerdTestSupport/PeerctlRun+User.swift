import Foundation

extension PeerctlRun {
    /// The unprivileged user `nobody`.
    package static let nobody: UInt32 = 65534

    /// Runs the real `peerctl` as the user and group `uid`, with no supplementary groups (via
    /// setpriv; the caller must be root), and waits for it.
    package static func run(asUser uid: UInt32, _ arguments: [String]) throws -> PeerctlRun {
        let setpriv = ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", "--", Binaries.peerctl.path]
        return try run(setpriv + arguments, executable: URL(fileURLWithPath: "/usr/bin/setpriv"))
    }
}
