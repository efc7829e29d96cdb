import HTTPTypes
import Hummingbird
import Synchronization

/// Runs ``WebGate`` on every request and puts ``WebHeaders`` on every response, refusals and
/// errors included.
struct WebGateMiddleware<Context: RequestContext>: RouterMiddleware {
    let gate: BoundGate<WebGate>

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let seen = WebGate.Request(
            method: request.method.rawValue,
            path: request.uri.path,
            host: request.head.authority,
            origin: request.headers[.origin],
            authorization: request.headers[.authorization]
        )
        var response: Response
        switch gate.current.admit(seen) {
        case .refuse(let status, let reason):
            response = Self.text(status: status, reason)
            if status == 405, let allowed = WebGate.allowedMethods(for: seen.path) {
                response.headers[.allow] = allowed
            }
        case .admit:
            do {
                response = try await next(request, context)
            } catch let error as HTTPError {
                response = Self.text(status: error.status.code, error.body ?? error.status.reasonPhrase)
            } catch {
                response = Self.text(status: 500, "internal error")
            }
        }
        response.headers.append(contentsOf: WebHeaders.all)
        return response
    }

    /// A refusal: the status and one line of text, nothing else.
    static func text(status: Int, _ line: String) -> Response {
        Response(
            status: HTTPResponse.Status(code: status),
            headers: [.contentType: "text/plain; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: line + "\n"))
        )
    }
}

/// A gate that checks `Host` against the port it listens on.
protocol PortBoundGate: Sendable {
    func listening(on port: Int) -> Self
}

extension WebGate: PortBoundGate {}

/// A gate (the page's or the guests'), told the port once it listens: with port 0 the port is
/// picked at bind time, after the responder was made. No client can name the port before it is told.
final class BoundGate<Gate: PortBoundGate>: Sendable {
    private let gate: Mutex<Gate>

    init(_ gate: Gate) { self.gate = Mutex(gate) }

    var current: Gate { gate.withLock { $0 } }

    func listening(on port: Int) { gate.withLock { $0 = $0.listening(on: port) } }
}
