import PeerdModel
import PeerdSync
import PeerdTestKit
import Testing

@Suite("Duplicate sessions")
struct SessionArbiterTests {
    let small = PeerID("1111111111111111")!
    let large = PeerID("9999999999999999")!

    @Test func bothEndsKeepTheConnectionDialedByTheSmallerID() {
        let bySmall = SessionArbiter.Candidate(dialer: small)
        let byLarge = SessionArbiter.Candidate(dialer: large)
        // Whichever order each end saw them established in, both keep the one `small` dialed.
        for local in [small, large] {
            #expect(SessionArbiter.decide(new: bySmall, existing: byLarge, local: local) == .keepNew)
            #expect(SessionArbiter.decide(new: byLarge, existing: bySmall, local: local) == .keepExisting)
        }
    }

    @Test func whenOneSideDialedBothOnlyThatDialerDecides() {
        let twice = SessionArbiter.Candidate(dialer: small)
        #expect(SessionArbiter.decide(new: twice, existing: twice, local: small) == .keepExisting)
        #expect(SessionArbiter.decide(new: twice, existing: twice, local: large) == .keepBoth)
    }

    @Test func aNewSessionReplacesOneThatHasBeenUpForAWhileOnBothEnds() {
        // The peer dialed again: it lost the old session at its end (a stalled send, a partition).
        let bySmall = SessionArbiter.Candidate(dialer: small)
        let byLarge = SessionArbiter.Candidate(dialer: large)
        for (new, existing) in [(byLarge, bySmall), (bySmall, byLarge), (bySmall, bySmall), (byLarge, byLarge)] {
            for local in [small, large] {
                let decision = SessionArbiter.decide(
                    new: new,
                    existing: existing,
                    local: local,
                    existingAge: .seconds(3)
                )
                #expect(decision == .keepNew)
            }
        }
        #expect(
            SessionArbiter.decide(new: byLarge, existing: bySmall, local: small, existingAge: .seconds(2))
                == .keepExisting
        )
    }

    @Test func aDirectSessionWinsOverARelayedOneOnBothEndsWhoeverDialedIt() {
        for (direct, relayed) in [(small, large), (large, small), (small, small)] {
            let straight = SessionArbiter.Candidate(dialer: direct)
            let throughRelay = SessionArbiter.Candidate(dialer: relayed, relayed: true)
            for local in [small, large] {
                #expect(SessionArbiter.decide(new: straight, existing: throughRelay, local: local) == .keepNew)
                #expect(SessionArbiter.decide(new: throughRelay, existing: straight, local: local) == .keepExisting)
            }
        }
    }
}

@Suite("Reconnect backoff")
struct BackoffTests {
    @Test func delaysDoubleUpToTheMaximumWithJitterAndResetAfterAHealthySession() {
        var backoff = Backoff()
        var random = SplitMix64(seed: 42)
        let bases: [Duration] =
            [.milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(16)]
            + Array(repeating: .seconds(30), count: 4)
        for base in bases {
            let delay = backoff.next(after: .seconds(3), using: &random)
            #expect(delay >= base * 0.75 && delay <= base, "delay \(delay) outside [0.75, 1] × \(base)")
        }
        let afterHealthy = backoff.next(after: .seconds(10), using: &random)
        #expect(afterHealthy >= .milliseconds(375) && afterHealthy <= .milliseconds(500))
    }
}
