package import Foundation

/// One finished run of the real `peerctl` binary.
package struct PeerctlRun: CustomStringConvertible {
    package var status: Int32
    package var stdout: String
    package var stderr: String

    package var description: String { "exit \(status)\nstdout: \(stdout)\nstderr: \(stderr)" }

    /// Runs `peerctl` (or `executable`, which runs it) with `arguments` and waits for it.
    package static func run(
        _ arguments: [String],
        environment: [String: String] = [:],
        executable: URL = Binaries.peerctl
    ) throws -> PeerctlRun {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { $1 }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return PeerctlRun(
            status: process.terminationStatus,
            stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self)
        )
    }

    /// The stdout decoded as JSON of type `T`.
    package func json<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(stdout.utf8))
    }
}
