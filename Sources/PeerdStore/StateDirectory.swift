package import Logging
import PeerdModel
package import SystemPackage

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The daemon's state directory, locked for as long as this value lives.
///
/// ```
/// <state-dir>/            mode 0700
///     lock                flock(LOCK_EX) held by the running peerd
///     format              "peerd-state 1": see StateFormat; a newer format is refused untouched
///     identity.key        the identity key (PeerdSecurity.PeerIdentity), mode 0600
///     identity.crt        its self-signed TLS certificate
///     trust.json          the peers this one trusts and has revoked (PeerdSecurity.TrustList)
///     peers.json          ["host:port", …]: static peers added with `peerctl connect`
///     profiles.json       the keys of the profiles that live here (PeerdSecurity.ProfileKeys), mode 0600
///     operations.log      see OperationLog
///     imports/            one journal per import, by the file's SHA-256 (ImportJournal)
///     lists/<id>/operations.log   each other list this machine holds (proto/PEER.md, "Lists")
/// ```
///
/// Opening takes an exclusive `flock` on `lock`, so two daemons never share a log; the lock is
/// released when the value is deinitialized (or the process exits).
///
/// `Sendable` without `@unchecked`: every stored property is an immutable `Sendable` value, and
/// `peers.json` is only ever replaced whole, by rename.
package final class StateDirectory: Sendable {
    /// The directory itself.
    package let path: FilePath
    /// The open `lock` file; closing it releases the lock.
    private let lockDescriptor: FileDescriptor

    /// Where the operation log lives: `<state-dir>/operations.log`.
    package var logPath: FilePath { path.appending("operations.log") }
    /// `<state-dir>/lists`: a directory per list other than the group's that this machine holds.
    package var listsPath: FilePath { path.appending("lists") }

    /// The log of list `id`, `<state-dir>/lists/<id>/operations.log`, its directory made (0700) if
    /// missing.
    package func logPath(ofList id: String, logger: Logger) throws(StoreError) -> FilePath {
        let directory = listsPath.appending(id)
        try Self.makeDirectories(directory, logger: logger)
        return directory.appending("operations.log")
    }

    /// `<state-dir>/trust.json`.
    package var trustPath: FilePath { path.appending("trust.json") }
    /// The fingerprint of the group secret this daemon last ran with (proto/SECURITY.md, "Group secret").
    package var secretFingerprintPath: FilePath { Self.secretFingerprint(in: path) }

    package static func secretFingerprint(in path: FilePath) -> FilePath { path.appending("group-secret.fingerprint") }
    /// `<state-dir>/peers.json`.
    package var peersPath: FilePath { path.appending("peers.json") }

    /// The default state directory: `$XDG_STATE_HOME/peerd`, else `$HOME/.local/state/peerd`.
    /// A relative `XDG_STATE_HOME` is ignored, as the XDG Base Directory spec requires.
    package static func defaultPath(environment: [String: String]) throws(StoreError) -> FilePath {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return FilePath(state).appending("peerd")
        }
        if let home = environment["HOME"], !home.isEmpty {
            return FilePath(home).appending(".local/state/peerd")
        }
        throw .noStateDirectory
    }

    /// Creates the directory (and missing parents) with mode 0700 and locks it.
    ///
    /// - Throws: `StoreError.locked` if another process holds the lock; `.newerFormat` if a newer
    ///   peerd wrote it (see ``StateFormat``); `.cannotAccess` if the
    ///   directory cannot be made or used.
    package init(at path: FilePath, logger: Logger) throws(StoreError) {
        try Self.makeDirectories(path, logger: logger)
        let lockPath = path.appending("lock")
        let lock = try FileDescriptor.openOrCreate(lockPath)
        let locked: Bool
        do throws(Errno) {
            locked = try lock.tryLockExclusively()
        } catch {
            try? lock.close()
            throw .cannotAccess(lockPath, error)
        }
        guard locked else {
            try? lock.close()
            throw .locked(path)
        }
        do throws(StoreError) {
            try StateFormat.check(path)
        } catch {
            try? lock.close()
            throw error
        }
        self.path = path
        self.lockDescriptor = lock
    }

    deinit {
        try? lockDescriptor.close()
    }

    /// The static peers saved with ``savePeers(_:)``, in order; empty if there are none yet.
    package func loadPeers() throws(StoreError) -> [String] {
        guard let bytes = try AtomicFile.read(peersPath) else { return [] }
        do {
            return try JSONDecoder().decode([String].self, from: Data(bytes))
        } catch {
            throw .corruptFile(peersPath, reason: "it is not a JSON array of \"host:port\" strings")
        }
    }

    /// Replaces the saved static peers with `addresses` ("host:port"), atomically and durably.
    package func savePeers(_ addresses: [String]) throws(StoreError) {
        try AtomicFile.write(Self.json(addresses), to: peersPath)
    }

    /// `mkdir -p` with mode 0700 for every directory it makes. An existing directory keeps its
    /// mode; a warning says so if others can read it.
    private static func makeDirectories(_ path: FilePath, logger: Logger) throws(StoreError) {
        var current = FilePath(root: path.root)
        for component in path.components {
            current.append(component)
            let made = current.withPlatformString { mkdir($0, 0o700) } == 0
            if made {
                // mkdir's mode passes through the umask; make it exactly 0700.
                _ = current.withPlatformString { chmod($0, 0o700) }
                continue
            }
            let error = Errno(rawValue: errno)
            guard error == .fileExists else { throw .cannotAccess(current, error) }
        }
        let status: Stat
        do throws(Errno) {
            status = try path.stat()
        } catch {
            throw .cannotAccess(path, error)
        }
        guard status.type == .directory else { throw .cannotAccess(path, .notDirectory) }
        if !status.permissions.isDisjoint(with: [.groupReadWriteExecute, .otherReadWriteExecute]) {
            logger.warning(
                "state directory is open to other users; chmod 700 it",
                metadata: ["path": "\(path)", "mode": "\(String(status.permissions.rawValue, radix: 8))"]
            )
        }
    }

    private static func json(_ value: some Encodable) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // Encoding a [String] cannot fail.
        return Array(try! encoder.encode(value)) + Array("\n".utf8)
    }
}
