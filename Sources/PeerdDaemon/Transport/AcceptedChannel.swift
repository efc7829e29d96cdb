import NIOCore
import Synchronization

/// An accepted connection on its way to the accept loop, which takes it with ``take()``.
///
/// Why a wrapper: NIO drops a connection accepted just as the listening socket closes before the
/// loop sees it, and a dropped `NIOAsyncChannel` that never ran `executeThenClose` traps
/// ("Deinited NIOAsyncWriter without calling finish()", apple/swift-nio#2813): peerd crashed so on
/// SIGTERM while peers dialed it. One that is never taken is closed here instead, through
/// `executeThenClose` as every connection is. (Making the async channel later, in the loop, loses
/// what a client sends and half-closes before then: NIO reads it at the EOF into a pipeline with
/// no async handler yet.)
final class AcceptedChannel<Wrapped: Sendable>: Sendable {
    private let connection: Mutex<Wrapped?>
    private let discard: @Sendable (Wrapped) async -> Void

    /// `discard` closes a connection that was never taken.
    init(_ connection: Wrapped, discard: @escaping @Sendable (Wrapped) async -> Void) {
        self.connection = Mutex(connection)
        self.discard = discard
    }

    /// The connection, the first time; nil after.
    func take() -> Wrapped? {
        connection.withLock { connection in
            defer { connection = nil }
            return connection
        }
    }

    deinit {
        guard let dropped = take() else { return }
        let discard = self.discard
        Task { await discard(dropped) }
    }
}

extension AcceptedChannel {
    /// An accepted `NIOAsyncChannel`, closed if dropped.
    static func closing<Inbound, Outbound>(
        _ channel: NIOAsyncChannel<Inbound, Outbound>
    ) -> AcceptedChannel<NIOAsyncChannel<Inbound, Outbound>> where Wrapped == NIOAsyncChannel<Inbound, Outbound> {
        AcceptedChannel(channel) { try? await $0.executeThenClose { _, _ in } }
    }
}
