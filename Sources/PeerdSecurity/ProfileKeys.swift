package import Crypto
package import PeerdModel
package import PeerdStore
package import SystemPackage

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The keys of the profiles that live on this machine (proto/PEER.md, "Profiles"): members without
/// a machine of their own, for whom this daemon signs. A profile's key never leaves this file; its
/// fingerprint is the profile's peer id, as a machine's is.
///
/// ```
/// <state-dir>/profiles.json   [{"name":"sam","key":"-----BEGIN PRIVATE KEY-----…"}], mode 0600
/// ```
///
/// Replaced whole (``AtomicFile``) at each new profile. A key is written before the profile's
/// admission is, so an admitted profile always has its key here.
package struct ProfileKeys: Sendable {
    package struct Profile: Sendable {
        /// The name it was made with; the group knows it by its admission's name.
        package var name: String
        package var identity: PeerIdentity
    }

    private struct Entry: Codable {
        var name: String
        var key: String
    }

    package let path: FilePath
    package private(set) var profiles: [Profile] = []

    /// The profiles saved in `directory`, none when there is no file yet.
    package static func load(in directory: FilePath) throws(IdentityError) -> ProfileKeys {
        var keys = ProfileKeys(path: directory.appending("profiles.json"))
        let bytes: [UInt8]?
        do {
            bytes = try AtomicFile.read(keys.path)
        } catch {
            throw .store(error)
        }
        guard let bytes else { return keys }
        do {
            for entry in try JSONDecoder().decode([Entry].self, from: Data(bytes)) {
                let key = try P256.Signing.PrivateKey(pemRepresentation: entry.key)
                keys.profiles.append(Profile(name: entry.name, identity: try PeerIdentity.signing(with: key)))
            }
        } catch {
            throw .unreadableKey(keys.path, "\(error)")
        }
        return keys
    }

    /// The profile named `name` (exactly), if one lives here.
    package func profile(named name: String) -> Profile? { profiles.first { $0.name == name } }

    /// Makes a new key for a profile named `name` and saves it with the others, durably.
    package mutating func add(named name: String) throws(IdentityError) -> Profile {
        let profile: Profile
        do {
            profile = Profile(name: name, identity: try PeerIdentity.signing(with: P256.Signing.PrivateKey()))
        } catch {
            throw .certificate("\(error)")
        }
        let entries = (profiles + [profile]).map { Entry(name: $0.name, key: $0.identity.privateKeyPEM) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            try AtomicFile.write(Array(try encoder.encode(entries)) + Array("\n".utf8), to: path)
        } catch let error as StoreError {
            throw .store(error)
        } catch {
            throw .certificate("\(error)")
        }
        profiles.append(profile)
        return profile
    }
}

extension PeerIdentity {
    /// An identity for `key` that signs operations; its certificate is made but never presented
    /// (a profile holds no sessions of its own).
    package static func signing(with key: P256.Signing.PrivateKey) throws -> PeerIdentity {
        PeerIdentity(privateKey: key, certificateDER: try makeCertificate(for: key, name: "peerd profile"))
    }
}
