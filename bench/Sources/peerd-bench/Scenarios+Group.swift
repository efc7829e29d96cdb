import Foundation
import PeerControl
import PeerdModel
import PeerdTestKit
import PeerdTestSupport
import PeerdWire

/// Issue 21's rows: a search on a peer without a token, answered by the one that holds it
/// (proto/PEER.md, "Catalog queries"), and details reaching every peer while TMDB fails 80% of
/// the time.
extension Scenarios {
    func groupCatalog() throws -> [Measurement] {
        try searchThroughHolder() + flakyDetails()
    }

    /// alice holds the key, bob none; each search is new words (the holder keeps answers 10
    /// minutes), 600 ms apart (an asker may ask 2 a second).
    private func searchThroughHolder() throws -> [Measurement] {
        let scratch = try ScratchDirectory("bench-group-search")
        let tmdb = try FakeTMDB(latencyMilliseconds: 50, key: Self.benchKey, in: scratch)
        defer { tmdb.stop() }
        let alice = try TestDaemon("alice", in: scratch, arguments: tmdb.arguments, logLevel: "warning")
        let bob = try TestDaemon("bob", in: scratch, peers: [alice], logLevel: "warning")
        try waitUntil { try bob.status().search == true }
        let direct = try searches(on: alice, words: "alice")
        let through = try searches(on: bob, words: "bob")
        let p50 = through.percentile(50)
        return [
            Measurement(
                measure: "search on a peer without a token, through the holder, p50",
                value: p50,
                unit: "ms",
                target: "≤ 70 ms",
                met: p50 <= 70,
                detail: String(
                    format: "%d searches, p99 %.1f ms; on the holder itself p50 %.1f ms; TMDB answers in 50 ms",
                    through.count,
                    through.percentile(99),
                    direct.percentile(50)
                )
            )
        ]
    }

    private func searches(on daemon: TestDaemon, words: String) throws -> Sample {
        let client = try ControlClient(socketPath: daemon.socket)
        var sample = Sample()
        for n in 1...searchRuns {
            let started = ContinuousClock.now
            guard case .searchResults = try client.request(SearchRequest(query: "\(words) \(n)", year: nil, page: 1))
            else { throw BenchError("search \(n) on \(daemon.name) failed") }
            let took = started.duration(to: .now)
            sample.add(took)
            Thread.sleep(forTimeInterval: max(0, (.milliseconds(600) - took) / .seconds(1)))
        }
        return sample
    }

    /// 80% of TMDB's answers are 500s: from each add on alice (who holds the key) until bob's
    /// follow stream shows the movie's TMDB title, adds 2 s apart. Each add's own check of TMDB
    /// (issue 35) is one of the tries: a 200 there gives the title at once.
    private func flakyDetails() throws -> [Measurement] {
        let scratch = try ScratchDirectory("bench-group-flaky")
        let tmdb = try FakeTMDB(latencyMilliseconds: 50, key: Self.benchKey, fault: "fail80", in: scratch)
        defer { tmdb.stop() }
        let alice = try TestDaemon("alice", in: scratch, arguments: tmdb.arguments, logLevel: "warning")
        let bob = try TestDaemon("bob", in: scratch, peers: [alice], logLevel: "warning")
        try waitUntil { try alice.status().peersConnected == 1 && bob.status().peersConnected == 1 }
        let sample = try detailsVisible(
            addedOn: alice,
            seenOn: bob,
            movies: 300_001...(300_000 + flakyRuns),
            spacing: .seconds(2)
        )
        let p50 = sample.percentile(50) / 1000
        let p99 = sample.percentile(99) / 1000
        return [
            Measurement(
                measure: "add → details on the other peer, TMDB failing 80%, p50",
                value: p50,
                unit: "s",
                target: "≤ 10 s",
                met: p50 <= 10,
                detail: "\(sample.count) adds; was about 54 s before quick retries"
            ),
            Measurement(
                measure: "add → details on the other peer, TMDB failing 80%, p99",
                value: p99,
                unit: "s",
                target: "≤ 30 s",
                met: p99 <= 30,
                detail: String(
                    format: "%d adds, the slowest %.1f s; was 53 s before steady retries",
                    sample.count,
                    sample.percentile(100) / 1000
                )
            ),
        ]
    }

    static let benchKey = "0123456789abcdef0123456789abcdef"
}
