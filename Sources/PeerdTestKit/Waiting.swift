/// The one way a test waits (issue 36): on events, not on time. A test hands it the events that
/// announce what it waits for (a daemon's broadcast, a fake's requests, a `follow` stream, a log
/// record) and is woken by them; the timeout only bounds a failure.
///
/// Make `events` before doing what they announce: a stream subscribed afterwards could miss it.
/// `events` must end when its task is cancelled (an `AsyncStream` does).

/// The first element of `events` that `matches`; nil when the events end or `timeout` passes first.
package func firstEvent<Events: AsyncSequence & Sendable>(
    of events: Events,
    within timeout: Duration = .seconds(15),
    where matches: (Events.Element) async throws -> Bool = { _ in true }
) async throws -> Events.Element? where Events.Element: Sendable {
    try await firstEvent(of: events, within: timeout, buffering: .unbounded, where: matches)
}

/// Whether `condition` holds now or after one of `events`, within `timeout`: for state the events
/// announce changes of (a daemon's list, after each `change` it sends). Events that come while
/// `condition` is being checked make one check more, not one each: a burst of changes on ten
/// daemons costs a few checks, and ticks behind a slow check don't pile up.
package func waitUntil<Events: AsyncSequence & Sendable>(
    _ events: Events,
    within timeout: Duration = .seconds(15),
    _ condition: () async throws -> Bool
) async throws -> Bool where Events.Element: Sendable {
    if try await condition() { return true }
    let seen = try await firstEvent(of: events, within: timeout, buffering: .bufferingNewest(1)) { _ in
        try await condition()
    }
    if seen != nil { return true }
    // A last look: a test starved past the deadline (a loaded machine) may wake to it holding.
    return try await condition()
}

private func firstEvent<Events: AsyncSequence & Sendable>(
    of events: Events,
    within timeout: Duration,
    buffering: AsyncStream<Events.Element>.Continuation.BufferingPolicy,
    where matches: (Events.Element) async throws -> Bool
) async throws -> Events.Element? where Events.Element: Sendable {
    // The events and the deadline are merged into one stream read here, so `matches` runs in the
    // caller's task and may touch what the caller's isolation protects.
    let (merged, sink) = AsyncStream.makeStream(of: Events.Element.self, bufferingPolicy: buffering)
    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask {
            // The clock starts once the events are read: on a starved machine (every thread of the
            // pool busy with another test's process) what already came is handed on first.
            await withTaskGroup(of: Void.self) { reading in
                reading.addTask {
                    try? await Task.sleep(for: timeout)
                    sink.finish()
                }
                do {
                    for try await event in events { sink.yield(event) }
                } catch {}
                sink.finish()
                reading.cancelAll()
            }
        }
        defer { group.cancelAll() }
        for await event in merged {
            if try await matches(event) { return event }
        }
        return nil
    }
}

/// A tick every `interval`, for the rare state that no event announces: a poll, kept in the one
/// helper so that each use is easy to find, and says at its call why no event will do.
package struct Ticks: AsyncSequence, Sendable {
    package typealias Element = Void
    let interval: Duration

    package init(every interval: Duration = .milliseconds(10)) { self.interval = interval }

    package struct AsyncIterator: AsyncIteratorProtocol {
        let interval: Duration

        package mutating func next() async -> Void? {
            try? await Task.sleep(for: interval)
        }
    }

    package func makeAsyncIterator() -> AsyncIterator { AsyncIterator(interval: interval) }
}
