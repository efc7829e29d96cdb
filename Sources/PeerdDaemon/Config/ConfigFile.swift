package import Logging
package import PeerdModel
import PeerdWire
import SystemPackage

#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
import Foundation
#endif

/// peerd's optional config file: one JSON object whose keys mirror the flags, all optional, read
/// as ``DaemonSettings``.
///
/// ```json
/// {"name": "den", "port": 7601, "listenAddress": "::", "stateDir": "/srv/peerd", "socket": "/run/p.sock",
///  "mdns": true, "peers": ["192.168.1.20:7601"], "logLevel": "info",
///  "tmdbTokenFile": "/home/ada/.config/peerd/tmdb.token", "tmdbUrl": "https://api.themoviedb.org", "tmdbLanguage": "en-US",
///  "web": true, "webAddress": ["127.0.0.1", "::1"], "webPort": 7602,
///  "guests": true, "guestAddress": "192.168.1.20", "guestPort": 7603,
///  "devices": true, "deviceAddress": "192.168.1.20", "devicePort": 7604}
/// ```
///
/// Flags override the file; `peers` adds to `--peer`. An unknown key is an error rather than
/// silently ignored, so a typo does not go unnoticed. On SIGHUP `logLevel` and new `peers` apply
/// at once; the rest waits for the next start.
package enum ConfigFile {
    /// `$XDG_CONFIG_HOME/peerd/config.json`, else `~/.config/peerd/config.json`; nil without a home.
    package static func defaultPath(environment: [String: String]) -> String? {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return config + "/peerd/config.json" }
        if let home = environment["HOME"], !home.isEmpty { return home + "/.config/peerd/config.json" }
        return nil
    }

    /// `--config` when given, else ``defaultPath(environment:)``.
    package static func path(given: String?, environment: [String: String]) -> String? {
        given ?? defaultPath(environment: environment)
    }

    /// The file `--config` names, which must exist; without it the default file, read as empty
    /// when there is none.
    package static func load(given: String?, environment: [String: String]) throws(ConfigFileError) -> DaemonSettings {
        guard let path = path(given: given, environment: environment) else { return DaemonSettings() }
        guard let file = try load(path: path) else {
            if given != nil { throw .unreadable(path: path, reason: "no such file") }
            return DaemonSettings()
        }
        return file
    }

    /// Reads and checks the file at `path`; nil when there is none.
    package static func load(path: String) throws(ConfigFileError) -> DaemonSettings? {
        do throws(Errno) {
            _ = try FilePath(path).stat()
        } catch {
            if error == .noSuchFileOrDirectory || error == .notDirectory { return nil }
            throw .unreadable(path: path, reason: error.description)
        }
        let bytes: Data
        do {
            bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .unreadable(path: path, reason: "\(error)")
        }
        do {
            return try parse(bytes)
        } catch {
            throw .invalid(path: path, reason: error.reason)
        }
    }

    /// Decodes and checks a config file's contents.
    package static func parse(_ bytes: Data) throws(ConfigFileError.Problem) -> DaemonSettings {
        do {
            return try JSONDecoder().decode(DaemonSettings.self, from: bytes)
        } catch let problem as ConfigFileError.Problem {
            throw problem
        } catch let error as DecodingError {
            throw ConfigFileError.Problem(error)
        } catch {
            throw ConfigFileError.Problem(reason: "\(error)")
        }
    }
}

