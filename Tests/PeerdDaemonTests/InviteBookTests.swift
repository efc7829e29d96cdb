import Crypto
import PeerdSecurity
import Testing

@testable import PeerdDaemon

/// The invites a daemon made, open and spent, driven by hand-made instants: no sleeping.
@Suite("Invite book")
struct InviteBookTests {
    let start = ContinuousClock.now
    let wallclock: Int64 = 1_764_902_820_000

    @Test func anInviteThatExpiresIsKeptAsExpiredAtItsEndWithItsInvitersName() {
        var book = InviteBook(inviter: "alice")
        let key = SymmetricKey(size: .bits256)
        _ = book.open(key, expires: start + .seconds(60), expiresAt: wallclock + 60_000)
        book.prune(now: start + .seconds(59))
        #expect(book.policyInvites.count == 1 && book.policySpentInvites.isEmpty)
        book.prune(now: start + .seconds(60))
        #expect(book.policyInvites.isEmpty)
        #expect(
            book.policySpentInvites.map(\.invite) == [SpentInvite(.expired, at: wallclock + 60_000, inviter: "alice")]
        )
        #expect(book.policySpentInvites.first?.key == key)
    }

    @Test func anInviteUsedOnceIsKeptAsUsedAndCannotBeUsedAgain() {
        var book = InviteBook(inviter: nil)
        let id = book.open(SymmetricKey(size: .bits256), expires: start + .seconds(60), expiresAt: wallclock)
        let first = book.use(id, at: wallclock + 5, now: start)
        let again = book.use(id, at: wallclock + 6, now: start)
        #expect(first && !again)
        #expect(book.policyInvites.isEmpty)
        #expect(book.policySpentInvites.map(\.invite) == [SpentInvite(.used, at: wallclock + 5, inviter: nil)])
        book.prune(now: start + .seconds(120))
        #expect(book.spent.count == 1, "a used invite is not spent again when its time is up")
    }

    @Test func spentInvitesAreABoundedFewForADay() {
        var book = InviteBook(inviter: "alice")
        for offset in 0..<(InviteBook.spentKept + 3) {
            let id = book.open(SymmetricKey(size: .bits256), expires: start + .seconds(600), expiresAt: wallclock)
            let used = book.use(id, at: wallclock + Int64(offset), now: start)
            #expect(used)
        }
        #expect(book.spent.count == InviteBook.spentKept)
        #expect(book.spent.first?.invite.at == wallclock + 3, "the oldest go first")
        book.prune(now: start + InviteBook.spentMemory - .seconds(1))
        #expect(book.spent.count == InviteBook.spentKept)
        book.prune(now: start + InviteBook.spentMemory)
        #expect(book.spent.isEmpty)
    }
}
