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

/// Members' marks at a household's scale and well past it (issue 22's rows): the unseen list, cold
/// start with marks and memory per pick, each a scenario of its own (`--only "unseen list"`).
extension Scenarios {
    /// RSS growth per open pick: 10 picks of 200 movies each opened on a daemon holding 10,000
    /// movies, each voted through (200 votes), none closed.
    func pickMemory() throws -> [Measurement] {
        let scratch = try ScratchDirectory("bench-picks")
        try seedMarkedLog(in: scratch.path("state-home"), movies: 10_000, members: 5, marks: 10_000)
        let home = try TestDaemon("home", in: scratch, logLevel: "warning")
        let client = try ControlClient(socketPath: home.socket)
        _ = try client.request(ListRequest(limit: 1, after: nil))
        Thread.sleep(forTimeInterval: 1)  // settled after start: the baseline RSS
        let before = Double(home.residentBytes ?? 0) / 1_048_576
        let picks = 10
        for _ in 1...picks {
            guard case .pickState(let pick) = try client.request(PickOpening(with: [])) else {
                throw BenchError("a pick did not open")
            }
            for card in pick.deck {
                let yes = card.movieId % 3 == 0
                guard
                    case .pickState = try client.request(
                        VoteRequest(pick: pick.pick, movie: MovieID(card.movieId), yes: yes, ranking: nil)
                    )
                else { throw BenchError("a vote was refused") }
            }
        }
        let after = Double(home.residentBytes ?? 0) / 1_048_576
        let each = (after - before) / Double(picks)
        return [
            Measurement(
                measure: "RSS growth per open pick",
                value: each,
                unit: "MB",
                target: "≤ 5 MB",
                met: each <= 5,
                detail: String(format: "10 picks of 200 movies, each voted through: %.1f → %.1f MB", before, after)
            )
        ]
    }

    /// `peerctl list --unseen --by m1,m2` over 10,000 movies carrying 50,000 marks of 5 members,
    /// the real binary end to end (process start, every page fetched, the table printed).
    func unseenList(binDirectory: String) throws -> [Measurement] {
        let scratch = try ScratchDirectory("bench-marks")
        let (movies, marks) = (10_000, 50_000)
        try seedMarkedLog(in: scratch.path("state-home"), movies: movies, members: 5, marks: marks)
        let home = try TestDaemon("home", in: scratch, logLevel: "warning")
        guard try home.status().movies == movies else { throw BenchError("the marked list did not load") }
        var sample = Sample()
        let clock = ContinuousClock()
        for _ in 1...max(cliRuns / 4, 5) {
            let started = clock.now
            let status = Spawn.run(
                binDirectory + "/peerctl",
                ["--socket", home.socket, "list", "--unseen", "--by", "m1,m2"]
            )
            sample.add(started.duration(to: clock.now))
            guard status == 0 else { throw BenchError("peerctl list --unseen exited with \(status)") }
        }
        let p50 = sample.percentile(50)
        return [
            Measurement(
                measure: "list --unseen --by, 10k movies with 50k marks, p50",
                value: p50,
                unit: "ms",
                target: "≤ 50 ms",
                met: p50 <= 50,
                detail: String(
                    format: "%d runs of peerctl end to end, p99 %.1f ms; 5 members, 2 named",
                    sample.count,
                    sample.percentile(99)
                )
            )
        ]
    }

    /// Spawn until the control socket answers, with 100,000 movies and 200,000 marks on disk; the
    /// daemon's RSS then; `history`'s first page over those 300,000 operations; and a fresh peer
    /// catching up all of them (issue 40's rows).
    func coldStartWithMarks() throws -> [Measurement] {
        let scratch = try ScratchDirectory("bench-marks-cold")
        let (movies, marks) = (catchUpMovies, catchUpMovies * 2)
        try seedMarkedLog(in: scratch.path("state-big"), movies: movies, members: 5, marks: marks)
        let (big, starts) = try coldStarts(in: scratch) { try $0.status().operations == movies + marks }
        let rss = Double(big.residentBytes ?? 0) / 1_048_576
        return [
            starts.measurement("cold start with 100k movies and 200k marks"),
            Measurement(
                measure: "daemon RSS, 100k movies and 200k marks",
                value: rss,
                unit: "MB",
                target: "≤ 48 MB",
                met: rss <= 48,
                detail: "after the last cold start"
            ),
            try historyFirstPage(on: big, operations: movies + marks),
            try catchUp(from: big, operations: movies + marks, in: scratch),
        ]
    }