extension DaemonSettings: Decodable {
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// The config file's form: its keys as ``Key`` spells them, checked by ``problem(naming:)``.
    package init(from decoder: any Decoder) throws {
        self.init()
        for key in try decoder.container(keyedBy: AnyKey.self).allKeys where Key(rawValue: key.stringValue) == nil {
            let known = Key.allCases.map(\.rawValue).joined(separator: ", ")
            throw ConfigFileError.Problem(reason: "unknown key '\(key.stringValue)'; the keys are \(known)")
        }
        let container = try decoder.container(keyedBy: Key.self)
        name = try container.decodeIfPresent(String.self, forKey: .name)
        port = try container.decodeIfPresent(Int.self, forKey: .port)
        listenAddress = try container.decodeIfPresent(String.self, forKey: .listenAddress)
        stateDir = try container.decodeIfPresent(String.self, forKey: .stateDir)
        socket = try container.decodeIfPresent(String.self, forKey: .socket)
        mdns = try container.decodeIfPresent(Bool.self, forKey: .mdns)
        peers = try (container.decodeIfPresent([String].self, forKey: .peers) ?? []).map { text in
            guard let address = PeerAddress(text) else {
                throw ConfigFileError.Problem(reason: "peer '\(text)' is not host:port (e.g. 192.168.1.20:7601)")
            }
            return address
        }
        tmdbTokenFile = try container.decodeIfPresent(String.self, forKey: .tmdbTokenFile)
        tmdbURL = try container.decodeIfPresent(String.self, forKey: .tmdbURL)
        tmdbLanguage = try container.decodeIfPresent(String.self, forKey: .tmdbLanguage)
        try decodeWeb(container)
        if let level = try container.decodeIfPresent(String.self, forKey: .logLevel) {
            guard let parsed = Logger.Level(rawValue: level) else {
                let levels = Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")
                throw ConfigFileError.Problem(reason: "logLevel '\(level)' is not one of \(levels)")
            }
            logLevel = parsed
        }
        if let problem = problem(naming: \.rawValue) { throw ConfigFileError.Problem(reason: problem) }
    }

    /// `web`, `webAddress` (a string or a list of strings) and `webPort`; `guests`, `guestAddress`
    /// and `guestPort`; `devices`, `deviceAddress` and `devicePort`.
    private mutating func decodeWeb(_ container: KeyedDecodingContainer<Key>) throws {
        web = try container.decodeIfPresent(Bool.self, forKey: .web)
        if let one = try? container.decodeIfPresent(String.self, forKey: .webAddresses) {
            webAddresses = [one]
        } else {
            webAddresses = try container.decodeIfPresent([String].self, forKey: .webAddresses)
        }
        webPort = try container.decodeIfPresent(Int.self, forKey: .webPort)
        guests = try container.decodeIfPresent(Bool.self, forKey: .guests)
        guestAddress = try container.decodeIfPresent(String.self, forKey: .guestAddress)
        guestPort = try container.decodeIfPresent(Int.self, forKey: .guestPort)
        devices = try container.decodeIfPresent(Bool.self, forKey: .devices)
        deviceAddress = try container.decodeIfPresent(String.self, forKey: .deviceAddress)
        devicePort = try container.decodeIfPresent(Int.self, forKey: .devicePort)
        newsInterval = try container.decodeIfPresent(String.self, forKey: .newsInterval)
        notifications = try container.decodeIfPresent(Bool.self, forKey: .notifications)
    }
}

/// Why a config file was not used; the message names the file and what to fix.
package enum ConfigFileError: Error, Equatable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case invalid(path: String, reason: String)

    /// What is wrong with a file's contents.
    package struct Problem: Error, Equatable {
        package var reason: String

        init(reason: String) { self.reason = reason }

        init(_ error: DecodingError) {
            switch error {
            case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
                let key = context.codingPath.map(\.stringValue).filter { Int($0) == nil }.last
                let wanted =
                    switch type {
                    case is Int.Type: "a whole number"
                    case is Bool.Type: "true or false"
                    case is [Any].Type, is [String].Type: "a list of strings"
                    case is String.Type: "a string"
                    default: "an object"
                    }
                reason = key.map { "\($0) must be \(wanted)" } ?? "the file must hold one JSON object"
            case .dataCorrupted(let context):
                let detail = (context.underlyingError as? any CustomStringConvertible)?.description
                reason = "not valid JSON" + (detail.map { ": \($0)" } ?? "")
            default:
                reason = "\(error)"
            }
        }
    }

    package var description: String {
        switch self {
        case .unreadable(let path, let reason): "cannot read config file \(path): \(reason)"
        case .invalid(let path, let reason): "config file \(path) is not valid: \(reason); fix or remove it"
        }
    }
}
