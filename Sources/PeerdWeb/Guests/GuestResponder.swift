import HTTPTypes
import Hummingbird
import NIOCore
import PeerdModel
import PeerdWire

/// Answers the guest door's requests (proto/WEB.md, "Guests"): the per-address limit first, then
/// ``GuestGate``, then the capability, then the route. Every answer carries the page's headers.
struct GuestResponder<Desk: GuestDesk>: LANResponder {
    let gate: BoundGate<GuestGate>
    let ledger: GuestLedger
    let desk: Desk

    func answer(_ request: Request, context: LANRequestContext) async -> Response {
        if let wait = ledger.admit(.request, from: context.address) { return Self.tooMany(wait) }
        switch gate.current.admit(request) {
        case .refuse(let status, let reason, let allow): return .refused(status: status, reason: reason, allow: allow)
        case .redirect(let capability):
            guard ledger.pick(opening: capability) != nil else {
                return WebGateMiddleware<BasicRequestContext>.text(status: 404, "no such page")
            }
            return Response(status: .permanentRedirect, headers: [.location: "/g/\(capability)/"])
        case .admit(let capability, let route):
            guard let pick = ledger.pick(opening: capability) else {
                return WebGateMiddleware<BasicRequestContext>.text(status: 404, "no such page")
            }
            guard pick.open else { return Self.closed(pick, route: route) }
            return await serve(route, pick: pick.id, request: request, context: context)
        }
    }

    private func serve(_ route: GuestGate.Route, pick: PickOnList, request: Request, context: Context) async
        -> Response
    {
        switch route {
        case .page: return Self.file("guest.html")
        case .file(let name): return Self.file(name)
        case .state:
            guard let state = await desk.state(of: pick, for: guest(of: request, in: pick)) else {
                return WebGateMiddleware<BasicRequestContext>.text(status: 404, "no such page")
            }
            return Self.json(state, status: .ok)
        case .join: return await join(request, pick: pick, from: context.address)
        case .vote: return await vote(request, pick: pick)
        case .events: return await events(pick: pick, from: context.address, until: await context.clientGone())
        }
    }

    /// The guest whose token the request carries (`Authorization: Guest <token>`), if it is one
    /// this door made for this pick.
    func guest(of request: Request, in pick: PickOnList) -> Pick.Guest? {
        guard let header = request.headers[.authorization], header.hasPrefix("Guest ") else { return nil }
        return ledger.key.guest(fromToken: header.dropFirst("Guest ".count), in: pick)
    }

    static func file(_ name: String) -> Response {
        guard let file = PageFiles.guestFiles[name] else { return Response(status: .notFound) }
        return Response(
            status: .ok,
            headers: [.contentType: file.contentType],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: file.bytes))
        )
    }

    static func json(_ value: some Encodable, status: HTTPResponse.Status) -> Response {
        Response(
            status: status,
            headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: WireCoding.encode(value)))
        )
    }

    static func error(_ status: Int, _ code: String, _ message: String) -> Response {
        json(GuestErrorRecord(code: code, message: message), status: HTTPResponse.Status(code: status))
    }

    static func tooMany(_ wait: Duration, _ what: String = "too many requests") -> Response {
        let seconds = max(1, Int((wait + .milliseconds(999)).components.seconds))
        var response = error(429, "rate-limited", "\(what); try again in \(seconds) s")
        response.headers[.retryAfter] = String(seconds)
        return response
    }

    /// A closed pick: its page and files get a line of text, its API the result.
    static func closed(_ pick: OwnPick, route: GuestGate.Route) -> Response {
        let closed = GuestErrorRecord.closed(result: pick.result)
        guard route.isPage else { return json(closed, status: .gone) }
        return WebGateMiddleware<BasicRequestContext>.text(status: 410, closed.error.message)
    }
}
