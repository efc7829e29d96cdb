import NIOCore
import PeerdModel
import PeerdSecurity
import PeerdSync
import PeerdTestKit
import PeerdWire
import Testing

typealias Machine = PeerConnectionStateMachine<ContinuousClock.Instant>

/// Two ends of one connection, each with a real identity key and certificate (admission checks the
/// key type), and the group secret they share.
struct ConnectionEnds {
    static let group = AdmissionPolicy(groupKey: GroupSecret.key(Array("connection state machine tests".utf8)))

    let local = try! PeerIdentity.generate(name: "local")
    let remote = try! PeerIdentity.generate(name: "remote")

    var endpoints: AdmissionHandshake.Endpoints {
        .init(
            local: local.peer,
            localCertificate: local.certificateDER,
            remote: remote.peer,
            remoteCertificate: remote.certificateDER
        )
    }

    /// The remote side's admission handshake, answering ours.
    func remoteHandshake(policy: AdmissionPolicy = group) -> AdmissionHandshake {
        AdmissionHandshake(
            endpoints: .init(
                local: remote.peer,
                localCertificate: remote.certificateDER,
                remote: local.peer,
                remoteCertificate: local.certificateDER
            ),
            policy: policy,
            expected: nil
        )
    }

    func hello(_ peer: PeerID, vector: [PeerID: UInt64] = [:]) -> PeerMessage.Hello {
        PeerMessage.Hello(peer: peer, name: peer.short, port: 7601, vector: VersionVector(vector))
    }
}

func frame(_ bytes: [UInt8]) -> ByteBuffer { ByteBuffer(bytes: bytes) }
func frame(_ message: PeerMessage) -> ByteBuffer { ByteBuffer(bytes: WireCoding.encode(message)) }

/// The phases a connection goes through, each reached by driving a machine against a real peer.
enum Phase: String, CaseIterable, Sendable {
    case identifying, awaitingOffer, awaitingProof, admitted, established, closed

    /// A machine in this phase, and the ends it talks between.
    func machine(_ ends: ConnectionEnds) -> Machine {
        var generator = SplitMix64(seed: 7)
        var machine = Machine(role: .dialer, expected: nil, using: &generator)
        guard self != .identifying else { return machine }
        machine.identified(ends.endpoints, policy: ConnectionEnds.group)
        guard self != .awaitingOffer else { return machine }
        var remote = ends.remoteHandshake()
        let proofs = remote.received(machine.offer)
        guard case .sendRecord = machine.received(frame(remote.offer()), now: start) else { fatalError("no proof") }
        guard self != .awaitingProof else { return machine }
        guard case .send(let theirProof) = proofs.first else { fatalError("no proof from the remote") }
        guard case .confirmAdmission = machine.received(frame(theirProof), now: start) else {
            fatalError("not admitted")
        }
        _ = machine.admission(confirmed: true, localHello: ends.hello(ends.local.peer), now: start)
        guard self != .admitted else { return machine }
        _ = machine.received(frame(.hello(ends.hello(ends.remote.peer))), now: start)
        _ = machine.established(refusal: nil, now: start)
        guard self != .established else { return machine }
        _ = machine.closeRequested(WireError(.revoked, "revoked with peerctl forget"))
        return machine
    }
}

/// The per-connection state machine, phase by phase and event by event, with no socket.
@Suite("Peer connection state machine")
struct PeerConnectionStateMachineTests {
    let ends = ConnectionEnds()

    @Test func anOfferWithAFreshNonceGoesFirst() {
        var one = SplitMix64(seed: 1)
        var two = SplitMix64(seed: 2)
        let first = Machine(role: .dialer, expected: nil, using: &one)
        #expect(AdmissionRecord.nonce(ofOffer: first.offer) != nil)
        #expect(first.offer != Machine(role: .dialer, expected: nil, using: &two).offer)
        #expect(first.needsIdentity)
    }

    @Test func identifyingEveryEvent() {
        var machine = Phase.identifying.machine(ends)
        #expect(machine.received(frame([1, 2, 3]), now: start) == .session([]))
        #expect(machine.localAdvanced(to: VersionVector([ends.local.peer: 1]), now: start).isEmpty)
        #expect(machine.delivered(.failure(WireError(.internal, "x")), now: start).isEmpty)
        #expect(machine.tick(now: start + .seconds(60)).isEmpty)
        #expect(machine.membersChanged().isEmpty)
        #expect(machine.inboundEnded(.closed, now: start).isEmpty)
        #expect(machine.isClosed)
        #expect(machine.outcome.error == "connection closed during the handshake")
        #expect(machine.outcome.reached == .tls, "no certificate was seen: TLS is as far as it got")

        var failed = Phase.identifying.machine(ends)
        failed.identificationFailed("no certificate")
        #expect(failed.isClosed && failed.outcome.error == "TLS failed: no certificate")
    }

