import Foundation
import PeerControl
import PeerdModel
import PeerdSecurity
import PeerdTestKit
import PeerdTestSupport
import PeerdWire
import Testing

/// Issue 37, "Tested under faults": a member that signs its own operations tries to get around a
/// removal from the group, against a real daemon. Each attempt is refused as proto/PEER.md says
/// ("Membership", "Receiving `ops`", "Signed operations"): a removed key's operations beyond what
/// its remover had seen count nowhere, whatever their lamport or `at`, whoever relays them; a
/// removal is a signed operation like any other, and a bad signature is `invalid-operation`.
@Suite("Insiders attacking a removal from the group")
struct RemovalAttackTests {
    /// A real daemon, alice, that trusts the insiders' keys by hand (`peerctl trust`): they connect
    /// with no proof at all, as members she pinned.
    struct Alice {
        let scratch: ScratchDirectory
        let alice: TestDaemon

        init(_ label: String, pinning chains: [SignedChain], peers: [TestDaemon] = []) throws {
            scratch = try ScratchDirectory(label)
            alice = try TestDaemon("alice", in: scratch, peers: peers)
            for chain in chains {
                let run = try alice.peerctl("trust", chain.peer.rawValue)
                #expect(run.status == 0, "peerctl trust \(chain.name): \(run)")
            }
        }

        /// `removeMember` through the control socket, as `peerctl members remove` sends it.
        func remove(_ peer: PeerID) throws -> MemberRemovedRecord? {
            let response = try alice.control(RemoveMemberRequest(peer: peer.rawValue))
            guard case .memberRemoved(let removed) = response else {
                Issue.record("removeMember \(peer.short) was answered \(response)")
                return nil
            }
            return removed
        }

        /// One insider's session: hello, then `body`; it must be admitted.
        func session<Result: Sendable>(
            _ chain: SignedChain,
            _ body: (InsiderSession) async throws -> Result
        ) async throws -> Result {
            try await InsiderSession.open(port: alice.port, identity: chain.identity) { session in
                #expect(session.admitted, "\(chain.name) refused, reason \(session.refusalReason ?? 0)")
                try await session.hello(name: chain.name)
                return try await body(session)
            }
        }

        /// Whether the daemon's log file holds `operation` as it was signed.
        func logHolds(_ operation: PeerdModel.Operation) throws -> Bool {
            try OperationsCanGrowEndToEndTests.logHolds(alice, operation)
        }

