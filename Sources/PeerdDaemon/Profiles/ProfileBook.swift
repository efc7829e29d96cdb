import Logging
import PeerdModel
import PeerdSecurity
import PeerdWire

/// The profiles that live on this machine: their keys (``ProfileKeys``, in the state directory),
/// handed to the replica service to sign with, and who a request's `profile` names.
actor ProfileBook {
    private var keys: ProfileKeys
    private let replica: ReplicaService

    /// Hands every saved profile's key to `replica`, which signs with them from then on.
    init(keys: ProfileKeys, replica: ReplicaService) async {
        self.keys = keys
        self.replica = replica
        for profile in keys.profiles { await replica.addSigner(profile.identity) }
    }

    /// The profiles saved here, in the order they were made.
    var profiles: [ProfileKeys.Profile] { keys.profiles }

    /// Makes a key for a new profile named `name`, saves it and hands it to the replica service.
    /// The caller then records its admission in the group's log.
    func add(named name: String) async throws(IdentityError) -> PeerID {
        let profile = try keys.add(named: name)
        await replica.addSigner(profile.identity)
        return profile.identity.peer
    }

    /// The profile made with exactly this name.
    func named(_ name: String) -> ProfileKeys.Profile? { keys.profile(named: name) }

    /// The profile `words` names: its name, its id or the start of its id (8 digits or more).
    func profile(_ words: String) -> ProfileKeys.Profile? {
        if let named = keys.profile(named: words) { return named }
        let lowered = words.lowercased()
        guard lowered.count >= 8 else { return nil }
        let matches = keys.profiles.filter { $0.identity.peer.rawValue.hasPrefix(lowered) }
        return matches.count == 1 ? matches[0] : nil
    }
}
