import Logging
import Synchronization

/// A logger whose records a test can read and await: `logger.info("described a movie", …)`.
final class LogRecorder: Sendable {
    struct Record: Sendable {
        var level: Logger.Level
        var message: String
        var metadata: Logger.Metadata
    }

    private let state = Mutex<(records: [Record], waiters: [(String, AsyncStream<Record>.Continuation)])>(([], []))

    var logger: Logger {
        var logger = Logger(label: "peerd.catalog.test") { _ in Handler(recorder: self) }
        logger.logLevel = .trace
        return logger
    }

    var records: [Record] { state.withLock { $0.records } }

    /// Everything logged with `message`, from the first record on, as it comes.
    func stream(of message: String) -> AsyncStream<Record> {
        let (stream, continuation) = AsyncStream.makeStream(of: Record.self)
        state.withLock { state in
            for record in state.records where record.message == message { continuation.yield(record) }
            state.waiters.append((message, continuation))
        }
        return stream
    }

    fileprivate func record(_ record: Record) {
        let waiters = state.withLock { state in
            state.records.append(record)
            return state.waiters.filter { $0.0 == record.message }.map(\.1)
        }
        for waiter in waiters { waiter.yield(record) }
    }

    private struct Handler: LogHandler {
        let recorder: LogRecorder
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        var metadataProvider: Logger.MetadataProvider?

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let all = metadata.merging(event.metadata ?? [:]) { _, new in new }
            recorder.record(Record(level: event.level, message: event.message.description, metadata: all))
        }
    }
}

extension AsyncStream {
    /// The next element, or nil when the stream ended.
    func first() async -> Element? {
        var iterator = makeAsyncIterator()
        return await iterator.next()
    }
}
