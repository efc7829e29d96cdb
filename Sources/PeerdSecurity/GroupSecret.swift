package import Crypto
import PeerdStore
package import SystemPackage

/// The shared secret of `--group-secret-file`, as the key its proofs are made with.
package enum GroupSecret {
    package static let minimumLength = 16

    /// Reads `path`: at least 16 bytes (surrounding whitespace ignored), not readable by others.
    package static func load(_ path: FilePath) throws(GroupSecretError) -> SymmetricKey {
        key(try secret(in: path))
    }

    /// The secret's bytes in `path`: at least 16 (surrounding whitespace ignored), not readable by others.
    package static func secret(in path: FilePath) throws(GroupSecretError) -> [UInt8] {
        let bytes: [UInt8]
        do {
            guard let read = try AtomicFile.read(path) else { throw GroupSecretError.missing(path) }
            bytes = read
        } catch let error as GroupSecretError {
            throw error
        } catch {
            throw .unreadable(path, "\(error)")
        }
        if let status = try? path.stat(),
            !status.permissions.isDisjoint(with: [.groupReadWriteExecute, .otherReadWriteExecute])
        {
            throw .readableByOthers(path, String(status.permissions.rawValue, radix: 8))
        }
        let whitespace: Set<UInt8> = [0x20, 0x09, 0x0a, 0x0d]
        let trimmed = Array(
            bytes.drop { whitespace.contains($0) }.reversed().drop { whitespace.contains($0) }.reversed()
        )
        guard trimmed.count >= minimumLength else { throw .tooShort(path, trimmed.count) }
        return trimmed
    }

    /// The secret's fingerprint, as a `member` secret record names it (proto/SECURITY.md, "Group
    /// secret"): the first 16 bytes of HKDF-SHA256(ikm: the secret, salt: "peerd group v1", info:
    /// "fingerprint"), as 32 lowercase hex digits. One-way: it names the secret without giving it away.
    package static func fingerprint(of secret: [UInt8]) -> String {
        let derived = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: secret),
            salt: Array("peerd group v1".utf8),
            info: Array("fingerprint".utf8),
            outputByteCount: 16
        )
        return derived.withUnsafeBytes { bytes in bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() }
    }

    /// The key a secret's bytes give.
    package static func key(_ secret: [UInt8]) -> SymmetricKey {
        AdmissionMAC.key(secret: secret, salt: "peerd group v1")
    }
}

package enum GroupSecretError: Error, CustomStringConvertible {
    case missing(FilePath)
    case unreadable(FilePath, String)
    case readableByOthers(FilePath, String)
    case tooShort(FilePath, Int)

    package var description: String {
        switch self {
        case .missing(let path): "group secret file \(path) does not exist"
        case .unreadable(let path, let reason): "cannot read group secret file \(path): \(reason)"
        case .readableByOthers(let path, let mode):
            "group secret file \(path) has mode \(mode): others can read it. Run: chmod 600 \(path)"
        case .tooShort(let path, let count):
            "group secret file \(path) holds \(count) bytes; it needs at least \(GroupSecret.minimumLength). "
                + "Make one with: head -c 32 /dev/urandom | base64 > \(path)"
        }
    }
}
