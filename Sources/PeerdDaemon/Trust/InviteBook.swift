import Crypto
import PeerdSecurity

/// The invite codes this daemon made, as a plain value: the open ones, which admit, and a bounded
/// few spent ones (used, or expired), whose keys are kept only to tell a joiner who brings one what
/// became of it (proto/SECURITY.md, "Invite codes"). In memory only. `TrustService` holds it.
struct InviteBook: Sendable {
    struct Open: Sendable {
        var key: SymmetricKey
        var expires: ContinuousClock.Instant
        /// The same moment on the wall clock (ms since 1970), to tell a joiner when it expired.
        var expiresAt: Int64
    }

    struct Spent: Sendable {
        var key: SymmetricKey
        var invite: SpentInvite
        /// When its key is dropped.
        var forgotten: ContinuousClock.Instant
    }

    /// How many spent invites are kept, and for how long.
    static let spentKept = 64
    static let spentMemory = Duration.seconds(86_400)

    /// The inviter's name, for the joiner to know whom to ask for a new code.
    let inviter: String?
    private(set) var open: [Int: Open] = [:]
    /// Oldest first.
    private(set) var spent: [Spent] = []
    private var lastID = 0

    init(inviter: String?) {
        self.inviter = inviter
    }

    /// Opens an invite with `key` until `expires` (`expiresAt` on the wall clock); returns its id.
    mutating func open(_ key: SymmetricKey, expires: ContinuousClock.Instant, expiresAt: Int64) -> Int {
        lastID += 1
        open[lastID] = Open(key: key, expires: expires, expiresAt: expiresAt)
        return lastID
    }

    /// Uses up open invite `id` at `at` (ms since 1970); false if it is not open (used meanwhile).
    mutating func use(_ id: Int, at: Int64, now: ContinuousClock.Instant) -> Bool {
        guard let used = open.removeValue(forKey: id) else { return false }
        spend(used.key, SpentInvite(.used, at: at, inviter: inviter), now: now)
        return true
    }

    /// Moves the invites expired by `now` to the spent ones, and forgets spent ones kept long enough.
    mutating func prune(now: ContinuousClock.Instant) {
        for (id, invite) in open.sorted(by: { $0.key < $1.key }) where invite.expires <= now {
            open[id] = nil
            spend(invite.key, SpentInvite(.expired, at: invite.expiresAt, inviter: inviter), now: now)
        }
        spent.removeAll { $0.forgotten <= now }
    }

    /// What admission checks proofs against.
    var policyInvites: [AdmissionPolicy.Invite] { open.map { AdmissionPolicy.Invite(id: $0.key, key: $0.value.key) } }
    var policySpentInvites: [AdmissionPolicy.Spent] {
        spent.map { AdmissionPolicy.Spent(key: $0.key, invite: $0.invite) }
    }

    private mutating func spend(_ key: SymmetricKey, _ invite: SpentInvite, now: ContinuousClock.Instant) {
        spent.append(Spent(key: key, invite: invite, forgotten: now + Self.spentMemory))
        spent.removeFirst(max(0, spent.count - Self.spentKept))
    }
}
