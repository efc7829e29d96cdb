import Logging
import PeerdLoops
import PeerdModel
import PeerdSecurity
import PeerdStore
import PeerdWeb
import PeerdWire
import ServiceLifecycle
import SystemPackage

/// Keeps admission in step with the group's log (proto/PEER.md, "Membership"): after every change
/// of members it hands trust the new view and closes the sessions of keys just removed; it records
/// in the log the admissions this daemon makes, and a new group secret once one replaces a removed member's.
struct GroupKeeper: Service {
    let replica: ReplicaService
    let trust: TrustService
    let directory: PeerDirectory
    let me: PeerID
    /// The fingerprint of the group secret this daemon was started with, if any.
    let secret: String?
    /// Where the fingerprint of the secret this daemon last ran with is kept.
    let secretFile: FilePath
    /// Linked devices, unlinked once their member (or this machine) is removed; nil with `--no-devices`.
    let devices: DeviceLedger?
    let logger: Logger

    init(
        replica: ReplicaService,
        trust: TrustService,
        directory: PeerDirectory,
        secret: String?,
        secretFile: FilePath,
        devices: DeviceLedger? = nil,
        logger: Logger
    ) {
        self.replica = replica
        self.trust = trust
        self.directory = directory
        me = trust.local
        self.secret = secret
        self.secretFile = secretFile
        self.devices = devices
        self.logger = logger
    }

    func run() async throws {
        let changes = await replica.membershipChanges()
        let notes = await trust.admissionNotes()
        let told = await trust.toldRemovedChanges()
        let since = await secretSince()
        let start = await replica.groupSnapshot.membership
        var removed = await apply(start, removedBefore: [], secretSince: since)
        await withDiscardingTaskGroup { group in
            group.addTask {
                for await note in notes.cancelOnGracefulShutdown() { await record(note) }
            }
            group.addTask {
                // Told by a peer, not by the log: every device goes, as with a removal in the log.
                for await _ in told.cancelOnGracefulShutdown() {
                    await devices?.unlinkMembers(why: "this peerd was removed from the group") { _ in true }
                }
            }
            for await membership in changes.cancelOnGracefulShutdown() {
                removed = await apply(membership, removedBefore: removed, secretSince: since)
            }
            group.cancelAll()
        }
    }

    /// Hands trust the view `membership` gives and closes the sessions of every key removed since
    /// `before`; records a new group secret (``recordSecret(in:since:)``); returns the keys removed now.
    private func apply(_ membership: Membership, removedBefore before: Set<PeerID>, secretSince: Int64?) async
        -> Set<PeerID>
    {
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
        await unlinkDevices(membership, selfRemoved: view.selfRemoval != nil)
        if secret != nil, !view.secretAdmits, !view.removed.isEmpty,
            !(await recordSecret(in: membership, since: secretSince))
        {
            logger.warning("\(GroupKeeper.secretClosed)")
        }
        return Set(view.removed.keys)
    }

    /// Ends the access of every device whose member is out of the group, all of them once this
    /// machine is (proto/WEB.md, "Devices").
    private func unlinkDevices(_ membership: Membership, selfRemoved: Bool) async {
        guard let devices else { return }
        if selfRemoved {
            await devices.unlinkMembers(why: "this peerd was removed from the group") { _ in true }
        } else {
            await devices.unlinkMembers(why: "its member was removed from the group") { peer in
                peer.map { membership.removal(of: $0) != nil } ?? false
            }
        }
    }

    /// What `members` and the log say when this daemon's group secret admits nobody new any more.
    static let secretClosed =
        "the group secret admits no new member since a member was removed: give every member a new secret "
        + "file (head -c 32 /dev/urandom | base64 > FILE) and restart them with it"

    /// Records an admission this daemon made: once per pair for the group secret, by the one with
    /// the smaller id (both sides admit each other by it), so a group's log holds the same records
    /// however its members met; an invite's by its inviter; a pin by the one who pinned, unless
    /// the log has an admission of that key already.
    private func record(_ note: AdmissionNote) async {
        if note.via == .groupSecret {
            guard me < note.peer else { return }
        } else if await replica.groupSnapshot.membership.admission(of: note.peer) != nil {
            return
        }
        await write(.admit(note.peer, via: note.via, name: note.name), what: "admission")
    }

    /// After a removal the group secret admits nobody new until a member records a new one
    /// (``Membership/secretAdmits(_:)``). A member records the secret it runs with when it began to
    /// run with it after the newest removal was made: the group set a new secret. One that ran with
    /// it before records nothing, so the old secret never opens again. True when it recorded it.
    private func recordSecret(in membership: Membership, since: Int64?) async -> Bool {
        guard let secret, let since, let newest = membership.removals.last, since > newest.at,
            membership.removal(of: me) == nil
        else { return false }
        await write(.secret(secret), what: "group secret")
        return true
    }

    /// Since when this daemon runs with its group secret (ms since 1970): kept with the secret's
    /// fingerprint in the state directory, and now when the secret is another than last time.
    private func secretSince() async -> Int64? {
        guard let secret else { return nil }
        let path = secretFile
        let kept = (try? await BlockingPool.run { () throws(StoreError) in try AtomicFile.read(path) }) ?? nil
        let words = kept.map { String(decoding: $0, as: UTF8.self).split(whereSeparator: \.isWhitespace) } ?? []
        if words.count == 2, words[0] == secret, let since = Int64(words[1]) { return since }
        let now = Wallclock.millis()
        do {
            let bytes = Array("\(secret) \(now)\n".utf8)
            try await BlockingPool.run { () throws(StoreError) in try AtomicFile.write(bytes, to: path) }
        } catch {
            logger.warning("could not keep the group secret's fingerprint", metadata: ["error": "\(error)"])
        }
        return now
    }

    private func write(_ step: MemberStep, what: String) async {
        do {
            _ = try await replica.write([.member(step)], at: Wallclock.millis())
        } catch {
            logger.warning("could not record an \(what) in the group's log", metadata: ["error": "\(error)"])
        }
    }
}
