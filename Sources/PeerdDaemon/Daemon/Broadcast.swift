import Synchronization

/// One sender, any number of readers: each ``subscribe(startingWith:where:)`` is a stream of what
/// is yielded from then on. A stream's subscription ends with the stream: when its reader's task is
/// cancelled, when the stream is dropped, or at ``finish()``. Nobody unsubscribes by hand.
///
/// Each reader has its own buffer, of the broadcast's `bufferingPolicy`: a feed of changes that must
/// all arrive keeps every element (`.unbounded`); a tick that only says "something changed" keeps the
/// newest (`.bufferingNewest(1)`), so a slow reader costs one element.
final class Broadcast<Element: Sendable>: Sendable {
    private struct Subscriber {
        let continuation: AsyncStream<Element>.Continuation
        /// Which elements this reader gets; asked once per element, when it is yielded.
        let wants: @Sendable (Element) -> Bool
    }

    private struct State {
        var nextID = 0
        var subscribers: [Int: Subscriber] = [:]
        var finished = false
    }

    private let bufferingPolicy: AsyncStream<Element>.Continuation.BufferingPolicy
    private let state = Mutex(State())

    init(bufferingPolicy: AsyncStream<Element>.Continuation.BufferingPolicy = .unbounded) {
        self.bufferingPolicy = bufferingPolicy
    }

    /// Elements yielded from now on that `wants` accepts, after `initial` if given. Once the
    /// broadcast has finished, the stream ends at once (after `initial`).
    func subscribe(
        startingWith initial: Element? = nil,
        where wants: @escaping @Sendable (Element) -> Bool = { _ in true }
    ) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self, bufferingPolicy: bufferingPolicy)
        if let initial { continuation.yield(initial) }
        let id: Int? = state.withLock { state in
            guard !state.finished else { return nil }
            state.nextID += 1
            state.subscribers[state.nextID] = Subscriber(continuation: continuation, wants: wants)
            return state.nextID
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        // Nobody holds the stream yet, so it cannot have ended before this is set.
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Hands `element` to every reader that wants it.
    func yield(_ element: Element) {
        for subscriber in state.withLock({ Array($0.subscribers.values) }) where subscriber.wants(element) {
            subscriber.continuation.yield(element)
        }
    }

    /// Ends every stream, and those subscribed later at once.
    func finish() {
        let subscribers = state.withLock { state in
            state.finished = true
            defer { state.subscribers.removeAll() }
            return Array(state.subscribers.values)
        }
        // Outside the lock: finishing runs each stream's `onTermination`, which takes it.
        for subscriber in subscribers { subscriber.continuation.finish() }
    }

    /// How many streams are subscribed now.
    var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    var hasSubscribers: Bool { subscriberCount > 0 }
}
