#if canImport(Glibc)
import Glibc
#endif

/// Runs a program and collects what it prints, for the facts doctor reads (`nft`, `iptables-save`,
/// `systemctl`). posix_spawn rather than Foundation's Process, which peerctl does not otherwise link.
enum Subprocess {
    struct Finished {
        var status: Int32
        var output: [UInt8]
        var errors: String

        var succeeded: Bool { status == 0 }
        /// The first line of what it printed on stderr.
        var complaint: String { String(errors.split(separator: "\n").first ?? "exit status \(status)") }
    }

    /// Where programs are looked for: PATH, then the sbin directories a user's PATH often lacks.
    static func find(_ program: String) -> String? {
        let path = getenv("PATH").map { String(cString: $0) } ?? ""
        let directories = path.split(separator: ":").map(String.init) + ["/usr/sbin", "/sbin", "/usr/bin", "/bin"]
        return directories.map { $0 + "/" + program }.first { access($0, X_OK) == 0 }
    }

    /// Runs `executable` with `arguments`; killed after `limit` seconds. Nil when it couldn't start.
    static func run(_ executable: String, _ arguments: [String], limit: Int32 = 10) -> Finished? {
        var out: [Int32] = [0, 0]
        var err: [Int32] = [0, 0]
        guard pipe(&out) == 0, pipe(&err) == 0 else { return nil }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, out[1], 1)
        posix_spawn_file_actions_adddup2(&actions, err[1], 2)
        for fd in out + err { posix_spawn_file_actions_addclose(&actions, fd) }
        var argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, executable, &actions, nil, &argv, environ)
        close(out[1])
        close(err[1])
        defer {
            close(out[0])
            close(err[0])
        }
        guard spawned == 0 else { return nil }
        let (output, errors, timedOut) = collect(out[0], err[0], limit: limit)
        if timedOut { kill(pid, SIGKILL) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let code = timedOut ? 124 : (status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f))
        return Finished(status: code, output: output, errors: String(decoding: errors, as: UTF8.self))
    }

    /// Reads both pipes until they close, or until `limit` seconds have passed.
    private static func collect(_ out: Int32, _ err: Int32, limit: Int32) -> ([UInt8], [UInt8], Bool) {
        var output: [UInt8] = []
        var errors: [UInt8] = []
        var fds = [
            pollfd(fd: out, events: Int16(POLLIN), revents: 0), pollfd(fd: err, events: Int16(POLLIN), revents: 0),
        ]
        let deadline = time(nil) + time_t(limit)
        var buffer = [UInt8](repeating: 0, count: 65536)
        while fds.contains(where: { $0.fd >= 0 }) {
            let left = Int32(max(0, deadline - time(nil)))
            guard left > 0 else { return (output, errors, true) }
            let ready = poll(&fds, nfds_t(fds.count), left * 1000)
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { return (output, errors, ready == 0) }
            for index in fds.indices where fds[index].fd >= 0 && fds[index].revents != 0 {
                let n = buffer.withUnsafeMutableBytes { read(fds[index].fd, $0.baseAddress, $0.count) }
                if n > 0 {
                    if index == 0 { output += buffer[..<n] } else { errors += buffer[..<n] }
                } else if n == 0 || errno != EINTR {
                    fds[index].fd = -1
                }
            }
        }
        return (output, errors, false)
    }
}
