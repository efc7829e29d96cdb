import Hummingbird
import NIOCore

/// The page's routes: its files, and the API. ``WebGate`` has already decided who gets in and
/// answered unknown paths and wrong methods.
enum WebRoutes {
    static func router<Backend: WebBackend>(gate: WebGate, backend: Backend) -> Router<BasicRequestContext> {
        router(gate: BoundGate(gate), backend: backend)
    }

    static func router<Backend: WebBackend>(gate: BoundGate<WebGate>, backend: Backend) -> Router<BasicRequestContext> {
        let router = Router()
        router.add(middleware: WebGateMiddleware(gate: gate))
        for path in WebGate.pagePaths {
            router.get(RouterPath(path)) { _, _ in try page(at: path) }
            router.head(RouterPath(path)) { _, _ in try page(at: path) }
        }
        let api = WebAPI(backend: backend)
        router.post("/api/request") { request, _ in try await api.request(request) }
        router.get("/api/events") { request, _ in await api.events(request) }
        return router
    }

    static func page(at path: String) throws -> Response {
        // Browsers ask for an icon whatever the page says; no content, rather than a 404 in the console.
        if path == "/favicon.ico" { return Response(status: .noContent) }
        guard let file = PageFiles.file(at: path) else { throw HTTPError(.notFound) }
        return Response(
            status: .ok,
            headers: [.contentType: file.contentType],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: file.bytes))
        )
    }
}