        /// What a removed key's operation must not leave anywhere: a row, a history line, a log entry.
        func holdsNothingOf(_ operations: [PeerdModel.Operation]) throws {
            let listed = Set(try alice.movieIDs())
            let history = try alice.history()
            for op in operations {
                #expect(!listed.contains(op.movie.id.rawValue), "\(op.id) listed \(op.movie.id)")
                #expect(try !logHolds(op), "\(op.id) was stored in the log")
                #expect(
                    !history.contains { $0.peer == op.id.origin && $0.movieId == op.movie.id.rawValue },
                    "\(op.id) is in the history"
                )
            }
        }
    }

    // MARK: (1) back-dating

    /// proto/PEER.md, "Membership": no lamport or `at` can shield a member from its removal. Once
    /// alice committed mallory's removal, mallory's next operation, with a lamport below the
    /// removal's and a 1970 `at`, counts nowhere: on mallory's own session (which alice closes with
    /// `removed`) and relayed by eve, a member, whose session stays up. mallory can't come back.
    @Test func aRemovedMemberCannotBackDateAnOperationBeforeItsRemoval() async throws {
        var mallory = try SignedChain("mallory")
        var eve = try SignedChain("eve")
        let group = try Alice("backdate", pinning: [mallory, eve])
        let alice = group.alice
        // alice's lamport climbs above what mallory will claim.
        for movie in 601...605 { #expect(try alice.peerctl("add", String(movie)).status == 0) }
        let early = [mallory.add(11, lamport: 1), mallory.add(12, lamport: 2)]
        var backDated: PeerdModel.Operation?
        try await group.session(mallory) { session in
            try await session.sendOps(early)
            #expect(try await alice.waitUntil { try alice.movieIDs().contains(12) })
            let removed = try group.remove(mallory.peer)
            #expect(removed?.seen == 2)
            #expect(removed?.closed == 1)
            let sent = mallory.add(13, lamport: 3, at: 1_000)
            backDated = sent
            let started = ContinuousClock.now
            try? await session.sendOps([sent])
            #expect(try await session.closedByDaemon(within: .seconds(5)), "alice kept mallory's session")
            print("mallory's session closed \(ContinuousClock.now - started) after her removal was answered")
            #expect(session.errorCodes == ["removed"], "frames: \(session.frames)")
        }
        let sent = try #require(backDated)
        try await group.session(eve) { session in
            try await session.sendOps([sent])
            try await session.sendOps([eve.add(21, lamport: 50)])
            #expect(try await alice.waitUntil { try alice.movieIDs().contains(21) })
            #expect(try await session.answersPing(), "eve's session did not stay up: \(session.frames)")
            #expect(session.errorCodes.isEmpty)
        }
        try group.holdsNothingOf([sent])
        #expect(Set(try alice.movieIDs()) == [601, 602, 603, 604, 605, 11, 12, 21])
        // SECURITY.md: a removed key is refused at admission, reason 9 (`removed`).
        let refused = try await InsiderSession.open(port: alice.port, identity: mallory.identity) { $0.refusalReason }
        #expect(refused == AdmissionRefusal.removed.rawValue, "mallory, removed, came back: refusal \(refused ?? 0)")
    }

    // MARK: (2) relaying a removed key's operations

    /// proto/PEER.md, "Receiving `ops`" and "Membership": carol's operations beyond what alice had
    /// seen when she removed carol are dropped when mallory, still a member, relays them, even in
    /// one `ops` message with an operation of mallory's own, which is kept. Dropping is not refusing:
    /// no error, and mallory's session stays up.
    @Test func aRemovedKeysOperationsRelayedByAMemberAreDroppedAndTheRelayStaysConnected() async throws {
        var carol = try SignedChain("carol")
        var mallory = try SignedChain("mallory")
        let group = try Alice("relay", pinning: [carol, mallory])
        let alice = group.alice
        let before = [carol.add(31, lamport: 1), carol.add(32, lamport: 2)]
        try await group.session(carol) { session in
            try await session.sendOps(before)
            #expect(try await alice.waitUntil { try alice.movieIDs().contains(32) })
        }
        let removed = try group.remove(carol.peer)
        #expect(removed?.seen == 2)
        let beyond = [carol.add(33, lamport: 3), carol.add(34, lamport: 4)]
        try await group.session(mallory) { session in
            try await session.sendOps(beyond + [mallory.add(41, lamport: 10)])
            #expect(try await alice.waitUntil { try alice.movieIDs().contains(41) }, "mallory's own add was lost")
            try await session.sendOps([carol.add(35, lamport: 5), mallory.add(42, lamport: 11)])
            #expect(try await alice.waitUntil { try alice.movieIDs().contains(42) })
            #expect(try await session.answersPing(), "mallory's session did not stay up: \(session.frames)")
            #expect(session.errorCodes.isEmpty)
        }
        try group.holdsNothingOf(beyond + [carol.made[4]])
        #expect(Set(try alice.movieIDs()) == [31, 32, 41, 42])
        let members = try alice.members()
        let carolRecord = members.first { $0.peer == carol.peer }
        #expect(carolRecord?.state == .removed)
        let aliceID = try alice.status().peer
        #expect(carolRecord?.removedBy == aliceID)
        #expect(carolRecord?.seen == 2)
        #expect(members.first { $0.peer == mallory.peer }?.state == .member)
    }

    // MARK: (3) forged removals

    /// proto/PEER.md, "Signed operations": a removal is verified like any operation. mallory sends a
    /// removal of alice in bob's name, signed with her own key, then one of her own chain altered
    /// after she signed it: each is `invalid-operation` and a close, and nobody is removed.
    @Test func aRemovalWithAForgedSignatureIsRefusedAndChangesNothing() async throws {
        let scratch = try ScratchDirectory("forged-removal")
        let bob = try TestDaemon("bob", in: scratch)
        var mallory = try SignedChain("mallory")
        let group = try Alice("forged-removal-alice", pinning: [mallory], peers: [bob])
        let alice = group.alice
        let aliceID = try alice.status().peer
        let bobID = try bob.status().peer
        #expect(try bob.peerctl("add", "603").status == 0)
        #expect(try await alice.waitUntil { try alice.movieIDs() == [603] })

        try await group.session(mallory) { session in
            // Next in bob's chain (his secret record and his add came before), chained to his last.
            let bobsLast = try #require(try await session.lastOperation(of: bobID))
            let forged = SignedChain.forged(
                .remove(aliceID, seen: 0),
                as: OperationID(origin: bobID, seq: bobsLast.id.seq + 1),
                by: "bob",
                after: bobsLast,
                signedBy: mallory.identity
            )
            try await session.sendOps([forged])
            #expect(try await session.closedByDaemon(within: .seconds(10)), "alice took a removal bob never signed")
            #expect(session.errorCodes == ["invalid-operation"], "frames: \(session.frames)")
        }
        try await group.session(mallory) { session in
            try await session.sendOps([mallory.add(41, lamport: 1)])
            #expect(try await alice.waitUntil { try alice.movieIDs().contains(41) })
            let signed = mallory.member(.remove(bobID, seen: 1), lamport: 2)
            try await session.sendOps([signed.withMember(.remove(aliceID, seen: 0))])
            #expect(
                try await session.closedByDaemon(within: .seconds(10)),
                "alice took a removal altered after signing"
            )
            #expect(session.errorCodes == ["invalid-operation"], "frames: \(session.frames)")
        }
        // Nothing changed: nobody removed, alice still makes operations and bob still gets them.
        for daemon in [alice, bob] {
            let removed = try daemon.members().filter { $0.state == .removed }
            #expect(removed.isEmpty, "\(daemon.name) shows removed: \(removed)")
        }
        #expect(try alice.peerctl("add", "550").status == 0)
        #expect(try await bob.waitUntil { try bob.movieIDs().contains(550) })
    }
}

