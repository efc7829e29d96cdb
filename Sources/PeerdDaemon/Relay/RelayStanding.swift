import PeerdRelay
import PeerdWire

/// How this daemon stands with one relay it was told to join: what `peerctl relay` and
/// `peerctl doctor` show of it (``RelayRecord``). Times are wall-clock milliseconds.
struct RelayStanding: Sendable, Hashable {
    var url: RelayURL
    var state: RelayRecord.State = .joining
    var joinedSince: Int64?
    var latencyMs: Double?
    var lastError: String?
    /// When the next try is due, while retrying.
    var retryAt: Int64?

    init(url: RelayURL) {
        self.url = url
    }

    /// A try begins.
    mutating func joining() {
        state = .joining
        retryAt = nil
    }

    /// The relay accepted the join at `now`.
    mutating func joined(at now: Int64) {
        state = .joined
        joinedSince = now
        lastError = nil
    }

    /// The try or the stay ended with `error`; the next try is at `retryAt`.
    mutating func failed(_ error: RelayError, retryAt: Int64) {
        state = .retrying
        joinedSince = nil
        latencyMs = nil
        lastError = error.description
        self.retryAt = retryAt
    }

    func record(now: Int64) -> RelayRecord {
        RelayRecord(
            url: url.description,
            address: url.address,
            state: state,
            joinedSince: state == .joined ? joinedSince : nil,
            latencyMs: state == .joined ? latencyMs : nil,
            lastError: lastError,
            retryIn: state == .retrying ? retryAt.map { Double(max(0, $0 - now)) / 1000 } : nil
        )
    }
}
