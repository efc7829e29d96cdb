import HTTPTypes
import Hummingbird

/// Runs ``WebGate`` on every request and puts ``WebHeaders`` on every response, refusals and
/// errors included.
struct WebGateMiddleware<Context: RequestContext>: RouterMiddleware {
    let gate: WebGate

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
        switch gate.admit(seen) {
        case .refuse(let status, let reason):
            response = Self.text(status: status, reason)
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
