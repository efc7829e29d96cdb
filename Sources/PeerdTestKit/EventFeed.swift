import Synchronization

/// One sender, any number of readers, for a test's fakes and seams: each ``subscribe()`` is a stream
/// of what is sent from then on, for ``firstEvent(of:within:where:)`` and ``waitUntil(_:within:_:)``
/// to wait on. A subscription ends with its stream (its reader's task cancelled, or dropped).
package final class EventFeed<Element: Sendable>: Sendable {
    private let readers = Mutex<(next: Int, all: [Int: AsyncStream<Element>.Continuation])>((0, [:]))

    package init() {}

    /// What is sent from now on.
    package func subscribe() -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self)
        let id = readers.withLock { readers in
            readers.next += 1
            readers.all[readers.next] = continuation
            return readers.next
        }
        continuation.onTermination = { [weak self] _ in self?.readers.withLock { _ = $0.all.removeValue(forKey: id) } }
        return stream
    }

    package func send(_ element: Element) {
        for reader in readers.withLock({ Array($0.all.values) }) { reader.yield(element) }
    }

    /// How many streams are subscribed now.
    package var readerCount: Int { readers.withLock { $0.all.count } }

    /// Ends every stream subscribed now.
    package func finish() {
        for reader in readers.withLock({ Array($0.all.values) }) { reader.finish() }
    }
}
