/// The peerd systemd user unit: whether its file is where systemd looks for user units, and what
/// `systemctl --user` says of it.
package enum SystemdUnitState: Hashable, Sendable {
    /// No peerd.service in any folder of the user unit search path, and no user manager knows one.
    case notInstalled
    /// Installed (its file at `path`, when found in the search path), but no user manager answered (why).
    case noManager(String, path: String? = nil)
    /// What the user manager says: ActiveState, SubState, Result and UnitFileState (`enabled`,
    /// `disabled`, …; empty when it doesn't say), and the unit's file.
    case state(active: String, sub: String, result: String, enabled: String = "", path: String? = nil)

    package static let unitName = "peerd.service"

    /// What `systemctl --user show` came to.
    package enum Show: Sendable {
        case noSystemctl
        /// It failed (no user manager: "Failed to connect to bus"), with what it said.
        case failed(String)
        /// Its output.
        case answered(String)
    }

    /// The properties `systemctl --user show peerd -p …` is asked for.
    package static let showProperties = "LoadState,ActiveState,SubState,Result,UnitFileState,FragmentPath"

    /// The folders systemd reads user units from, first to last (systemd.unit(5), "User Unit Search
    /// Path"), for `environment`'s HOME and XDG variables: where a person, `make install` or a
    /// package puts peerd.service.
    package static func userUnitDirectories(_ environment: [String: String]) -> [String] {
        let home = environment["HOME"] ?? "~"
        let set = { (name: String) -> String? in environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        let list = { (name: String, fallback: String) -> [String] in
            (set(name) ?? fallback).split(separator: ":").map { $0 + "/systemd/user" }
        }
        let configHome: String = set("XDG_CONFIG_HOME") ?? home + "/.config"
        let dataHome: String = set("XDG_DATA_HOME") ?? home + "/.local/share"
        var directories: [String] = [configHome + "/systemd/user"]
        directories += list("XDG_CONFIG_DIRS", "/etc/xdg")
        directories.append("/etc/systemd/user")
        if let runtime = set("XDG_RUNTIME_DIR") { directories.append(runtime + "/systemd/user") }
        directories += ["/run/systemd/user", dataHome + "/systemd/user"]
        directories += list("XDG_DATA_DIRS", "/usr/local/share:/usr/share")
        directories += ["/usr/local/lib/systemd/user", "/usr/lib/systemd/user", "/lib/systemd/user"]
        return directories
    }

    /// The unit's state from its file as found in the search path (nil: in none) and what
    /// `systemctl --user show` said.
    package static func read(installed: String?, show: Show) -> SystemdUnitState {
        switch show {
        case .noSystemctl: return installed.map { .noManager("systemctl is not installed", path: $0) } ?? .notInstalled
        case .failed(let why): return installed.map { .noManager(why, path: $0) } ?? .notInstalled
        case .answered(let text):
            guard let values = parse(text), let active = values["ActiveState"], let sub = values["SubState"] else {
                return installed.map { .noManager("systemctl --user show said: \(text)", path: $0) } ?? .notInstalled
            }
            let fragment = values["FragmentPath"].flatMap { $0.isEmpty ? nil : $0 }
            if values["LoadState"] == "not-found", installed == nil { return .notInstalled }
            return .state(
                active: active,
                sub: sub,
                result: values["Result"] ?? "",
                enabled: values["UnitFileState"] ?? "",
                path: fragment ?? installed
            )
        }
    }

    /// `NAME=value` lines; nil when there are none.
    private static func parse(_ text: String) -> [String: String]? {
        var values: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            values[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return values.isEmpty ? nil : values
    }
}