    @Test func awaitingTheOfferEveryEvent() {
        var machine = Phase.awaitingOffer.machine(ends)
        #expect(!machine.needsIdentity && machine.outcome.peer == ends.remote.peer)
        #expect(machine.outcome.reached == .admission)
        guard case .sendRecord(let proof) = machine.received(frame(ends.remoteHandshake().offer()), now: start) else {
            Issue.record("an offer is answered with our proof")
            return
        }
        #expect(AdmissionRecord.parseProof(proof)?.method == .group)

        var garbage = Phase.awaitingOffer.machine(ends)
        #expect(garbage.received(frame(Array("{\"type\":\"hello\"}".utf8)), now: start) == refusal(.notAMember))
        #expect(garbage.isClosed)

        for end in [Machine.InboundEnd.closed, .lost("reset"), .shutdown] {
            var ended = Phase.awaitingOffer.machine(ends)
            #expect(ended.inboundEnded(end, now: start).isEmpty)
            #expect(ended.isClosed && ended.outcome.error != nil)
        }
        var closing = Phase.awaitingOffer.machine(ends)
        #expect(closing.closeRequested(WireError(.revoked, "revoked")).isEmpty)
        #expect(closing.isClosed && closing.outcome.error == "revoked")
        var unwritable = Phase.awaitingOffer.machine(ends)
        #expect(unwritable.writeFailed("broken pipe").isEmpty)
        #expect(unwritable.isClosed && unwritable.outcome.error == "write failed: broken pipe")
    }

    func refusal(_ reason: AdmissionRefusal) -> Machine.FrameAction {
        .refuse(reason, record: AdmissionRecord.refusal(reason))
    }

    /// A machine that sent its proof, and the remote's proof to answer it with.
    func awaitingProof() -> (Machine, proof: [UInt8]) {
        var remote = ends.remoteHandshake()
        var machine = Phase.identifying.machine(ends)
        machine.identified(ends.endpoints, policy: ConnectionEnds.group)
        let theirProof = remote.received(machine.offer)
        _ = machine.received(frame(remote.offer()), now: start)
        guard case .send(let proof) = theirProof.first else { fatalError("the remote sent no proof") }
        return (machine, proof)
    }

