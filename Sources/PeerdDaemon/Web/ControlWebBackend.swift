import PeerdWeb
import PeerdWire

/// The page's API answered by the control socket's responder, its changes by `follow`'s stream,
/// and its pick events built by the pick desk's `status`, as `pickStatus` answers.
struct ControlWebBackend: WebBackend {
    let responder: ControlResponder
    private let picks = PagePickEvents()

    init(responder: ControlResponder) {
        self.responder = responder
    }

    func respond(to request: ControlRequest) async -> ControlResponse {
        await responder.respond(to: request)
    }

    /// The group's pick events are built once for every stream (``run()``); another list's for each
    /// stream that follows it, while it is open (a list has few members, each with a page or two).
    func events(for request: ControlRequest) async -> Result<PageEvents, WireError> {
        let list: ReplicaService
        switch await responder.space(for: request) {
        case .failure(let error): return .failure(error)
        case .success(nil):
            return .success(
                PageEvents(changes: ChangeFollow(await responder.replica.changes()), picks: picks.subscribe())
            )
        case .success(let found?): list = found
        }
        let changed = await list.pickChanges()
        let (events, sink) = AsyncStream.makeStream(of: PickEvent.self, bufferingPolicy: .bufferingNewest(64))
        let responder = self.responder
        return .success(
            PageEvents(changes: ChangeFollow(await list.changes()), picks: events) {
                await PagePickEvents.build(changed, into: { sink.yield($0) }) { pick in
                    await ActingList.$current.withValue(list) { await responder.picks.status(pick) }
                }
                sink.finish()
            }
        )
    }

    func run() async {
        await picks.run(changes: await responder.replica.pickChanges()) { pick in
            await responder.picks.status(pick)
        }
    }
}
