import PeerdModel
import Testing

@testable import PeerdDaemon

/// A session is woken by every commit of an origin it pushes at once, and by the first commit of
/// its lazy origins only, until it owes no `have` again and arms the interest once more.
@Suite("Which commits wake a session")
struct VectorInterestTests {
    let pushed = PeerID("aaaaaaaaaaaaaaaa")!
    let lazy = PeerID("bbbbbbbbbbbbbbbb")!

    @Test func commitsOfOriginsPushedAtOnceAlwaysWake() {
        let interest = VectorInterest()
        interest.setLazy([lazy])
        #expect(interest.wants([pushed]))
        #expect(interest.wants([pushed, lazy]))
        #expect(interest.wants([pushed]))
        #expect(!interest.takeMissed())
    }

    @Test func ofTheLazyOnesOnlyTheFirstWakesUntilTheSessionArmsAgain() {
        let interest = VectorInterest()
        interest.setLazy([lazy])
        #expect(interest.wants([lazy]))
        #expect(!interest.wants([lazy]))
        #expect(!interest.wants([lazy]))
        // The session's `have` went out at its deadline with what it found then.
        #expect(interest.takeMissed())
        #expect(!interest.takeMissed())
        #expect(!interest.arm())
        #expect(interest.wants([lazy]))
    }

    @Test func aCommitNotedWhileDisarmedIsSeenWhenTheSessionArms() {
        let interest = VectorInterest()
        interest.setLazy([lazy])
        #expect(interest.wants([lazy]))
        #expect(!interest.wants([lazy]))
        #expect(interest.arm())
        #expect(!interest.arm())
        #expect(interest.wants([lazy]))
    }

    @Test func withoutLazyOriginsEveryCommitWakes() {
        let interest = VectorInterest()
        for _ in 0..<3 { #expect(interest.wants([lazy])) }
        #expect(!interest.arm())
    }
}
