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

    func follow() async -> ChangeFollow {
        ChangeFollow(await responder.replica.changes())
    }

    func pickEvents() async -> AsyncStream<PickEvent> { picks.subscribe() }

    func run() async {
        await picks.run(changes: await responder.replica.pickChanges()) { pick in
            await responder.picks.status(pick)
        }
    }
}
