import PeerdModel
import PropertyBased
import Testing

/// DESIGN.md "Merge semantics", checked on simulated histories of a few replicas.
@Suite struct WatchListMergePropertyTests {
    @Test func mergingIsCommutative() async {
        await propertyCheck(input: Gen.subsets(2)) { deliveries in
            let (a, b) = (deliveries.list(0), deliveries.list(1))
            #expect(a.merged(with: b) == b.merged(with: a))
            #expect(a.merged(with: b).rows == b.merged(with: a).rows)
        }
    }

    @Test func mergingIsAssociative() async {
        await propertyCheck(input: Gen.subsets(3)) { deliveries in
            let (a, b, c) = (deliveries.list(0), deliveries.list(1), deliveries.list(2))
            let left = a.merged(with: b).merged(with: c)
            let right = a.merged(with: b.merged(with: c))
            #expect(left == right)
            #expect(left.rows == right.rows)
        }
    }

    @Test func mergingIsIdempotent() async {
        await propertyCheck(input: Gen.subsets(2)) { deliveries in
            let (a, b) = (deliveries.list(0), deliveries.list(1))
            #expect(a.merged(with: a) == a)
            #expect(a.merged(with: a).rows == a.rows)
            let ab = a.merged(with: b)
            #expect(ab.merged(with: b) == ab)
            #expect(ab.merged(with: b).rows == ab.rows)
        }
    }

    @Test func mergingWithAnEmptyListChangesNothing() async {
        await propertyCheck(input: Gen.subsets(1)) { deliveries in
            let a = deliveries.list(0)
            #expect(a.merged(with: WatchList()) == a)
            #expect(WatchList().merged(with: a).rows == a.rows)
        }
    }

    @Test func theSameOperationsInAnyOrderShowTheSameRowsInTheSameOrder() async {
        await propertyCheck(input: Gen.permutations(3)) { deliveries in
            let asMade = WatchList(applying: deliveries.history.operations)
            for index in deliveries.arrangements.indices {
                let list = deliveries.list(index)
                #expect(list == asMade)
                #expect(list.rows == asMade.rows)
                #expect(list.count == asMade.count)
            }
        }
    }

    @Test func rowsAreWhatTheMergeRulesSayTheyAre() async {
        await propertyCheck(input: Gen.permutations(1)) { deliveries in
            let list = deliveries.list(0)
            #expect(list.rows == referenceRows(of: deliveries.history.operations))
            #expect(list.relays == referenceRelays(of: deliveries.history.operations))
            #expect(list.reachOperations == referenceReaches(of: deliveries.history.operations))
            for row in list.rows {
                #expect(list.row(for: row.movie.id) == row)
            }
        }
    }

    @Test func applyingAnOperationTwiceChangesNothingAndReportsNothing() async {
        await propertyCheck(input: Gen.permutations(1)) { deliveries in
            var once = WatchList()
            var twice = WatchList()
            for operation in deliveries.arrangements[0] {
                once.apply(operation)
                twice.apply(operation)
                let before = twice
                #expect(twice.apply(operation) == nil, "second apply of \(operation.id)")
                #expect(twice == before)
            }
            #expect(twice == once)
            #expect(twice.rows == once.rows)

            // Replaying everything afterwards, in any order, is also a no-op.
            for operation in deliveries.history.operations.reversed() {
                #expect(twice.apply(operation) == nil, "replay of \(operation.id)")
            }
            #expect(twice == once)
            #expect(twice.rows == once.rows)
        }
    }

    @Test func stateBasedMergeEqualsApplyingTheUnionOfOperations() async {
        await propertyCheck(input: Gen.subsets(2)) { deliveries in
            let merged = deliveries.list(0).merged(with: deliveries.list(1))
            let union = Set(deliveries.arrangements[0]).union(deliveries.arrangements[1])
            let applied = WatchList(applying: deliveries.history.operations.filter(union.contains))
            #expect(merged == applied)
            #expect(merged.rows == applied.rows)
            #expect(merged.rows == referenceRows(of: union))
            #expect(merged.relays == referenceRelays(of: union))
            #expect(merged.reachOperations == referenceReaches(of: union))
        }
    }
}
