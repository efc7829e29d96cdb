import PeerdModel
import PeerdTestKit
import PropertyBased
import Testing

/// proto/PEER.md "Membership", checked on random groups delivered to replicas in random orders
/// against ``ReferenceMembership``.
@Suite struct MembershipPropertyTests {
    @Test func replicasReceivingTheSameChainsInDifferentOrdersEndTheSame() async {
        await propertyCheck(input: Gen.memberDeliveries) { deliveries in
            guard ReferenceMembership(deliveries.chains.operations).hasOneChoice else { return }
            guard let (first, second) = Self.receive(deliveries) else { return }
            #expect(first.vector == second.vector)
            #expect(first.list == second.list)
            #expect(first.list.rows == second.list.rows)
            for movie in History.moviePool.map(movieID) {
                #expect(first.list.marks.marks(of: movie, names: nil) == second.list.marks.marks(of: movie, names: nil))
            }
            #expect(first.membership.cutoffs == second.membership.cutoffs)
            #expect(first.membership.removals.map(\.id) == second.membership.removals.map(\.id))
            #expect(first.membership.admitted == second.membership.admitted)
        }
    }

    @Test func theMembershipIsTheReferences() async {
        await propertyCheck(input: Gen.memberDeliveries) { deliveries in
            let reference = ReferenceMembership(deliveries.chains.operations)
            guard reference.hasOneChoice else { return }
            guard let (replica, _) = Self.receive(deliveries) else { return }
            let membership = replica.membership
            #expect(membership.cutoffs == reference.cutoffs)
            #expect(Set(membership.removals.map(\.id)) == reference.applying)
            #expect(membership.admitted == reference.admitted)
            for secret in MemberChains.secrets {
                #expect(membership.secretAdmits(secret) == reference.secretAdmits(secret), "secret \(secret)")
            }
        }
    }

    @Test func replicasHoldExactlyTheOperationsThatCount() async {
        await propertyCheck(input: Gen.memberDeliveries) { deliveries in
            let reference = ReferenceMembership(deliveries.chains.operations)
            guard reference.hasOneChoice else { return }
            guard let (replica, _) = Self.receive(deliveries) else { return }
            for key in deliveries.chains.keys {
                let chain = deliveries.chains.chains[key] ?? []
                let counting = chain.filter { reference.counts($0.id) }
                #expect(replica.vector[key] == UInt64(counting.count), "\(Peers.name(of: key))")
                if !counting.isEmpty {
                    let held = replica.operations(from: key, seqs: 1...UInt64(counting.count))
                    #expect(held.map(\.id) == counting.map(\.id))
                    #expect(held.map(\.kind) == counting.map(\.kind))
                }
                let beyond = UInt64(counting.count) + 1
                #expect(replica.operations(from: key, seqs: beyond...beyond).isEmpty)
            }
            #expect(replica.list.rows == referenceRows(of: reference.counting))
        }
    }

    @Test func lamportsDoNotMoveACutoff() async {
        await propertyCheck(input: Gen.memberDeliveries) { deliveries in
            guard ReferenceMembership(deliveries.chains.operations).hasOneChoice else { return }
            var rng = SplitMix64(seed: UInt64(deliveries.chains.operations.count))
            var relamported = deliveries
            relamported.chains = deliveries.chains.relamported(using: &rng)
            relamported.orders = relamported.orders.map { order in
                order.map { op in relamported.chains.chains[op.id.origin]![Int(op.id.seq - 1)] }
            }
            guard let (asMade, _) = Self.receive(deliveries), let (other, _) = Self.receive(relamported) else { return }
            #expect(other.membership.cutoffs == asMade.membership.cutoffs)
            #expect(Set(other.membership.removals.map(\.id)) == Set(asMade.membership.removals.map(\.id)))
            #expect(other.vector == asMade.vector)
            #expect(ReferenceMembership(relamported.chains.operations).cutoffs == asMade.membership.cutoffs)
        }
    }

    @Test func aReplicaReplayingWhatItHeldFoldsTheSameMembership() async {
        // What a peer replays from its log at start: the operations that count, in the group's order.
        await propertyCheck(input: Gen.memberDeliveries) { deliveries in
            let reference = ReferenceMembership(deliveries.chains.operations)
            guard reference.hasOneChoice else { return }
            var replica = Replica(id: Peers.observers[0], name: "observer")
            let (applied, skipped) = replica.replay(reference.counting.sorted { $0.orderKey < $1.orderKey })
            #expect(skipped == 0 && applied == reference.counting.count)
            let dropped = replica.dropVoidOperations(cause: nil)
            #expect(dropped == nil)
            #expect(replica.membership.cutoffs == reference.cutoffs)
            #expect(Set(replica.membership.removals.map(\.id)) == reference.applying)
        }
    }

    /// Two observers: each receives one of the orders in batches, then catches up. Nil when one of
    /// them never settles: a known issue, ``MembershipTests/aPeerThatHeardTheRemovalsInABadOrderSettles()``.
    static func receive(_ deliveries: MemberDeliveries) -> (Replica, Replica)? {
        var receivers = Peers.observers.map(MemberReceiver.init)
        for index in receivers.indices {
            receivers[index].receive(deliveries.orders[index], inBatchesOf: deliveries.batchSizes)
            guard receivers[index].catchUp(on: deliveries.chains) else { return nil }
        }
        return (receivers[0].replica, receivers[1].replica)
    }
}
