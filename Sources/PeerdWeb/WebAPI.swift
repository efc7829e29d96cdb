import Hummingbird
import NIOCore
import PeerdWire

/// The page's JSON API (proto/WEB.md, "The API"): control requests in, control responses out, and
/// the list's changes as Server-Sent Events.
struct WebAPI<Backend: WebBackend> {
    let backend: Backend

    /// A request body over this is refused (413) while it streams in.
    static var maxBodyBytes: Int { 64 * 1024 }

    /// `actingFor`: on the device door, the member every request acts for, whatever it says.
    func request(_ request: Request, actingFor member: ForcedProfile? = nil) async throws -> Response {
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: Self.maxBodyBytes)
        } catch is NIOTooManyBytesError {
            throw HTTPError(.contentTooLarge, message: "a request body is at most 64 KiB")
        }
        var control: ControlRequest
        do throws(WireError) {
            control = try WireCoding.decode(ControlRequest.self, from: body)
        } catch {
            return Self.json(.error(error), status: .badRequest)
        }
        guard control.allowedFromPage else {
            let refusal = WireError(.forbidden, "'\(control.type)' is for peerctl, not the page")
            return Self.json(.error(refusal), status: .forbidden)
        }
        if let member { control.profile = member.profile }
        return Self.json(await backend.respond(to: control), status: .ok)
    }

    /// `follow`'s changes as `event: change`, each pick that changed as `event: pick` with its whole
    /// state, and a comment line when nothing else was sent for a while: of the list the query's
    /// `list` names (none: the group's), for the member its `profile` names (`actingFor` on the
    /// device door, whatever it says). The stream ends when the page goes away (`readerGone`, or a
    /// write fails), `ended` finishes (a device unlinked) or peerd shuts down; then `done` is called.
    /// A query that is not `list` and `profile` is `400`; one that names no list this member is on, or
    /// no profile here, `404`; each with the `error` the daemon answers a request with.
    func events(
        _ request: Request,
        actingFor member: ForcedProfile? = nil,
        until readerGone: EventLoopFuture<Void>? = nil,
        or ended: AsyncStream<Never>? = nil,
        done: @escaping @Sendable () -> Void = {}
    ) async -> Response {
        var follow: ControlRequest
        switch Self.follow(asked: Array(request.uri.queryParameters)) {
        case .failure(let error):
            done()
            return Self.json(.error(error), status: .badRequest)
        case .success(let asked): follow = asked
        }
        if let member { follow.profile = member.profile }
        // Listening starts before the answer's head is sent: a page that lists once the stream is
        // open misses no change (proto/WEB.md).
        let events: PageEvents
        switch await backend.events(for: follow) {
        case .failure(let error):
            done()
            return Self.json(.error(error), status: .notFound)
        case .success(let found): events = found
        }
        return EventStream.response(until: readerGone, or: ended) { sink in
            defer { done() }
            // They end when the list stops (or the page goes away); then the stream does.
            await withDiscardingTaskGroup { forwarders in
                forwarders.addTask { await events.changes.forward { sink.yield(Self.event($0)) } }
                forwarders.addTask {
                    for await pick in events.picks { sink.yield(pick.frame) }
                }
                forwarders.addTask { await events.building() }
            }
        }
    }

    /// The `follow` an event stream's query asks for: `list` and `profile`, each at most once and of
    /// 1–64 characters (a list's or profile's name, an id, an id's first 8 digits), no other.
    static func follow(asked query: [(key: Substring, value: Substring)]) -> Result<ControlRequest, WireError> {
        var follow = ControlRequest(FollowRequest())
        for (key, value) in query {
            let fine =
                (1...64).contains(value.count) && !value.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
            switch key {
            case "list" where fine && follow.list == nil: follow.list = String(value)
            case "profile" where fine && follow.profile == nil: follow.profile = String(value)
            default:
                return .failure(
                    WireError(
                        .badRequest,
                        "/api/events takes list and profile, once each: a name or an id of 1 to 64 characters"
                    )
                )
            }
        }
        return .success(follow)
    }

    static func event(_ change: ChangeRecord) -> ByteBuffer {
        let data = String(decoding: WireCoding.encode(ControlResponse.change(change)), as: UTF8.self)
        return ByteBuffer(string: "event: change\ndata: \(data)\n\n")
    }

    static func json(_ response: ControlResponse, status: HTTPResponse.Status) -> Response {
        Response(
            status: status,
            headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: WireCoding.encode(response)))
        )
    }
}

/// The member a device acts for (proto/WEB.md, "Devices"): its `profile` replaces whatever a
/// device's request names; nil is the machine's own member.
package struct ForcedProfile: Hashable, Sendable {
    package var profile: String?

    package init(profile: String?) { self.profile = profile }
}