// MARK: What the tests ask a daemon

extension TestDaemon {
    fileprivate func control(_ body: some ControlRequestBody) throws -> ControlResponse {
        try ControlClient(socketPath: socket).request(body)
    }

    fileprivate func members() throws -> [MemberRecord] {
        let response = try control(MembersRequest())
        guard case .members(let record) = response else {
            Issue.record("\(name): members was answered \(response)")
            return []
        }
        return record.members
    }

    /// The whole history, newest first.
    fileprivate func history() throws -> [HistoryEntryRecord] {
        var entries: [HistoryEntryRecord] = []
        var before: String?
        repeat {
            guard case .history(let page) = try control(HistoryRequest(limit: 1_000, before: before)) else {
                throw Failure.unexpected
            }
            entries += page.entries
            before = page.next
        } while before != nil
        return entries
    }
}

extension InsiderSession {
    /// The last operation of `origin` the daemon held when it said hello, as its catch-up sent it.
    fileprivate func lastOperation(of origin: PeerID) async throws -> PeerdModel.Operation? {
        let hello = try await firstFrame(fromStart: true) { $0.type == "hello" }
        guard let hello, case .hello(let said) = try WireCoding.decode(PeerMessage.self, from: hello.bytes) else {
            return nil
        }
        return try await operation(OperationID(origin: origin, seq: said.vector[origin]))
    }

    /// Operation `id` as the daemon sent it to us (its catch-up), once it came; nil if the session
    /// ended first.
    fileprivate func operation(_ id: OperationID) async throws -> PeerdModel.Operation? {
        let frame = try await firstFrame(fromStart: true) { frame in
            guard case .ops(let ops) = try? WireCoding.decode(PeerMessage.self, from: frame.bytes) else { return false }
            return ops.contains { $0.id == id }
        }
        guard let frame, case .ops(let ops) = try WireCoding.decode(PeerMessage.self, from: frame.bytes) else {
            return nil
        }
        return ops.first { $0.id == id }
    }
}
