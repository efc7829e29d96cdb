import Testing

@testable import PeerdDaemon

/// The one registry of subscribers the daemon's parts share: every reader gets what is yielded, and a
/// stream that ends, however it ends, is no longer subscribed.
@Suite("Broadcast")
struct BroadcastTests {
    @Test("every subscriber gets every element, in order")
    func yieldsToAll() async {
        let broadcast = Broadcast<Int>()
        let first = broadcast.subscribe()
        let second = broadcast.subscribe()
        #expect(broadcast.subscriberCount == 2)
        for number in 1...3 { broadcast.yield(number) }
        broadcast.finish()
        #expect(await collect(first) == [1, 2, 3])
        #expect(await collect(second) == [1, 2, 3])
    }

    @Test("a subscriber gets what comes after it subscribed, after its first element")
    func startsAtSubscription() async {
        let broadcast = Broadcast<Int>()
        broadcast.yield(1)
        let late = broadcast.subscribe(startingWith: 0)
        broadcast.yield(2)
        broadcast.finish()
        #expect(await collect(late) == [0, 2])
    }

    @Test("a subscriber gets only the elements it wants")
    func filters() async {
        let broadcast = Broadcast<Int>()
        let even = broadcast.subscribe { $0.isMultiple(of: 2) }
        for number in 1...6 { broadcast.yield(number) }
        broadcast.finish()
        #expect(await collect(even) == [2, 4, 6])
    }

    @Test("with bufferingNewest(1), a slow reader gets only the newest element")
    func keepsNewest() async {
        let broadcast = Broadcast<Int>(bufferingPolicy: .bufferingNewest(1))
        let ticks = broadcast.subscribe()
        for number in 1...5 { broadcast.yield(number) }
        broadcast.finish()
        #expect(await collect(ticks) == [5])
    }

    @Test("a stream whose reader is cancelled is no longer subscribed")
    func cancelledReaderLeaves() async {
        let broadcast = Broadcast<Int>()
        let stream = broadcast.subscribe()
        let kept = broadcast.subscribe()
        #expect(broadcast.subscriberCount == 2)
        await withDiscardingTaskGroup { group in
            group.addTask { for await _ in stream {} }
            group.cancelAll()
        }
        #expect(broadcast.subscriberCount == 1)
        broadcast.yield(7)
        broadcast.finish()
        #expect(await collect(kept) == [7], "the other subscriber is not disturbed")
    }

    @Test("a stream that is dropped unread is no longer subscribed")
    func droppedStreamLeaves() {
        let broadcast = Broadcast<Int>()
        _ = broadcast.subscribe()
        #expect(broadcast.subscriberCount == 0)
        let kept = broadcast.subscribe()
        #expect(broadcast.subscriberCount == 1)
        withExtendedLifetime(kept) {}
    }

    @Test("finish ends every stream, and a later subscription at once")
    func finishEndsAll() async {
        let broadcast = Broadcast<Int>()
        let first = broadcast.subscribe()
        let second = broadcast.subscribe()
        broadcast.finish()
        #expect(broadcast.subscriberCount == 0)
        #expect(await collect(first).isEmpty)
        #expect(await collect(second).isEmpty)
        let late = broadcast.subscribe(startingWith: 1)
        #expect(broadcast.subscriberCount == 0)
        #expect(await collect(late) == [1])
    }
}

/// Every element of a finite stream.
private func collect<Element>(_ stream: AsyncStream<Element>) async -> [Element] {
    var elements: [Element] = []
    for await element in stream { elements.append(element) }
    return elements
}
