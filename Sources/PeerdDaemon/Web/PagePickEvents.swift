import PeerdModel
import PeerdWeb
import PeerdWire
import ServiceLifecycle

/// The page's `pick` events (proto/WEB.md): each pick a commit changed, in the state `pickStatus`
/// answers, built and framed once for every open event stream, and not at all while none is open.
final class PagePickEvents: Sendable {
    /// A slow page keeps the newest events; on a reconnect it asks `pickStatus` anyway.
    private let events = Broadcast<PickEvent>(bufferingPolicy: .bufferingNewest(64))

    /// The events from now on, until the page's stream ends or these do.
    func subscribe() -> AsyncStream<PickEvent> { events.subscribe() }

    /// Builds each changed pick's event with `state` as `changes` (the picks each commit changed)
    /// names them, until they end or graceful shutdown; then ends every subscription.
    func run(changes: AsyncStream<[OperationID]>, state: (OperationID) async -> ControlResponse) async {
        await Self.build(changes, into: events.yield, while: { events.hasSubscribers }, state: state)
        events.finish()
    }

    /// Hands `yield` each changed pick's event, built with `state`, for as long as `changes` go on
    /// (and the task is not cancelled, nor peerd shut down); builds none while `wanted` says no.
    static func build(
        _ changes: AsyncStream<[OperationID]>,
        into yield: (PickEvent) -> Void,
        while wanted: () -> Bool = { true },
        state: (OperationID) async -> ControlResponse
    ) async {
        for await picks in changes.cancelOnGracefulShutdown() where wanted() {
            for pick in picks {
                let response = await state(pick)
                guard case .pickState = response else { continue }
                yield(PickEvent(response))
            }
        }
    }
}
