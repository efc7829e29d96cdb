import PeerdModel
import PeerdRelay
import Testing

@testable import PeerdDaemon

/// When a dial target dials, waits, or stops (proto/PEER.md, "Reconnect"), driven by hand-made
/// instants: no sleeping.
@Suite("Dial targets")
struct DialTargetTests {
    let address = PeerAddress(host: "192.0.2.1", port: 7601)
    let bob = PeerID("b0b00000000000000000000000000002")!
    let start = ContinuousClock.now

    func target() -> DialTarget {
        DialTarget(key: .address(address), addresses: [address], source: .named)
    }

    @Test func aNewTargetDialsAtOnceThenWaitsTheBackoffAfterAFailure() throws {
        var target = target()
        #expect(
            target.next(now: start, connected: false, dialable: true) == .dial([address], connectTimeout: .seconds(5))
        )
        target.ended(.init(error: "cannot connect: connection refused"), now: start)
        #expect(target.lastError == "cannot connect: connection refused")
        let until = try #require(
            target.next(now: start, connected: false, dialable: true).waitDeadline,
            "no wait after a failed dial"
        )
        #expect(until >= start + .milliseconds(375) && until <= start + .milliseconds(500))
        #expect(
            target.next(now: until, connected: false, dialable: true) == .dial([address], connectTimeout: .seconds(5))
        )
    }

    /// `join --address` again with a new code, or `connect` again: the user waits for no backoff.
    @Test func aTargetAskedForAgainDialsAtOnceThoughItWasWaitingOutItsBackoff() throws {
        var target = target()
        var now = start
        for _ in 0..<4 {
            _ = target.next(now: now, connected: false, dialable: true)
            target.ended(.init(error: "refused by the peer: not a member"), now: now)
            now = try #require(target.next(now: now, connected: false, dialable: true).waitDeadline)
        }
        let later = start + .milliseconds(1)
        #expect(target.next(now: later, connected: false, dialable: true).waitDeadline != nil)
        target.dialNow()
        #expect(
            target.next(now: later, connected: false, dialable: true) == .dial([address], connectTimeout: .seconds(5))
        )
        target.ended(.init(error: "refused by the peer: not a member"), now: later)
        let until = try #require(target.next(now: later, connected: false, dialable: true).waitDeadline)
        #expect(later.duration(to: until) >= .seconds(6), "the backoff goes on where it was")
    }

    @Test func theBackoffDoublesAndALostSessionIsRedialedQuickly() throws {
        var target = target()
        var waits: [Duration] = []
        var now = start
        for established in [nil, nil, nil, Duration.seconds(10), nil] as [Duration?] {
            _ = target.next(now: now, connected: false, dialable: true)
            target.ended(.init(establishedFor: established), now: now)
            let until = try #require(
                target.next(now: now, connected: false, dialable: true).waitDeadline,
                "the target waits"
            )
            waits.append(now.duration(to: until))
            now = until
        }
        // After the 10 s session, dials follow each other quickly (proto/PEER.md, "Reconnect").
        let ceilings: [Duration] = [
            .milliseconds(500), .seconds(1), .seconds(2), .milliseconds(400), .milliseconds(400),
        ]
        #expect(waits.count == ceilings.count)
        for (wait, ceiling) in zip(waits, ceilings) { #expect(wait >= ceiling * 0.75 && wait <= ceiling) }
    }

    @Test func aPeerConnectedSomeOtherWayWaitsForThatSessionToEnd() {
        var target = target()
        target.peer = bob
        #expect(target.next(now: start, connected: true, dialable: true) == .waitForChange)
        #expect(target.phase == .connectedElsewhere)
        #expect(
            target.next(now: start, connected: false, dialable: true) == .dial([address], connectTimeout: .seconds(5))
        )
    }

    @Test func aPeerThatCouldNotBeAdmittedWaitsForTrustToChange() {
        var target = DialTarget(key: .discovered(bob), addresses: [address], source: .mdns, peer: bob)
        #expect(target.next(now: start, connected: false, dialable: false) == .waitForChange)
        #expect(target.phase == .untrusted)
        #expect(
            target.next(now: start, connected: false, dialable: true) == .dial([address], connectTimeout: .seconds(5))
        )
    }

    @Test func aLostPeerStopsOnceNoSessionIsUpAndComesBackWhenFoundAgain() {
        var target = DialTarget(key: .discovered(bob), addresses: [address], source: .mdns, peer: bob)
        target.lost = true
        #expect(target.next(now: start, connected: true, dialable: true) == .waitForChange)
        target.found(at: [address], name: "bob")
        #expect(
            target.next(now: start, connected: false, dialable: true) == .dial([address], connectTimeout: .seconds(5))
        )
        target.lost = true
        #expect(target.next(now: start, connected: false, dialable: true) == .stop(.lost))
    }

    @Test func afterALostSessionItRedialsQuicklyWithAShortConnectTimeoutForTwoMinutes() throws {
        var target = target()
        var now = start
        _ = target.next(now: now, connected: false, dialable: true)
        target.ended(.init(peer: bob, establishedFor: .seconds(60), error: "connection lost"), now: now)
        // A partition: every dial times out, and the next follows in well under a second.
        for _ in 0..<20 {
            let until = try #require(
                target.next(now: now, connected: false, dialable: true).waitDeadline,
                "no wait after a lost session"
            )
            #expect(now.duration(to: until) >= .milliseconds(300) && now.duration(to: until) <= .milliseconds(400))
            #expect(
                target.next(now: until, connected: false, dialable: true)
                    == .dial([address], connectTimeout: .seconds(1))
            )
            now = until + .seconds(1)
            target.ended(.init(error: "cannot connect: timed out"), now: now)
        }
        // Two minutes on, the backoff is back, grown by the failed dials.
        now = start + .seconds(121)
        target.ended(.init(error: "cannot connect: timed out"), now: now)
        let until = try #require(
            target.next(now: now, connected: false, dialable: true).waitDeadline,
            "the target waits"
        )
        #expect(now.duration(to: until) >= .seconds(20))
        #expect(
            target.next(now: until, connected: false, dialable: true) == .dial([address], connectTimeout: .seconds(5))
        )
    }

    @Test func aRefusedDialBacksOffEvenRightAfterALostSession() throws {
        var target = target()
        _ = target.next(now: start, connected: false, dialable: true)
        target.ended(.init(peer: bob, establishedFor: .seconds(60), error: "connection lost"), now: start)
        _ = target.next(now: start + .seconds(1), connected: false, dialable: true)
        for _ in 0..<3 { target.ended(.init(error: "connection refused", refused: true), now: start + .seconds(1)) }
        let next = target.next(now: start + .seconds(1), connected: false, dialable: true)
        let until = try #require(next.waitDeadline, "no wait after a refused dial")
        #expect((start + .seconds(1)).duration(to: until) >= .seconds(1))
    }

    @Test func aMemberWithARelayToFallBackOnGivesEachAddressLessTime() throws {
        var target = DialTarget(key: .member(bob), addresses: [address], source: .group, peer: bob)
        #expect(
            target.next(now: start, connected: false, dialable: true) == .dial([address], connectTimeout: .seconds(5))
        )
        let relay = try RelayURL.parse("relay://198.51.100.10:22067").get()
        target.relayRoute = .init(device: RelayDeviceID(certificateDER: [1, 2, 3]), relays: [relay])
        target.ended(.init(error: "no route"), now: start)
        let until = try #require(target.next(now: start, connected: false, dialable: true).waitDeadline)
        #expect(
            target.next(now: until, connected: false, dialable: true)
                == .dial([address], connectTimeout: .milliseconds(1500))
        )
    }

    /// A relay that put the dial through to mallory, or an address of hers: the member's target
    /// still expects the member, so the real one is admitted at the next dial. A target named by
    /// address learns whom it reached.
    @Test func aMembersTargetKeepsItsPeerWhenADialReachedSomeoneElse() {
        let mallory = PeerID("3a11000000000000000000000000000d")!
        var member = DialTarget(key: .member(bob), addresses: [address], source: .group, peer: bob)
        _ = member.next(now: start, connected: false, dialable: true)
        member.ended(
            .init(peer: mallory, error: "presented a different key than the peer id it was reached for"),
            now: start
        )
        #expect(member.peer == bob)
        var discovered = DialTarget(key: .discovered(bob), addresses: [address], source: .mdns, peer: bob)
        discovered.ended(.init(peer: mallory), now: start)
        #expect(discovered.peer == bob)
        var named = target()
        named.ended(.init(peer: mallory, establishedFor: .seconds(3)), now: start)
        #expect(named.peer == mallory)
    }

    @Test func reachingItselfStopsForGood() {
        var target = target()
        _ = target.next(now: start, connected: false, dialable: true)
        target.ended(.init(reachedItself: true), now: start)
        #expect(target.next(now: start + .seconds(60), connected: false, dialable: true) == .stop(.itself))
    }
}

extension DialTarget.Next {
    /// The instant a `wait` waits for; nil for any other step.
    var waitDeadline: ContinuousClock.Instant? {
        if case .wait(let until) = self { until } else { nil }
    }
}
