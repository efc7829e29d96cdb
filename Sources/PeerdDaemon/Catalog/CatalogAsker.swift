import PeerdCatalog
import PeerdLoops
import PeerdModel
import PeerdWire

/// How a peer without a TMDB token asks one that holds one (proto/PEER.md, "Catalog queries"):
/// it sends a `query` on the session with the holder that has been connected longest, and waits
/// for the `answer` with the same id, for at most ``timeout``. A holder whose session ends first
/// fails the query at once, and the next holder is asked.
///
/// It asks no faster than a holder's share for peers lets through (``pace``: 2 a second, in
/// bursts of 4), so a page loading a few rows at once has them all, a query waiting up to a
/// second for its turn; what would wait longer is refused here with `rate-limited`, and a
/// flood never reaches the holder. A holder busy with other peers' queries answers
/// `rate-limited`: that is asked again, twice at most, half a second apart.
actor CatalogAsker {
    private struct Pending {
        let connection: Int
        let continuation: CheckedContinuation<Result<CatalogAnswer.Found, WireError>, Never>
    }

    let directory: PeerDirectory
    let timeout: Duration
    private var nextID: UInt64 = 0
    private var pending: [UInt64: Pending] = [:]
    private var pace = TokenBucket<ContinuousClock.Instant>(interval: .milliseconds(500), burst: 4)
    private let clock = ContinuousClock()
    static let longestTurn = Duration.seconds(1)
    static let retries = 2

    init(directory: PeerDirectory, timeout: Duration = .seconds(15)) {
        self.directory = directory
        self.timeout = timeout
    }

    /// The answer of a holder, or why there is none (`unavailable` when no holder is connected,
    /// `rate-limited` when this peer or the holder asks or answers as fast as they may).
    func ask(_ ask: CatalogQuery.Ask) async -> Result<CatalogAnswer.Found, WireError> {
        var retries = 0
        while true {
            guard let wait = pace.reserve(now: clock.now, maxWait: Self.longestTurn) else {
                let wait = FetchWait.text(pace.waitForSlot(now: clock.now) - Self.longestTurn)
                return .failure(
                    WireError(.rateLimited, "too many queries for the group's TMDB token; try again in \(wait)")
                )
            }
            if wait > .zero { try? await LoopClock.shared.sleep(for: wait) }
            let result = await askHolders(ask)
            guard case .failure(let error) = result, error.code == .rateLimited, retries < Self.retries else {
                return result
            }
            retries += 1
            try? await LoopClock.shared.sleep(for: .milliseconds(Int.random(in: 400...600)))
        }
    }

    private func askHolders(_ ask: CatalogQuery.Ask) async -> Result<CatalogAnswer.Found, WireError> {
        var tried = Set<Int>()
        while let holder = await directory.catalogHolders().first(where: { !tried.contains($0.connection) }) {
            tried.insert(holder.connection)
            let result = await query(ask, of: holder)
            // A session that ended before its answer came: ask the next holder.
            if case .failure(let error) = result, error.code == .unavailable { continue }
            return result
        }
        return .failure(WireError(.unavailable, await directory.noCatalogHolder()))
    }

    private func query(
        _ ask: CatalogQuery.Ask,
        of holder: PeerDirectory.CatalogHolder
    ) async -> Result<CatalogAnswer.Found, WireError> {
        nextID += 1
        let id = nextID
        let timeout = self.timeout
        return await withTaskGroup { group in
            group.addTask {
                guard (try? await LoopClock.shared.sleep(for: timeout)) != nil else { return }
                await self.resolve(
                    id,
                    .failure(WireError(.timeout, "\(holder.name) did not answer within \(timeout)"))
                )
            }
            let result = await withCheckedContinuation { continuation in
                pending[id] = Pending(connection: holder.connection, continuation: continuation)
                holder.send(.query(CatalogQuery(id: id, ask: ask)))
            }
            group.cancelAll()
            return result
        }
    }

    /// A holder's answer arrived on `connection`.
    func answered(_ answer: CatalogAnswer, on connection: Int) {
        guard pending[answer.id]?.connection == connection else { return }
        resolve(answer.id, answer.outcome)
    }

    /// The session on `connection` ended: its queries fail, and are asked of another holder.
    func ended(_ connection: Int) {
        for (id, query) in pending where query.connection == connection {
            resolve(id, .failure(WireError(.unavailable, "the session ended before the answer came")))
        }
    }

    private func resolve(_ id: UInt64, _ result: Result<CatalogAnswer.Found, WireError>) {
        pending.removeValue(forKey: id)?.continuation.resume(returning: result)
    }
}
