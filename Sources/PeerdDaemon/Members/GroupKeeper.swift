import Crypto
import Logging
import PeerdModel
import PeerdSecurity
import PeerdWire
import ServiceLifecycle

/// Keeps admission in step with the group's log (proto/PEER.md, "Membership"): after every change
/// of members it hands trust the new view and closes the sessions of keys just removed; it records
/// in the log the admissions this daemon makes and, once, the group secret it runs with.
struct GroupKeeper: Service {
    let replica: ReplicaService
    let trust: TrustService
    let directory: PeerDirectory
    let me: PeerID
    /// The fingerprint of the group key this daemon was started with, if any.
    let secret: String?
    let logger: Logger

    init(replica: ReplicaService, trust: TrustService, directory: PeerDirectory, groupKey: SymmetricKey?, logger: Logger)
    {
        self.replica = replica
        self.trust = trust
        self.directory = directory
        me = trust.local
        secret = groupKey.map(GroupSecret.fingerprint(of:))
        self.logger = logger
    }

    func run() async throws {
        let changes = await replica.membershipChanges()
        let notes = await trust.admissionNotes()
        let start = await replica.snapshot.membership
        var removed = await apply(start, removedBefore: [])
        await recordSecret(in: start)
        await withDiscardingTaskGroup { group in
            group.addTask {
                for await note in notes.cancelOnGracefulShutdown() { await record(note) }
            }
            for await membership in changes.cancelOnGracefulShutdown() {
                removed = await apply(membership, removedBefore: removed)
            }
            group.cancelAll()
        }
    }

    /// Hands trust the view `membership` gives and closes the sessions of every key removed since
    /// `before`; returns the keys removed now.
    private func apply(_ membership: Membership, removedBefore before: Set<PeerID>) async -> Set<PeerID> {
        let view = GroupView(membership, me: me, secret: secret)
        await trust.update(view)
        for (peer, removal) in view.removed where !before.contains(peer) && peer != me {
            let words = Membership.removedWords(by: removal.inviter ?? "a member", at: removal.at)
            logger.notice("a member was removed from the group", metadata: ["peer": "\(peer)", "how": "\(words)"])
            await directory.disconnect(peer, WireError(.removed, words))
        }
        if let words = view.selfRemoval, !before.contains(me) {
            logger.warning("this peerd was removed from the group", metadata: ["how": "\(words)"])
        }
        if secret != nil, !view.secretAdmits, !view.removed.isEmpty {
            logger.warning("\(GroupKeeper.secretClosed)")
        }
        return Set(view.removed.keys)
    }

    /// What `members` and the log say when this daemon's group secret admits nobody new any more.
    static let secretClosed =
        "the group secret admits no new member since a member was removed: give every member a new secret "
        + "file (head -c 32 /dev/urandom | base64 > FILE) and restart them with it"

    /// Records an admission this daemon made, unless the log has one of that key already.
    private func record(_ note: AdmissionNote) async {
        guard await replica.snapshot.membership.admission(of: note.peer) == nil else { return }
        await write(.admit(note.peer, via: note.via, name: note.name), what: "admission")
    }

    /// Records the group secret this daemon runs with, once: after a removal, only a secret first
    /// recorded after it admits anyone (``Membership/secretAdmits(_:)``).
    private func recordSecret(in membership: Membership) async {
        guard let secret, !membership.recorded(secret: secret), membership.removal(of: me) == nil else { return }
        await write(.secret(secret), what: "group secret")
    }

    private func write(_ step: MemberStep, what: String) async {
        do {
            _ = try await replica.write([.member(step)], at: Wallclock.millis())
        } catch {
            logger.warning("could not record an \(what) in the group's log", metadata: ["error": "\(error)"])
        }
    }
}
