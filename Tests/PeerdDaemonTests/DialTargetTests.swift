import PeerdModel
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

    @Test func aNewTargetDialsAtOnceThenWaitsTheBackoffAfterAFailure() {
        var target = target()
        #expect(target.next(now: start, connected: false, dialable: true) == .dial([address]))
        target.ended(.init(error: "cannot connect: connection refused"), now: start)
        #expect(target.lastError == "cannot connect: connection refused")
        guard case .wait(let until) = target.next(now: start, connected: false, dialable: true) else {
            Issue.record("no wait after a failed dial")
            return
        }
        #expect(until >= start + .milliseconds(375) && until <= start + .milliseconds(500))
        #expect(target.next(now: until, connected: false, dialable: true) == .dial([address]))
    }

    @Test func theBackoffDoublesAndALongSessionStartsItOver() {
        var target = target()
        var waits: [Duration] = []
        var now = start
        for established in [nil, nil, nil, Duration.seconds(10), nil] as [Duration?] {
            _ = target.next(now: now, connected: false, dialable: true)
            target.ended(.init(establishedFor: established), now: now)
            guard case .wait(let until) = target.next(now: now, connected: false, dialable: true) else { return }
            waits.append(now.duration(to: until))
            now = until
        }
        let ceilings: [Duration] = [.milliseconds(500), .seconds(1), .seconds(2), .milliseconds(500), .seconds(1)]
        for (wait, ceiling) in zip(waits, ceilings) { #expect(wait >= ceiling * 0.75 && wait <= ceiling) }
    }

    @Test func aPeerConnectedSomeOtherWayWaitsForThatSessionToEnd() {
        var target = target()
        target.peer = bob
        #expect(target.next(now: start, connected: true, dialable: true) == .waitForChange)
        #expect(target.phase == .connectedElsewhere)
        #expect(target.next(now: start, connected: false, dialable: true) == .dial([address]))
    }

    @Test func aPeerThatCouldNotBeAdmittedWaitsForTrustToChange() {
        var target = DialTarget(key: .discovered(bob), addresses: [address], source: .mdns, peer: bob)
        #expect(target.next(now: start, connected: false, dialable: false) == .waitForChange)
        #expect(target.phase == .untrusted)
        #expect(target.next(now: start, connected: false, dialable: true) == .dial([address]))
    }

    @Test func aLostPeerStopsOnceNoSessionIsUpAndComesBackWhenFoundAgain() {
        var target = DialTarget(key: .discovered(bob), addresses: [address], source: .mdns, peer: bob)
        target.lost = true
        #expect(target.next(now: start, connected: true, dialable: true) == .waitForChange)
        target.found(at: [address], name: "bob")
        #expect(target.next(now: start, connected: false, dialable: true) == .dial([address]))
        target.lost = true
        #expect(target.next(now: start, connected: false, dialable: true) == .stop(.lost))
    }

    @Test func reachingItselfStopsForGood() {
        var target = target()
        _ = target.next(now: start, connected: false, dialable: true)
        target.ended(.init(reachedItself: true), now: start)
        #expect(target.next(now: start + .seconds(60), connected: false, dialable: true) == .stop(.itself))
    }
}
