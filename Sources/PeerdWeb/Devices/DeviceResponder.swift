import HTTPTypes
import Hummingbird
import NIOCore
import PeerdModel
import PeerdWire

/// Answers the device door's requests (proto/WEB.md, "Devices"): the per-address limit first, then
/// ``DeviceGate``, then the link or the device's cookie, the device's own limit, then the route:
/// the member's page and its API, every request acting for the device's member. Every answer
/// carries the page's headers.
struct DeviceResponder<Backend: WebBackend>: LANResponder {
    /// The cookie that holds a device's capability.
    static var cookie: String { "peerd_device" }
    /// A cookie the page's script may read, holding no secret: the door's port, which tells the
    /// page it is on a linked device (and not on a loopback page of the same host without its token).
    static var doorCookie: String { "peerd_door" }
    /// How long a browser keeps the cookie: 400 days, the most browsers allow.
    static var cookieAge: Int { 400 * 24 * 3600 }

    let gate: BoundGate<DeviceGate>
    let ledger: DeviceLedger
    let backend: Backend
    /// This machine's name, for the words of a refusal.
    let machine: String

    func answer(_ request: Request, context: LANRequestContext) async -> Response {
        let admitted = gate.current.admit(request)
        let free = await isLinkedDevicesFile(admitted, request, from: context.address)
        if !free, let wait = ledger.admit(.request, from: context.address) { return Self.tooMany(wait) }
        let route: DeviceGate.Route
        switch admitted {
        case .refuse(let status, let reason, let allow): return .refused(status: status, reason: reason, allow: allow)
        case .admit(let admitted): route = admitted
        }
        switch route {
        case .link(let code): return await link(code, request: request, from: context.address)
        case .openFile(let path): return Self.file(path)
        case .file, .request, .events: break
        }
        let found = await ledger.device(cookie: Self.capability(in: request.headers), from: context.address)
        guard case .success(let device) = found else { return unlinked(route) }
        if !free, let wait = ledger.admit(device: device.id) { return Self.tooMany(wait) }
        let api = WebAPI(backend: backend)
        let member = ForcedProfile(profile: device.member.peer?.rawValue)
        switch route {
        case .request:
            do {
                return try await api.request(request, actingFor: member)
            } catch let error as HTTPError {
                return WebGateMiddleware<BasicRequestContext>.text(status: error.status.code, error.body ?? "")
            } catch {
                return WebGateMiddleware<BasicRequestContext>.text(status: 500, "internal error")
            }
        case .events:
            guard let stream = ledger.openStream(of: device.id) else {
                return Self.tooMany(EventStream.keepAliveInterval, "too many open event streams from this device")
            }
            let ledger = self.ledger
            return await api.events(request, actingFor: member, until: await context.clientGone(), or: stream.unlinked)
            {
                ledger.closeStream(stream)
            }
        case .file(let path): return Self.file(path)
        case .link, .openFile: return Self.file(nil)
        }
    }

    /// Whether `request` is for one of the page's files from a linked device: those cost it nothing.
    /// One load of the page is some 30 of them, and a phone loads it again at a pull to refresh or
    /// from its home screen's icon; three loads in a second ran a device out of its burst, and the
    /// page stayed at "Connecting…". Its API requests and event streams are counted.
    private func isLinkedDevicesFile(_ admitted: DeviceGate.Verdict, _ request: Request, from address: String) async
        -> Bool
    {
        guard case .admit(.file) = admitted else { return false }
        let found = await ledger.device(cookie: Self.capability(in: request.headers), from: address)
        if case .success = found { return true }
        return false
    }

    /// A link opened: the device it makes gets its capability as a cookie and goes to the page.
    private func link(_ code: Substring, request: Request, from address: String) async -> Response {
        if let wait = ledger.admit(.link, from: address) { return Self.tooMany(wait) }
        switch await ledger.redeem(code: code, from: address, userAgent: request.headers[.userAgent]) {
        case .failure(let refusal): return DeviceRefusalPage.response(refusal, machine: machine, page: true)
        case .success(let made):
            let kept = "Max-Age=\(Self.cookieAge); Path=/"
            var headers: HTTPFields = [.location: "/"]
            headers.append(
                HTTPField(
                    name: .setCookie,
                    value: "\(Self.cookie)=\(made.capability); \(kept); HttpOnly; SameSite=Strict"
                )
            )
            headers.append(
                HTTPField(
                    name: .setCookie,
                    value: "\(Self.doorCookie)=\(gate.current.lan.port); \(kept); SameSite=Strict"
                )
            )
            return Response(status: .seeOther, headers: headers)
        }
    }

    /// No linked device: a page of words for the page and its files, the API's JSON for the API.
    private func unlinked(_ route: DeviceGate.Route) -> Response {
        DeviceRefusalPage.response(.unknownDevice, machine: machine, page: route.isPage)
    }

    /// The capability in the request's `peerd_device` cookie, if it has one.
    static func capability(in headers: HTTPFields) -> Substring? {
        Cookies(from: headers[values: .cookie])[cookie].map { Substring($0.value) }
    }

    static func file(_ path: String?) -> Response {
        (try? path.map(WebRoutes.page(at:))) ?? nil
            ?? WebGateMiddleware<BasicRequestContext>.text(status: 404, "no such page")
    }

    /// A 429 in the API's words (`rate-limited`, which the page asks again after), with `Retry-After`.
    static func tooMany(_ wait: Duration, _ what: String = "too many requests") -> Response {
        let seconds = max(1, Int((wait + .milliseconds(999)).components.seconds))
        let error = WireError(.rateLimited, "\(what); try again in \(seconds) s")
        var response = WebAPI<Backend>.json(.error(error), status: .tooManyRequests)
        response.headers[.retryAfter] = String(seconds)
        return response
    }
}
