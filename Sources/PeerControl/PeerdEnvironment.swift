#if canImport(Glibc)
import Glibc
#endif

/// Defaults that come from the environment (the control socket, the host name), shared by peerd
/// and peerctl so both agree on where the control socket is. The state directory's default lives
/// with the store (`StateDirectory.defaultPath`).
package struct PeerdEnvironment: Sendable {
    package var variables: [String: String]

    package init(variables: [String: String]) {
        self.variables = variables
    }

    package static var current: PeerdEnvironment {
        var variables: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let pair = String(cString: pointer)
            if let equals = pair.firstIndex(of: "=") {
                variables[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
            }
            entry += 1
        }
        return PeerdEnvironment(variables: variables)
    }

    /// `$PEERD_SOCKET`, else `$XDG_RUNTIME_DIR/peerd/control.sock`, else `/tmp/peerd-<uid>/control.sock`.
    package var defaultSocketPath: String {
        socketVariable ?? runtimeSocketPath
    }

    /// `$PEERD_SOCKET`, when set and not empty.
    package var socketVariable: String? {
        variables["PEERD_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `$XDG_RUNTIME_DIR/peerd/control.sock`, else `/tmp/peerd-<uid>/control.sock`.
    package var runtimeSocketPath: String {
        if let runtime = variables["XDG_RUNTIME_DIR"], !runtime.isEmpty { return runtime + "/peerd/control.sock" }
        return "/tmp/peerd-\(getuid())/control.sock"
    }

    package var hostName: String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return "peerd" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? "peerd" : String(name.prefix(64))
    }
}