    @Test func awaitingTheProofEveryEvent() {
        var (machine, proof) = awaitingProof()
        #expect(
            machine.received(frame(proof), now: start)
                == .confirmAdmission(remote: ends.remote.peer, via: .groupSecret, invite: nil)
        )
        #expect(
            machine.admission(confirmed: true, localHello: ends.hello(ends.local.peer), now: start)
                == .startSession([.send(.hello(ends.hello(ends.local.peer)))])
        )

        var (forged, _) = awaitingProof()
        let badProof = AdmissionRecord.proof(method: .group, mac: [UInt8](repeating: 0, count: 32))
        #expect(forged.received(frame(badProof), now: start) == refusal(.notAMember))
        #expect(forged.outcome.refusal == .notAMember && forged.isClosed)
        #expect(!forged.outcome.refusedByPeer, "we refused it")

        // The trust list says no after all: the invite was used up by another connection meanwhile.
        var (usedUp, usedProof) = awaitingProof()
        _ = usedUp.received(frame(usedProof), now: start)
        #expect(
            usedUp.admission(confirmed: false, localHello: ends.hello(ends.local.peer), now: start)
                == .refuse(.notAMember, record: AdmissionRecord.refusal(.notAMember))
        )
        #expect(usedUp.isClosed)
    }

    @Test func admittedEveryEvent() {
        var refusedUs = Phase.admitted.machine(ends)
        #expect(refusedUs.received(frame(AdmissionRecord.refusal(.revoked)), now: start) == .refusedByPeer(.revoked))
        #expect(refusedUs.isClosed && refusedUs.outcome.refusal == .revoked)
        #expect(refusedUs.outcome.refusedByPeer && refusedUs.outcome.reached == .admission)

        var helloed = Phase.admitted.machine(ends)
        let theirs = ends.hello(ends.remote.peer, vector: [ends.remote.peer: 2])
        #expect(helloed.received(frame(.hello(theirs)), now: start) == .session([.established(theirs)]))
        #expect(helloed.outcome.reached == .session)

        var early = Phase.admitted.machine(ends)
        #expect(closeCode(early.received(frame(.ping), now: start)) == .unexpectedMessage)

        var machine = Phase.admitted.machine(ends)
        #expect(machine.localAdvanced(to: VersionVector([ends.local.peer: 1]), now: start).isEmpty)
        #expect(machine.membersChanged().isEmpty)
        #expect(machine.tick(now: start + .seconds(1)).isEmpty)
        #expect(closeCode(machine.tick(now: start + .seconds(6))) == .timeout)

        var ended = Phase.admitted.machine(ends)
        #expect(ended.inboundEnded(.closed, now: start) == [.close(nil)])
        #expect(ended.isClosed && ended.outcome.error == nil)
    }

    /// `peerctl join` with a code the inviter saw used: the joiner lets the inviter in for the session
    /// without pinning it, and learns from the refusal what became of the code, and that it gave the
    /// code's proof.
    @Test func aJoinerRefusedForASpentCodeLearnsWhichAndWhen() throws {
        let code = InviteCode.make(inviter: ends.remote.peer)
        let spent = SpentInvite(.used, at: 1_764_902_820_000, inviter: "alice")
        var remote = ends.remoteHandshake(
            policy: AdmissionPolicy(spentInvites: [.init(key: code.key, invite: spent)])
        )
        var generator = SplitMix64(seed: 9)
        var joiner = Machine(role: .dialer, expected: ends.remote.peer, using: &generator)
        joiner.identified(ends.endpoints, policy: AdmissionPolicy(joins: [ends.remote.peer: code.key]))
        #expect(joiner.outcome.proof == .invite)
        guard case .send(let remoteProof)? = remote.received(joiner.offer).first,
            case .sendRecord(let proof) = joiner.received(frame(remote.offer()), now: start)
        else { throw ProofMissing() }
        #expect(remote.received(proof) == [.refuseSpentInvite(spent)])
        #expect(
            joiner.received(frame(remoteProof), now: start)
                == .confirmAdmission(remote: ends.remote.peer, via: nil, invite: nil)
        )
        _ = joiner.admission(confirmed: true, localHello: ends.hello(ends.local.peer), now: start)
        #expect(joiner.received(frame(AdmissionRecord.refusal(spent)), now: start) == .refusedByPeer(.inviteUsed))
        #expect(joiner.isClosed && joiner.outcome.refusedByPeer && joiner.outcome.spentInvite == spent)
    }

    /// An inviter's machine sends the spent code's refusal record, with its time and name.
    @Test func anInviterRefusesASpentCodeWithItsRecord() throws {
        let code = InviteCode.make(inviter: ends.local.peer)
        let spent = SpentInvite(.expired, at: 1_764_903_000_000, inviter: "alice")
        var joiner = ends.remoteHandshake(policy: AdmissionPolicy(joins: [ends.local.peer: code.key]))
        var generator = SplitMix64(seed: 9)
        var inviter = Machine(role: .acceptor, expected: nil, using: &generator)
        inviter.identified(ends.endpoints, policy: AdmissionPolicy(spentInvites: [.init(key: code.key, invite: spent)]))
        guard case .send(let proof)? = joiner.received(inviter.offer).first else { throw ProofMissing() }
        _ = inviter.received(frame(joiner.offer()), now: start)
        #expect(
            inviter.received(frame(proof), now: start)
                == .refuse(.inviteExpired, record: AdmissionRecord.refusal(spent))
        )
        #expect(inviter.isClosed && inviter.outcome.refusal == .inviteExpired && !inviter.outcome.refusedByPeer)
    }

    struct ProofMissing: Error {}

    @Test func establishedEveryEvent() {
        var machine = Phase.established.machine(ends)
        #expect(machine.received(frame(.ping), now: start) == .session([.send(.pong)]))
        #expect(machine.membersChanged() == [.sendMembers])
        #expect(machine.delivered(.success([]), now: start).isEmpty)
        #expect(
            machine.localAdvanced(to: VersionVector([ends.local.peer: 2]), now: start)
                == [.sendOperations([.init(origin: ends.local.peer, seqs: 1...2)])]
        )
        #expect(machine.tick(now: start + .seconds(10)) == [.send(.ping)])
        #expect(!machine.isClosed)

        let cases: [(String, (inout Machine) -> [Machine.Session.Action], ErrorCode?, String?)] = [
            (
                "garbage", { $0.received(frame(Array("not json".utf8)), now: start).sessionActions }, .malformedFrame,
                "?"
            ),
            (
                "refused ops", { $0.delivered(.failure(WireError(.invalidOperation, "bad")), now: start) },
                .invalidOperation, "?"
            ),
            ("silence", { $0.tick(now: start + .seconds(31)) }, .timeout, "?"),
            ("revoked", { $0.closeRequested(WireError(.revoked, "revoked")) }, .revoked, "?"),
            ("write", { $0.writeFailed("broken pipe") }, .internal, "write failed: broken pipe"),
            (
                "oversized", { $0.inboundEnded(.badFrame(.oversized(length: 1 << 30, limit: 1 << 20)), now: start) },
                .frameTooLarge, "?"
            ),
            ("shutdown", { $0.inboundEnded(.shutdown, now: start) }, .shuttingDown, nil),
            (
                "duplicate",
                { $0.established(refusal: WireError(.duplicateSession, "already connected to this peer"), now: start) },
                .duplicateSession, nil
            ),
            ("clean end", { $0.inboundEnded(.closed, now: start) }, nil, nil),
            ("lost", { $0.inboundEnded(.lost("reset"), now: start) }, nil, "connection lost: reset"),
        ]
        for (name, event, code, error) in cases {
            var closing = Phase.established.machine(ends)
            let actions = event(&closing)
            #expect(closeCode(actions) == code, "\(name)")
            #expect(closing.isClosed, "\(name)")
            if error == "?" {
                #expect(closing.outcome.error != nil, "\(name)")
            } else {
                #expect(closing.outcome.error == error, "\(name)")
            }
        }
    }

    @Test func aFloodIsRateLimited() {
        var generator = SplitMix64(seed: 3)
        var machine = Machine(
            role: .acceptor,
            expected: nil,
            rateLimit: .init(framesPerSecond: 1, frameBurst: 2, bytesPerSecond: 1 << 20, byteBurst: 1 << 20),
            using: &generator
        )
        machine.identified(ends.endpoints, policy: AdmissionPolicy(members: [ends.remote.peer]))
        var remote = ends.remoteHandshake()
        let theirProof = remote.received(machine.offer)
        _ = machine.received(frame(remote.offer()), now: start)
        guard case .send(let proof) = theirProof.first else {
            Issue.record("the remote sent no proof")
            return
        }
        _ = machine.received(frame(proof), now: start)
        _ = machine.admission(confirmed: true, localHello: ends.hello(ends.local.peer), now: start)
        _ = machine.received(frame(.hello(ends.hello(ends.remote.peer))), now: start)
        _ = machine.received(frame(.ping), now: start)
        #expect(closeCode(machine.received(frame(.ping), now: start).sessionActions) == .rateLimited)
    }

    @Test func theOutcomeSaysHowLongTheSessionWasUp() {
        var machine = Phase.established.machine(ends)
        _ = machine.inboundEnded(.closed, now: start + .seconds(12))
        #expect(machine.finished(now: start + .seconds(12)).establishedFor == .seconds(12))
        #expect(Phase.awaitingOffer.machine(ends).finished(now: start).establishedFor == nil)
    }

    @Test(arguments: Phase.allCases)
    func aClosedMachineDoesNothingMore(_ phase: Phase) {
        var machine = Phase.closed.machine(ends)
        #expect(machine.isClosed)
        #expect(machine.received(frame(.ping), now: start) == .session([]))
        #expect(machine.localAdvanced(to: VersionVector([ends.local.peer: 3]), now: start).isEmpty)
        #expect(machine.tick(now: start + .seconds(100)).isEmpty)
        #expect(machine.closeRequested(WireError(.internal, "again")).isEmpty)
        #expect(machine.inboundEnded(.closed, now: start).isEmpty)
        #expect(machine.outcome.code == .revoked)
        _ = phase
    }
}

/// The code of the close among `actions`, if any.
func closeCode(_ actions: [Machine.Session.Action]) -> ErrorCode? {
    for case .close(let error?) in actions { return error.code }
    return nil
}

func closeCode(_ action: Machine.FrameAction) -> ErrorCode? { closeCode(action.sessionActions) }

extension Machine.FrameAction {
    var sessionActions: [Machine.Session.Action] {
        if case .session(let actions) = self { actions } else { [] }
    }
}
