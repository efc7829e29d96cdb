import PeerdModel
import PropertyBased
import Testing

@Suite struct ReplicaConvergenceTests {
    @Test func replicasThatExchangeEverythingShowTheSameList() async {
        await propertyCheck(input: Gen.replicaSchedule) { schedule in
            var network = ReplicaNetwork(count: schedule.replicaCount)
            for step in schedule.steps {
                try network.perform(step)
            }
            try network.settle()

            let first = network.replicas[0]
            let everything = first.vector.missing(from: VersionVector()).flatMap {
                first.operations(from: $0.origin, seqs: $0.seqs)
            }
            for replica in network.replicas {
                #expect(replica.vector == first.vector)
                #expect(replica.list == first.list)
                #expect(replica.list.rows == first.list.rows)
            }
            #expect(first.list.rows == referenceRows(of: everything))
        }
    }

    @Test func aRemovalRelayedAheadOfTheAddItNamesStillRemovesIt() throws {
        var network = ReplicaNetwork(count: 3)
        try network.perform(.request(replica: 0, .add(Movie(id: movieID(603))), persisted: true))
        try network.pull(into: 1, from: 0)
        try network.perform(.request(replica: 1, .remove(movieID(603)), persisted: true))

        // Carol hears Bob's stream (with his removal) before Alice's (with her add).
        let bobsRemoval = Array(network.replicas[1].operations(from: Peers.bob, seqs: 1...1))
        _ = network.replicas[2].commit(try network.replicas[2].admit(bobsRemoval))
        try network.pull(into: 2, from: 0)

        #expect(network.replicas[2].list.count == 0)
        #expect(network.replicas[2].vector == network.replicas[1].vector)
        #expect(network.replicas[2].list == network.replicas[1].list)
    }
}
