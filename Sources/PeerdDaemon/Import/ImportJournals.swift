import PeerdLoops
import PeerdModel
import PeerdStore
import PeerdWire
import SystemPackage

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The daemon's side of `peerctl import` that outlives one request: each import's journal (what its
/// rows came to), and the pace of the TMDB lookups imports make.
actor ImportJournals {
    /// TMDB documents about 50 requests a second per address as its ceiling; imports stay under it,
    /// so the daemon's own fetches (details, the page) keep room.
    static let lookupsPerSecond = 40
    /// Journals kept open; an older one is closed (and read again if its import comes back).
    static let openJournals = 4

    private let stateDirectory: FilePath
    private var journals: [(id: String, journal: ImportJournal, done: [String: ImportResult])] = []
    private var pace = TokenBucket<ContinuousClock.Instant>(interval: .seconds(1) / lookupsPerSecond, burst: 10)
    /// Through a peer that holds a token, at the pace the holder grants each member (QueryDesk's
    /// `perAsker`: 2 a second, in bursts of 4), so that rows wait their turn rather than fail.
    private var peerPace = TokenBucket<ContinuousClock.Instant>(interval: .milliseconds(500), burst: 4)
    /// Until when TMDB asked every request to wait (a 429's or 503's `Retry-After`).
    private var heldUntil = ContinuousClock.now

    init(stateDirectory: FilePath) {
        self.stateDirectory = stateDirectory
    }

    /// A row's key in its import's journal: its file in the archive and its line.
    static func key(file: String?, line: Int) -> String { "\(file ?? ""):\(line)" }

    /// What earlier runs of import `id` did, by row key. A dry run reads the journal without
    /// making one.
    func done(_ id: String, dryRun: Bool = false) async throws(StoreError) -> [String: ImportResult] {
        if dryRun, !journals.contains(where: { $0.id == id }) {
            let directory = stateDirectory
            return Self.results(
                try await BlockingPool.run { () throws(StoreError) in try ImportJournal.lines(in: directory, id: id) }
            )
        }
        return try await entry(id).done
    }

    /// Journal lines as the results they record, by row key; a line that isn't one is passed over.
    private static func results(_ lines: [[UInt8]]) -> [String: ImportResult] {
        var done: [String: ImportResult] = [:]
        for line in lines {
            guard let result = try? JSONDecoder().decode(ImportResult.self, from: Data(line)) else { continue }
            done[key(file: result.file, line: result.line)] = result
        }
        return done
    }

    /// Records what `results` came to (those a run again should skip), after their operations.
    func record(_ id: String, _ results: [ImportResult]) async throws(StoreError) {
        let finished = results.filter { $0.outcome != .failed }
        let journal = try await entry(id).journal
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // Encoding an ImportResult (strings, numbers) cannot fail.
        let lines = finished.map { Array(try! encoder.encode($0)) }
        try await BlockingPool.run { () throws(StoreError) in try journal.append(lines) }
        guard let index = journals.firstIndex(where: { $0.id == id }) else { return }
        for result in finished { journals[index].done[Self.key(file: result.file, line: result.line)] = result }
    }

    /// Waits for the next lookup's turn: TMDB's, or through a peer, the holder's; none goes out
    /// while TMDB's `Retry-After` lasts.
    func turn(throughPeer: Bool) async {
        while heldUntil > .now { try? await LoopClock.shared.sleep(until: heldUntil) }
        let wait =
            throughPeer
            ? peerPace.reserve(now: .now, maxWait: .seconds(3600)) ?? .zero
            : pace.reserve(now: .now, maxWait: .seconds(3600)) ?? .zero
        if wait > .zero { try? await LoopClock.shared.sleep(for: wait) }
    }

    /// TMDB asked to wait `wait` before any request: no import's lookup goes out until then.
    func hold(for wait: Duration) {
        heldUntil = max(heldUntil, .now + wait)
    }

    private func entry(_ id: String) async throws(StoreError) -> (
        id: String, journal: ImportJournal, done: [String: ImportResult]
    ) {
        if let index = journals.firstIndex(where: { $0.id == id }) {
            let entry = journals.remove(at: index)
            journals.append(entry)
            return entry
        }
        let directory = stateDirectory
        let (journal, lines) = try await BlockingPool.run { () throws(StoreError) in
            try ImportJournal.open(in: directory, id: id)
        }
        // A request of the same import that opened it meanwhile holds what was recorded since: its entry stands.
        if let entry = journals.first(where: { $0.id == id }) { return entry }
        let done = Self.results(lines)
        journals.append((id, journal, done))
        if journals.count > Self.openJournals { journals.removeFirst() }
        return (id, journal, done)
    }
}
