import PeerdWeb
import PeerdWire

/// The page's API answered by the control socket's responder, and its events by `follow`'s stream.
struct ControlWebBackend: WebBackend {
    let responder: ControlResponder

    func respond(to request: ControlRequest) async -> ControlResponse {
        await responder.respond(to: request)
    }

    func follow() async -> ChangeFollow {
        ChangeFollow(await responder.replica.changes(), picks: await responder.replica.pickChanges())
    }
}
