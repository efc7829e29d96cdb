import Crypto
import Logging
import PeerdLoops
import PeerdModel
import PeerdSecurity
import PeerdStore
import PeerdWire
import ServiceLifecycle
import SystemPackage

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The trust list (persisted in `trust.json`), the group key, open invites and pending joins: what
/// admission decides with, and what `invite`, `join`, `forget` and `trust` change.
actor TrustService {
    /// A code this daemon is joining with.
    struct Join {
        var key: SymmetricKey
        var expires: ContinuousClock.Instant
    }

    let local: PeerID
    private let path: FilePath
    private let groupKey: SymmetricKey?
    private let logger: Logger
    private var list: TrustList
    /// Made with this daemon's name (`--name`): a joiner with a spent code is told whom to ask.
    private var invites: InviteBook
    private var joins: [PeerID: Join] = [:]
    /// `join` requests waiting for their inviter, by inviter: told when it says hello, or refuses.
    private var pairings: [PeerID: Broadcast<JoinOutcome>] = [:]
    /// Rung whenever the trust list changes.
    private let listChanges = Broadcast<Void>(bufferingPolicy: .bufferingNewest(1))
    /// Rung whenever who may be dialed may have changed: the trust list, or a join's inviter.
    private let dialChanges = Broadcast<Void>(bufferingPolicy: .bufferingNewest(1))
    /// The group's membership as the log has it (``GroupKeeper`` keeps it current).
    private(set) var group = GroupView()
    /// Why this daemon is out of the group, as a peer told it in a refusal or an `error`, before
    /// (or without) its log holding the removal.
    private var toldRemoved: String?
    /// Keys this daemon let in, for the group's log (``GroupKeeper`` records them).
    private let admissions = Broadcast<AdmissionNote>()
    /// A tick when a peer tells this daemon it was removed (``toldRemoved(_:)``).
    private let toldRemovals = Broadcast<Void>(bufferingPolicy: .bufferingNewest(1))

    /// Invites last 10 minutes unless asked otherwise, and at most a day.
    static let defaultInviteLifetime = 600
    static let maxInviteLifetime = 86_400
    /// How long `peerctl join` waits for the inviter.
    let joinWait: Duration

    init(
        local: PeerID,
        path: FilePath,
        groupKey: SymmetricKey?,
        name: String? = nil,
        joinWait: Duration = .seconds(20),
        logger: Logger
    ) throws(StoreError) {
        self.local = local
        invites = InviteBook(inviter: name)
        self.joinWait = joinWait
        self.path = path
        self.groupKey = groupKey
        self.logger = logger
        if let bytes = try AtomicFile.read(path) {
            do {
                list = try JSONDecoder().decode(TrustList.self, from: Data(bytes))
            } catch {
                throw .corruptFile(path, reason: "it is not a trust list (proto/SECURITY.md, \"Trust\")")
            }
        } else {
            list = TrustList()
        }
    }

    var memberCount: Int { list.members.count }

    /// A snapshot for one admission decision.
    func policy() -> AdmissionPolicy {
        prune()
        var policy = AdmissionPolicy(
            members: Set(list.members.map(\.peer)).union(group.admitted).subtracting(group.removed.keys),
            revoked: Set(list.revoked),
            groupKey: groupKey,
            invites: invites.policyInvites,
            spentInvites: invites.policySpentInvites,
            joins: joins.mapValues(\.key)
        )
        policy.removed = group.removed
        policy.groupSecretAdmits = group.secretAdmits
        return policy
    }

    /// The group's membership changed in the log.
    func update(_ view: GroupView) {
        group = view
        dialChanges.yield(())
    }

    /// Admissions to record in the group's log, as they happen.
    func admissionNotes() -> AsyncStream<AdmissionNote> { admissions.subscribe() }

    /// A peer told this daemon it was removed from the group: stop dialing anyone.
    func toldRemoved(_ words: String) {
        guard toldRemoved == nil else { return }
        toldRemoved = words
        logger.warning("this peerd is no longer in the group", metadata: ["why": "\(words)"])
        dialChanges.yield(())
        toldRemovals.yield(())
    }

    /// A tick each time a peer tells this daemon it was removed, from now on: the removal itself
    /// may never reach this log, since its members no longer sync with it.
    func toldRemovedChanges() -> AsyncStream<Void> { toldRemovals.subscribe() }

    /// Why this daemon is out of the group ("removed from the group by alice at 21:04"), or nil.
    var removal: String? { group.selfRemoval ?? toldRemoved }

    /// Admission let `peer` in. Pins it when `via` says it is new, using up `invite`; false if that
    /// invite was used meanwhile by another peer (then the peer is refused after all). Another
    /// connection of the same peer that used it meanwhile made it a member: it is let in.
    func admitted(_ peer: PeerID, via: TrustList.Via?, invite: Int?) async -> Bool {
        if let invite, !invites.use(invite, at: Wallclock.millis(), now: .now), !list.isMember(peer) {
            return false
        }
        if let via, list.admit(peer, name: nil, via: via, now: Wallclock.millis()) {
            logger.notice("trusting a new peer", metadata: ["peer": "\(peer)", "via": "\(via.rawValue)"])
            if let step = MemberStep.Via(rawValue: via.rawValue) {
                admissions.yield(AdmissionNote(peer: peer, via: step))
            }
            await changed()
        }
        return true
    }

    /// The peer's hello named it: remember the name for `peers` and introductions. An inviter we
    /// hold a code of admitted us, or it would not say hello: now it is pinned, and the join is over.
    func named(_ peer: PeerID, _ name: String) async {
        if joins.removeValue(forKey: peer) != nil, list.admit(peer, name: name, via: .invite, now: Wallclock.millis()) {
            logger.notice("trusting the inviter", metadata: ["peer": "\(peer)", "via": "invite"])
            await changed()
        }
        endPairing(with: peer, .paired)
        guard let member = list.member(peer), member.name != name else { return }
        list.admit(peer, name: name, via: member.via, now: Wallclock.millis())
        await changed()
    }

    /// `peer` refused this daemon. If it is the inviter of a code we join with and the refusal is
    /// final, the join ends now, with its reason, and nobody was pinned for it. `proof` is the proof
    /// we gave: a plain `not-a-member` says something of the code only when we gave the code's.
    func refused(by peer: PeerID, _ reason: AdmissionRefusal, spent: SpentInvite?, proof: AdmissionMethod?) {
        guard joins[peer] != nil, JoinOutcome.finalRefusals.contains(reason),
            reason != .notAMember || proof == .invite
        else { return }
        logger.notice("the inviter refused the code", metadata: ["peer": "\(peer)", "reason": "\(reason)"])
        joins[peer] = nil
        dialChanges.yield(())
        endPairing(with: peer, .refused(reason, spent))
    }

    private func endPairing(with inviter: PeerID, _ outcome: JoinOutcome) {
        guard let pairing = pairings.removeValue(forKey: inviter) else { return }
        pairing.yield(outcome)
        pairing.finish()
    }

    /// A trusted peer listed the members it trusts.
    func introduced(_ members: [PeerMessage.Member], by introducer: PeerID) async {
        guard list.isMember(introducer) else { return }
        let added = list.introduce(
            members.filter { group.removed[$0.peer] == nil }.map { ($0.peer, $0.name) },
            by: introducer,
            local: local,
            now: Wallclock.millis()
        )
        guard !added.isEmpty else { return }
        logger.notice(
            "trusting peers introduced by a member",
            metadata: ["by": "\(introducer.short)", "peers": "\(added.map(\.short))"]
        )
        await changed()
    }

    /// What a `members` message lists.
    /// What a `members` message carries: no more than a receiver takes from one.
    func members() -> [PeerMessage.Member] {
        list.members.prefix(TrustList.maxIntroductions).map { PeerMessage.Member(peer: $0.peer, name: $0.name) }
    }

    /// A tick each time the trust list changes, for sessions to send `members` again.
    func updates() -> AsyncStream<Void> {
        listChanges.subscribe()
    }

    /// A tick each time ``shouldDial(_:)`` may answer otherwise: for dialers of announced peers.
    func dialUpdates() -> AsyncStream<Void> {
        dialChanges.subscribe()
    }

    func name(of peer: PeerID) -> String? { list.member(peer)?.name }

    func trustStates() -> [PeerID: PeerTrust] {
        var states: [PeerID: PeerTrust] = [:]
        for member in list.members { states[member.peer] = .member }
        for peer in list.revoked { states[peer] = .revoked }
        for peer in group.removed.keys { states[peer] = .revoked }
        return states
    }

    /// Whether to dial a peer mDNS announced: only one that could be admitted.
    func shouldDial(_ peer: PeerID) -> Bool {
        prune()
        guard !list.isRevoked(peer), group.removed[peer] == nil, removal == nil else { return false }
        return list.isMember(peer) || group.admitted.contains(peer) || groupKey != nil || joins[peer] != nil
    }

    // MARK: Control requests

    /// A fresh code; with `relay`, one that says where the relay can be asked for this daemon.
    func invite(
        expiresIn seconds: Int?,
        relay: InviteCode.Relay? = nil
    ) throws(TrustError) -> (InviteCode, expiresAt: Int64) {
        let lifetime = seconds ?? Self.defaultInviteLifetime
        guard (1...Self.maxInviteLifetime).contains(lifetime) else { throw .inviteLifetime(lifetime) }
        prune()
        let code = InviteCode.make(inviter: local, relay: relay)
        let expiresAt = Wallclock.millis() + Int64(lifetime) * 1000
        _ = invites.open(code.key, expires: .now + .seconds(lifetime), expiresAt: expiresAt)
        logger.notice("made an invite code", metadata: ["expires-in": "\(lifetime)s"])
        return (code, expiresAt)
    }

    /// Registers the code; returns once the inviter has been admitted and said hello (`paired`),
    /// at once when it refuses the code, or after `joinWait`, or when peerd stops. The wait is
    /// registered before anything can answer it, and ends with the request.
    func join(_ code: InviteCode) async -> JoinOutcome {
        let inviter = code.inviter
        if list.isMember(inviter) && joins[inviter] == nil { return .paired }
        joins[inviter, default: Join(key: code.key, expires: .now + .seconds(Self.defaultInviteLifetime))].key =
            code.key
        dialChanges.yield(())
        let answer = pairing(with: inviter).subscribe()
        let joinWait = self.joinWait
        return await withTaskGroup { group in
            group.addTask { await answer.first { _ in true } ?? .stopped }
            group.addTask {
                try? await LoopClock.shared.sleep(for: joinWait)
                return .timedOut
            }
            group.addTask {
                try? await gracefulShutdown()
                return .stopped
            }
            let first = await group.next() ?? .stopped
            group.cancelAll()
            return first
        }
    }

    private func pairing(with inviter: PeerID) -> Broadcast<JoinOutcome> {
        if let pairing = pairings[inviter] { return pairing }
        let pairing = Broadcast<JoinOutcome>()
        pairings[inviter] = pairing
        return pairing
    }

    func trust(_ query: String) async throws(TrustError) -> PeerID {
        guard let peer = PeerID(query.lowercased()), peer.rawValue.count == 32 else { throw .notAPeerID(query) }
        guard peer != local else { throw .itself }
        if let removal = group.removed[peer] { throw .removedFromGroup(peer, by: removal.inviter, at: removal.at) }
        if list.admit(peer, name: nil, via: .pinned, now: Wallclock.millis()) {
            admissions.yield(AdmissionNote(peer: peer, via: .pinned))
            await changed()
        }
        return peer
    }

    private func prune() {
        let now = ContinuousClock.now
        invites.prune(now: now)
        pairings = pairings.filter { $0.value.hasSubscribers }
        // A join somebody still waits on keeps its key past its expiry, until the wait ends.
        joins = joins.filter { $0.value.expires > now || pairings[$0.key] != nil }
    }

    /// Saves the list as it is now (on the ``BlockingPool``, in the order of the changes), then
    /// tells sessions and the dialer.
    private func changed() async {
        let path = self.path
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let bytes = Array(try encoder.encode(list)) + Array("\n".utf8)
            try await BlockingPool.run { () throws(StoreError) in try AtomicFile.write(bytes, to: path) }
        } catch {
            logger.error("could not save the trust list", metadata: ["path": "\(path)", "error": "\(error)"])
        }
        listChanges.yield(())
        dialChanges.yield(())
    }
}
