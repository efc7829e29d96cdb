package import Logging
package import PeerdModel
import PeerdWire
import SystemPackage

#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
import Foundation
#endif

/// peerd's optional config file: one JSON object whose keys mirror the flags, all optional.
///
/// ```json
/// {"name": "den", "port": 7601, "listenAddress": "::", "stateDir": "/srv/peerd", "socket": "/run/p.sock",
///  "mdns": true, "peers": ["192.168.1.20:7601"], "logLevel": "info",
///  "tmdbTokenFile": "/home/ada/.config/peerd/tmdb.token", "tmdbUrl": "https://api.themoviedb.org", "tmdbLanguage": "en-US",
///  "web": true, "webAddress": ["127.0.0.1", "::1"], "webPort": 7602,
///  "guests": true, "guestAddress": "192.168.1.20", "guestPort": 7603}
/// ```
///
/// Flags override the file; `peers` adds to `--peer`. An unknown key is an error rather than
/// silently ignored, so a typo does not go unnoticed. On SIGHUP `logLevel` and new `peers` apply
/// at once; the rest waits for the next start.
package struct ConfigFile: Equatable, Sendable {
    package var name: String?
    package var port: Int?
    package var listenAddress: String?
    package var stateDir: String?
    package var socket: String?
    package var mdns: Bool?
    package var peers: [PeerAddress] = []
    package var logLevel: Logger.Level?
    package var tmdbTokenFile: String?
    package var tmdbURL: String?
    package var tmdbLanguage: String?
    package var web: Bool?
    /// `webAddress`: one address, or a list of them.
    package var webAddresses: [String]?
    package var webPort: Int?
    package var guests: Bool?
    package var guestAddress: String?
    package var guestPort: Int?

    package init() {}

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
    package static func load(given: String?, environment: [String: String]) throws(ConfigFileError) -> ConfigFile {
        guard let path = path(given: given, environment: environment) else { return ConfigFile() }
        guard let file = try load(path: path) else {
            if given != nil { throw .unreadable(path: path, reason: "no such file") }
            return ConfigFile()
        }
        return file
    }

    /// Reads and checks the file at `path`; nil when there is none.
    package static func load(path: String) throws(ConfigFileError) -> ConfigFile? {
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
    package static func parse(_ bytes: Data) throws(ConfigFileError.Problem) -> ConfigFile {
        do {
            return try JSONDecoder().decode(ConfigFile.self, from: bytes)
        } catch let problem as ConfigFileError.Problem {
            throw problem
        } catch let error as DecodingError {
            throw ConfigFileError.Problem(error)
        } catch {
            throw ConfigFileError.Problem(reason: "\(error)")
        }
    }
}

extension ConfigFile: Decodable {
    /// The file's keys, as it spells them.
    package enum Key: String, CodingKey, CaseIterable, Sendable {
        case name, port, listenAddress, stateDir, socket, mdns, peers, logLevel, tmdbTokenFile
        case tmdbURL = "tmdbUrl"
        case tmdbLanguage, web
        case webAddresses = "webAddress"
        case webPort, guests, guestAddress, guestPort
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    package init(from decoder: any Decoder) throws {
        for key in try decoder.container(keyedBy: AnyKey.self).allKeys where Key(rawValue: key.stringValue) == nil {
            let known = Key.allCases.map(\.rawValue).joined(separator: ", ")
            throw ConfigFileError.Problem(reason: "unknown key '\(key.stringValue)'; the keys are \(known)")
        }
        let container = try decoder.container(keyedBy: Key.self)
        name = try container.decodeIfPresent(String.self, forKey: .name)
        if let name, name.isEmpty || name.count > 64 {
            throw ConfigFileError.Problem(reason: "name must be 1 to 64 characters")
        }
        port = try container.decodeIfPresent(Int.self, forKey: .port)
        if let port, !(0...65535).contains(port) {
            throw ConfigFileError.Problem(reason: "port must be between 0 and 65535")
        }
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
    }
}

extension ConfigFile {
    /// `web`, `webAddress` (a string or a list of strings) and `webPort`; `guests`, `guestAddress`
    /// and `guestPort`.
    private mutating func decodeWeb(_ container: KeyedDecodingContainer<Key>) throws {
        web = try container.decodeIfPresent(Bool.self, forKey: .web)
        if let one = try? container.decodeIfPresent(String.self, forKey: .webAddresses) {
            webAddresses = [one]
        } else {
            webAddresses = try container.decodeIfPresent([String].self, forKey: .webAddresses)
        }
        if let webAddresses, webAddresses.isEmpty || webAddresses.contains(where: \.isEmpty) {
            throw ConfigFileError.Problem(reason: "webAddress must name at least one address, none empty")
        }
        webPort = try container.decodeIfPresent(Int.self, forKey: .webPort)
        if let webPort, !(0...65535).contains(webPort) {
            throw ConfigFileError.Problem(reason: "webPort must be between 0 and 65535")
        }
        guests = try container.decodeIfPresent(Bool.self, forKey: .guests)
        guestAddress = try container.decodeIfPresent(String.self, forKey: .guestAddress)
        if guestAddress?.isEmpty == true { throw ConfigFileError.Problem(reason: "guestAddress must not be empty") }
        guestPort = try container.decodeIfPresent(Int.self, forKey: .guestPort)
        if let guestPort, !(0...65535).contains(guestPort) {
            throw ConfigFileError.Problem(reason: "guestPort must be between 0 and 65535")
        }
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
