package import Logging
import Synchronization

/// A logger whose records a test can read and await, so it waits on what a service says it did
/// rather than on time.
package final class LogRecorder: Sendable {
    package struct Record: Sendable {
        package var level: Logger.Level
        package var message: String
        package var metadata: Logger.Metadata
    }

    private let state = Mutex<(records: [Record], waiters: [(String, AsyncStream<Record>.Continuation)])>(([], []))

    package init() {}

    package var logger: Logger {
        var logger = Logger(label: "peerd.test") { _ in Handler(recorder: self) }
        logger.logLevel = .trace
        return logger
    }

    package var records: [Record] { state.withLock { $0.records } }

    /// Everything logged with `message`, from the first record on, as it comes.
    package func stream(of message: String) -> AsyncStream<Record> {
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