    /// `history`'s first page (50 lines) through the control socket, p50 of repeated asks.
    private func historyFirstPage(on daemon: TestDaemon, operations: Int) throws -> Measurement {
        let client = try ControlClient(socketPath: daemon.socket)
        var sample = Sample()
        let clock = ContinuousClock()
        for _ in 1...max(cliRuns / 4, 5) {
            let started = clock.now
            _ = try client.request(HistoryRequest(limit: 50))
            sample.add(started.duration(to: clock.now))
        }
        let p50 = sample.percentile(50)
        return Measurement(
            measure: "history first page over 300k operations, p50",
            value: p50,
            unit: "ms",
            target: "≤ 20 ms",
            met: p50 <= 20,
            detail: String(
                format: "%d asks of 50 lines over %d operations, p99 %.1f ms",
                sample.count,
                operations,
                sample.percentile(99)
            )
        )
    }

    /// A fresh peer joining `source`: from its start until it holds all `operations`.
    private func catchUp(from source: TestDaemon, operations: Int, in scratch: ScratchDirectory) throws -> Measurement {
        let (fresh, seconds) = try freshPeerCatchingUp(from: source, operations: operations, in: scratch)
        let rate = Double(operations) / seconds
        let rss = Double(fresh.residentBytes ?? 0) / 1_048_576
        return Measurement(
            measure: "catch-up, 100k movies and 200k marks",
            value: rate,
            unit: "ops/s",
            target: "≥ 100,000 ops/s",
            met: rate >= 100_000,
            detail: String(
                format: "%d ops in %.2f s from the new peer's start; its RSS then %.1f MB",
                operations,
                seconds,
                rss
            )
        )
    }

    /// A state directory's log holding `movies` adds of one origin and `marks` marks spread over
    /// `members` more (`m1`, `m2`…), each signed and chained by its origin as a daemon makes them:
    /// a member's marks cycle through want, seen (with a day), a rating and a veto.
    func seedMarkedLog(in directory: String, movies: Int, members: Int = 0, marks: Int = 0) throws {
        let state = try StateDirectory(at: FilePath(directory), logger: Logger(label: "bench"))
        let (log, _, _) = try OperationLog.open(at: state.logPath, logger: Logger(label: "bench"))
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        var writer = ChainWriter(log: log)
        let seed = try PeerIdentity.generate(name: "seed")
        for n in 1...movies {
            let movie = Movie(id: MovieID(n)!, title: "Movie number \(n)", year: 1900 + n % 120)
            try writer.append(kind: .add, movie: movie, payload: nil, seq: n, lamport: n, at: now, by: (seed, "seed"))
        }
        for m in stride(from: 1, through: members, by: 1) {
            let member = try PeerIdentity.generate(name: "m\(m)")
            for i in 1...(marks / members) {
                let movie = Movie(id: MovieID((i * 7 + m * 13) % movies + 1)!)
                let mark: Mark
                switch i % 4 {
                case 0: mark = Mark(kind: .want)
                case 1: mark = Mark(kind: .seen, on: "2026-11-20")
                case 2: mark = Mark(kind: .rating, rating: 1 + i % 10)
                default: mark = Mark(kind: .veto)
                }
                try writer.append(
                    kind: .mark,
                    movie: movie,
                    payload: .mark(mark),
                    seq: i,
                    lamport: movies + i,
                    at: now,
                    by: (member, "m\(m)")
                )
            }
        }
        try writer.flush()
        _ = (log, state)  // both close when released: the log file, then the directory lock
    }
}

/// Appends operations to a log in batches, each signed by its origin and chained to its previous one.
private struct ChainWriter {
    let log: OperationLog
    var batch: [PeerdModel.Operation] = []
    var previous: PeerdModel.Operation?

    init(log: OperationLog) {
        self.log = log
    }

    mutating func append(
        kind: PeerdModel.Operation.Kind,
        movie: Movie,
        payload: PeerdModel.Operation.Payload?,
        seq: Int,
        lamport: Int,
        at now: Int64,
        by origin: (identity: PeerIdentity, name: String)
    ) throws {
        let operation = PeerdModel.Operation(
            id: OperationID(origin: origin.identity.peer, seq: UInt64(seq)),
            lamport: UInt64(lamport),
            at: now,
            by: origin.name,
            kind: kind,
            movie: movie,
            payload: payload
        )
        let chained = seq == 1 ? nil : previous.map(OperationSeal.digest(of:))
        let sealed = OperationSeal.seal(operation, prev: chained, by: origin.identity)
        batch.append(sealed)
        previous = sealed
        if batch.count == 1_000 { try flush() }
    }

    mutating func flush() throws {
        guard !batch.isEmpty else { return }
        try log.append(batch)
        batch.removeAll(keepingCapacity: true)
    }
}
