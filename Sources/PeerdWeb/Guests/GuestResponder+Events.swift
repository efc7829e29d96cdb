import Hummingbird
import NIOCore
import PeerdModel
import PeerdWire

/// `GET /g/CAP/events`: `event: pick` each time the pick changes, for the guest page to ask for
/// its state again; the stream ends after the pick's close (the next `state` is a 410), or as soon
/// as the guest closes the connection (`clientGone`), which frees its places at once.
extension GuestResponder {
    func events(pick: PickOnList, from address: String, until clientGone: EventLoopFuture<Void>?) async -> Response {
        guard ledger.openStream(from: address) else {
            // A stream whose reader closed its connection has ended already: these are all read.
            return Self.tooMany(EventStream.keepAliveInterval, "too many open event streams from this address")
        }
        // Listening starts before the head is sent: a change between this answer and the page's
        // next `state` is not missed.
        let changes = await desk.pickChanges()
        let (ledger, desk) = (self.ledger, self.desk)
        return EventStream.response(until: clientGone) { sink in
            defer { ledger.closeStream(from: address) }
            for await ids in changes where ids.contains(pick) {
                sink.yield(ByteBuffer(string: "event: pick\ndata: {}\n\n"))
                if await !desk.isOpen(pick) { return }
            }
        }
    }
}
