import Foundation
import Logging
import PeerControl
import PeerdModel
import PeerdSecurity
import PeerdStore
import PeerdTestKit
import PeerdTestSupport
import PeerdWire
import SystemPackage

/// The measurements `make bench` takes, each on real peerd processes over loopback.
struct Scenarios {
    var adds = 1_000
    var catchUpMovies = 100_000
    var cliRuns = 200
    var coldStarts = 5
    var detailRuns = 50
    var tokenlessRuns = 10
    /// Searches on a peer without a token, through the holder; adds while TMDB fails 80%.
    var searchRuns = 20
    var flakyRuns = 50
    /// Full meshes (Scenarios+Mesh.swift): their sizes, the adds shared on each, and the paces they
    /// run at, in adds a second (0: each add once the one before is acknowledged). Unpaced, only
    /// the smallest and largest run: the ratio between them is what is bounded.
    var meshSizes = [10, 20, 30]
    var meshAdds = 1_000
    var meshRates = [40.0, 0]
    /// Unpaced, each mesh runs at its own speed and the ratio varies from run to run (4.0–5.0× over
    /// four runs of one build): the pair runs this many times and the median ratio is the row.
    var unpacedRounds = 3
    /// Seconds over which wakeups at rest are counted (Scenarios+Idle.swift).
    var idleSeconds = 60.0

    /// p50/p99 from an add on alice (acknowledged, so fsynced) until bob's follow stream shows it.
    func addToVisible() throws -> [Measurement] {
        let scratch = try ScratchDirectory("bench-latency")
        let alice = try TestDaemon("alice", in: scratch, logLevel: "warning")
        let bob = try TestDaemon("bob", in: scratch, peers: [alice], logLevel: "warning")
        try waitUntil { try alice.status().peersConnected == 1 && bob.status().peersConnected == 1 }
        let follower = try ControlClient(socketPath: bob.socket)
        try follower.send(FollowRequest())
        _ = try follower.receive()
        let writer = try ControlClient(socketPath: alice.socket)
        var sample = Sample()
        let clock = ContinuousClock()
        for n in 1...adds {
            let started = clock.now
            _ = try writer.request(AddRequest(movie: Movie(id: MovieID(n)!, title: "Movie \(n)")))
            while true {
                if case .change(let change) = try follower.receive(), change.movieId == n { break }
            }
            sample.add(started.duration(to: clock.now))
        }
        let p50 = sample.percentile(50)
        let p99 = sample.percentile(99)
        return [
            Measurement(
                measure: "add → visible on the peer, p50",
                value: p50,
                unit: "ms",
                target: "≤ 5 ms",
                met: p50 <= 5,
                detail: "\(sample.count) adds, each fsynced on both peers"
            ),
            Measurement(
                measure: "add → visible on the peer, p99",
                value: p99,
                unit: "ms",
                target: "≤ 20 ms",
                met: p99 <= 20,
                detail: "\(sample.count) adds"
            ),
        ]
    }

    /// A fresh peer joins one that holds `catchUpMovies`; also cold start and memory at that size.
    /// (Memory at rest is `idleMemory()`.)
    func catchUpAndMemory() throws -> [Measurement] {
        let scratch = try ScratchDirectory("bench-catchup")
        let seeded = scratch.path("state-big")
        try seedMarkedLog(in: seeded, movies: catchUpMovies)

        let (source, starts) = try coldStarts(in: scratch) { try $0.status().movies == catchUpMovies }
        let bigRSS = Double(source.residentBytes ?? 0) / 1_048_576

        let (fresh, seconds) = try freshPeerCatchingUp(from: source, operations: catchUpMovies, in: scratch)
        let rate = Double(catchUpMovies) / seconds
        let freshRSS = Double(fresh.residentBytes ?? 0) / 1_048_576
        return [
            Measurement(
                measure: "catch-up",
                value: rate,
                unit: "ops/s",
                target: "≥ 100,000 ops/s",
                met: rate >= 100_000,
                detail: "\(catchUpMovies) ops in \(String(format: "%.2f", seconds)) s, from the new peer's start"
            ),
            Measurement(
                measure: "daemon RSS, 100k movies",
                value: max(bigRSS, freshRSS),
                unit: "MB",
                target: "≤ 64 MB",
                met: max(bigRSS, freshRSS) <= 64,
                detail: String(format: "loaded from disk %.1f MB, after catch-up %.1f MB", bigRSS, freshRSS)
            ),
            starts.measurement("cold start with 100k movies"),
        ]
    }

    /// Starts of a daemon on the seeded state in `scratch`, each until its control socket answers
    /// and `loaded` says it holds what was seeded: the first replays the whole log (there is no
    /// snapshot yet), and each later one reads the snapshot the one before kept when it stopped.
    func coldStarts(
        in scratch: ScratchDirectory,
        loaded: (TestDaemon) throws -> Bool
    ) throws -> (daemon: TestDaemon, starts: ColdStarts) {
        var starts = ColdStarts()
        var daemon: TestDaemon?
        for _ in 0..<max(coldStarts, 2) {
            daemon?.stop()
            let clock = ContinuousClock()
            let started = clock.now
            daemon = try TestDaemon("big", in: scratch, logLevel: "warning")
            let took = started.duration(to: clock.now)
            if starts.wholeLog == nil { starts.wholeLog = took } else { starts.fromSnapshot.add(took) }
            guard try loaded(daemon!) else { throw BenchError("the seeded state did not load") }
        }
        return (daemon!, starts)
    }

    /// A fresh peer joining `source`, and the seconds from its start until it holds `operations`
    /// (at least: the two admit each other with a signed `member` operation, which may come first).
    func freshPeerCatchingUp(
        from source: TestDaemon,
        operations: Int,
        in scratch: ScratchDirectory
    ) throws -> (fresh: TestDaemon, seconds: Double) {
        let clock = ContinuousClock()
        let started = clock.now
        let fresh = try TestDaemon("fresh", in: scratch, peers: [source], logLevel: "warning")
        try waitUntil(timeout: .seconds(240), every: .milliseconds(5)) {
            try fresh.status().operations >= operations
        }
        let elapsed = started.duration(to: clock.now)
        return (fresh, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    /// The real peerctl binary, process start included.
    func peerctlAdd(binDirectory: String) throws -> [Measurement] {
        let scratch = try ScratchDirectory("bench-cli")
        let alice = try TestDaemon("alice", in: scratch, logLevel: "warning")
        var sample = Sample()
        let clock = ContinuousClock()
        for n in 1...cliRuns {
            let started = clock.now
            let status = Spawn.run(binDirectory + "/peerctl", ["--socket", alice.socket, "add", String(n)])
            sample.add(started.duration(to: clock.now))
            guard status == 0 else { throw BenchError("peerctl add exited with \(status)") }
        }
        let p50 = sample.percentile(50)
        return [
            Measurement(
                measure: "peerctl add end to end, p50",
                value: p50,
                unit: "ms",
                target: "≤ 10 ms",
                met: p50 <= 10,
                detail: String(
                    format: "%d runs, p99 %.1f ms, process start and fsync included",
                    sample.count,
                    sample.percentile(99)
                )
            )
        ]
    }

    func waitUntil(
        timeout: Duration = .seconds(30),
        every interval: Duration = .milliseconds(20),
        _ condition: () throws -> Bool
    ) throws {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if (try? condition()) == true { return }
            Thread.sleep(forTimeInterval: interval / .seconds(1))
        }
        throw BenchError("timed out after \(timeout)")
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
