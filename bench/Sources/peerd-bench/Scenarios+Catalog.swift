import Foundation
import PeerControl
import PeerdModel
import PeerdTestKit
import PeerdTestSupport
import PeerdWire

/// Movie details on: alice holds a TMDB key for the fake TMDB (integration/catalog/fake_tmdb.py),
/// which answers every request after 50 ms; bob holds none.
extension Scenarios {
    func movieDetails(binDirectory: String) throws -> [Measurement] {
        let scratch = try ScratchDirectory("bench-details")
        let tmdb = try FakeTMDB(latencyMilliseconds: 50, key: "0123456789abcdef0123456789abcdef", in: scratch)
        defer { tmdb.stop() }
        let alice = try TestDaemon("alice", in: scratch, arguments: tmdb.arguments, logLevel: "warning")
        let bob = try TestDaemon(
            "bob",
            in: scratch,
            peers: [alice],
            arguments: ["--tmdb-url", tmdb.url],
            logLevel: "warning"
        )
        try waitUntil { try alice.status().peersConnected == 1 && bob.status().peersConnected == 1 }

        // An add on the holder asks TMDB first (issue 35) if a slot of peerd's cap frees within
        // 500 ms: 300 ms apart, every add finds one at once, so each waits only for TMDB's 50 ms.
        var adds = Sample()
        for n in 1...cliRuns {
            let started = ContinuousClock.now
            let status = Spawn.run(binDirectory + "/peerctl", ["--socket", alice.socket, "add", String(n)])
            let took = started.duration(to: .now)
            adds.add(took)
            guard status == 0 else { throw BenchError("peerctl add exited with \(status)") }
            if took < .milliseconds(300) { Thread.sleep(forTimeInterval: (.milliseconds(300) - took) / .seconds(1)) }
        }
        // The adds above queued a fetch each: those drain first, at peerd's 4 requests a second.
        try waitUntil(timeout: .seconds(120)) { try bob.list().allSatisfy { $0.title != nil } }
        let fromHolder = try detailsVisible(addedOn: alice, seenOn: bob, movies: 100_001...(100_000 + detailRuns))
        let fromOther = try detailsVisible(addedOn: bob, seenOn: bob, movies: 200_001...(200_000 + tokenlessRuns))
        return detailsMeasurements(adds: adds, fromHolder: fromHolder, fromOther: fromOther)
    }

    /// From each add on `adder` until `watcher`'s follow stream shows the movie's TMDB title. The adds
    /// are `spacing` apart at least: 300 ms, so peerd's own cap of 4 requests a second never holds
    /// one back.
    func detailsVisible(
        addedOn adder: TestDaemon,
        seenOn watcher: TestDaemon,
        movies: ClosedRange<Int>,
        spacing: Duration = .milliseconds(300)
    ) throws -> Sample {
        let follower = try ControlClient(socketPath: watcher.socket)
        try follower.send(FollowRequest())
        _ = try follower.receive()
        let writer = try ControlClient(socketPath: adder.socket)
        var sample = Sample()
        for n in movies {
            let started = ContinuousClock.now
            _ = try writer.request(AddRequest(movie: Movie(id: MovieID(n)!)))
            while true {
                if case .change(let change) = try follower.receive(), change.movieId == n,
                    change.row?.title == "Movie \(n)"
                {
                    break
                }
            }
            let took = started.duration(to: .now)
            sample.add(took)
            if took < spacing { Thread.sleep(forTimeInterval: (spacing - took) / .seconds(1)) }
        }
        return sample
    }

    private func detailsMeasurements(adds: Sample, fromHolder: Sample, fromOther: Sample) -> [Measurement] {
        let addP50 = adds.percentile(50)
        let p50 = fromHolder.percentile(50)
        return [
            Measurement(
                measure: "peerctl add on the token holder, p50",
                value: addP50,
                unit: "ms",
                target: "≤ 10 ms beyond TMDB's 50 ms",
                met: addP50 <= 60,
                detail: String(
                    format: "%d runs, p99 %.1f ms; the add waits for TMDB's answer (50 ms) before it is written",
                    adds.count,
                    adds.percentile(99)
                )
            ),
            Measurement(
                measure: "add → details visible on the peer, p50",
                value: p50 / 1000,
                unit: "s",
                target: "≤ 1 s",
                met: p50 <= 1000,
                detail: "\(fromHolder.count) adds on the peer holding the token, 50 ms TMDB"
            ),
            Measurement(
                measure: "add → details visible on the peer, p99",
                value: fromHolder.percentile(99) / 1000,
                unit: "s",
                target: "none",
                met: true,
                detail: "\(fromHolder.count) adds"
            ),
            Measurement(
                measure: "add on a peer without a token → details visible there, p50",
                value: fromOther.percentile(50) / 1000,
                unit: "s",
                target: "none",
                met: true,
                detail: String(
                    format: "%d adds, p99 %.2f s; the holder waits its turn, 1 to 5 s",
                    fromOther.count,
                    fromOther.percentile(99) / 1000
                )
            ),
        ]
    }
}

/// integration/catalog/fake_tmdb.py as a process of its own: the fake TMDB the tests use, with
/// made-up details for any id (`--synthetic`).
final class FakeTMDB {
    let process = Process()
    let url: String
    let keyFile: String

    init(latencyMilliseconds: Int, key: String, fault: String = "ok", in scratch: ScratchDirectory) throws {
        keyFile = scratch.path("tmdb.key")
        guard
            FileManager.default.createFile(
                atPath: keyFile,
                contents: Data(key.utf8),
                attributes: [.posixPermissions: 0o600]
            )
        else { throw BenchError("cannot write \(keyFile)") }
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "integration/catalog/fake_tmdb.py", "--port", "0", "--token", key, "--synthetic",
            "--latency-ms", String(latencyMilliseconds), "--fault", fault,
        ]
        process.standardOutput = output
        try process.run()
        let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        guard line.hasPrefix("http://") else {
            process.terminate()
            throw BenchError("the fake TMDB did not start (run from the repository's root): \(line)")
        }
        url = line.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    var arguments: [String] { ["--tmdb-url", url, "--tmdb-token-file", keyFile] }

    func stop() {
        process.terminate()
        process.waitUntilExit()
    }
}
