import Logging
import PeerdModel

@testable import PeerdDaemon

/// Hands each dial to the test and answers with `outcome`.
final class ScriptedDialing: Dialing {
    let dials = AsyncStream.makeStream(of: [PeerAddress].self)
    let outcome: DialTarget.Outcome

    init(outcome: DialTarget.Outcome) { self.outcome = outcome }

    func dial(
        _ addresses: [PeerAddress],
        relay: DialTarget.RelayRoute?,
        source: PeerSource,
        expected: PeerID?,
        connectTimeout: Duration,
        logger: Logger
    ) async -> DialTarget.Outcome {
        dials.continuation.yield(addresses)
        return outcome
    }
}
