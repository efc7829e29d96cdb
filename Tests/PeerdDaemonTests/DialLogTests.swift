import PeerdModel
import PeerdWire
import Testing

@testable import PeerdDaemon

/// What the daemon remembers for `peerctl doctor`: bounded per address, per peer and in all.
@Suite("The dial log")
struct DialLogTests {
    let bob = PeerID("b0b00000000000000000000000000002")!
    let mallory = PeerID("d00d0000000000000000000000000066")!

    func dial(_ address: String, at: Int64, _ outcome: DialRecord.Outcome = .timeout) -> DialRecord {
        DialRecord(address: address, at: at, stage: .tcp, outcome: outcome, message: "\(outcome)")
    }

    @Test func eachAddressKeepsItsLatestEightResultsOldestFirst() {
        var log = DialLog()
        for at in 1...10 { log.record(dial("10.0.0.2:7601", at: Int64(at))) }
        log.record(dial("10.0.0.3:7601", at: 11, .refused))
        #expect(log.dials.map(\.at) == Array(3...11))
        #expect(log.dials.last?.outcome == .refused)
    }

    @Test func theAddressDialedLongestAgoGoesWhenThereAreTooMany() {
        var log = DialLog()
        for index in 0...DialLog.addressLimit {
            log.record(dial("10.0.\(index / 250).\(index % 250):7601", at: Int64(index)))
        }
        #expect(Set(log.dials.map(\.address)).count == DialLog.addressLimit)
        #expect(!log.dials.contains { $0.address == "10.0.0.0:7601" })
    }

    @Test func refusalsAreBoundedAndAPeerAdmittedLaterLosesItsRefusals() {
        var log = DialLog()
        for at in 0..<40 {
            log.refused(
                RefusalRecord(
                    address: "10.0.0.66:\(50000 + at)",
                    peer: mallory,
                    at: Int64(at),
                    code: .notMember,
                    message: ""
                )
            )
        }
        log.refused(RefusalRecord(address: "10.0.0.2:50000", peer: bob, at: 41, code: .revoked, message: ""))
        #expect(log.refusals.count == DialLog.refusalLimit)
        #expect(log.refusals.last?.peer == bob)
        log.admitted(bob, inbound: InboundRecord(peer: bob, name: "bob", address: "10.0.0.2:50001", port: 7601, at: 42))
        #expect(!log.refusals.contains { $0.peer == bob })
        #expect(log.inbound == [InboundRecord(peer: bob, name: "bob", address: "10.0.0.2:50001", port: 7601, at: 42)])
    }

    @Test func eachPeerKeepsOnlyItsLatestInboundSession() {
        var log = DialLog()
        for at in 1...3 {
            log.admitted(
                bob,
                inbound: InboundRecord(peer: bob, name: "bob", address: "10.0.0.2:5000\(at)", port: 7601, at: Int64(at))
            )
        }
        log.admitted(mallory, inbound: nil)
        #expect(log.inbound.map(\.at) == [3])
    }
}
