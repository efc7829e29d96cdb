import PeerdWeb
import PeerdWire

/// The page's API answered by the control socket's responder, and its events by `follow`'s stream.
struct ControlWebBackend: WebBackend {
    let responder: ControlResponder

    func respond(to request: ControlRequest) async -> ControlResponse {
        await responder.respond(to: request)
    }

    func changes() async -> AsyncStream<ChangeRecord> {
        let replica = responder.replica
        let (subscription, batches) = await replica.changes()
        let (records, sink) = AsyncStream.makeStream(of: ChangeRecord.self)
        let relay = Task {
            for await batch in batches {
                for change in batch { sink.yield(ChangeRecord(change)) }
            }
            sink.finish()
        }
        sink.onTermination = { _ in
            relay.cancel()
            Task { await replica.unsubscribe(subscription) }
        }
        return records
    }
}
