/// Pure: who gets in, and where (proto/WEB.md, "Who gets in"). Every request passes here before
/// anything else looks at it: the `Host` check first (DNS rebinding), then the route, the token
/// for the API, and the `Origin` of a request that changes something.
package struct WebGate: Sendable {
    /// A request as the gate sees it: the method, the path without the query, and three headers.
    package struct Request: Sendable {
        package var method: String
        package var path: String
        package var host: String?
        package var origin: String?
        package var authorization: String?

        package init(method: String, path: String, host: String?, origin: String?, authorization: String?) {
            self.method = method
            self.path = path
            self.host = host
            self.origin = origin
            self.authorization = authorization
        }
    }

    package enum Verdict: Hashable, Sendable {
        case admit
        /// An HTTP status and a one-line reason, which is all the refused request gets.
        case refuse(status: Int, reason: String)
    }

    /// The page's own files: no data in them, so no token; GET (and HEAD) only.
    package static let pagePaths: Set<String> = Set(PageFiles.files.keys).union(["/favicon.ico"])
    /// The API's routes and the method each takes.
    package static let apiRoutes: [String: String] = ["/api/request": "POST", "/api/events": "GET"]

    let token: WebToken
    /// What `Host` may be: `127.0.0.1:PORT`, `[::1]:PORT`, `localhost:PORT` and the addresses the
    /// page was told to listen on (`--web-address`), lowercased. Never a name DNS could point
    /// elsewhere: that is the DNS-rebinding attack this check stops.
    let hosts: Set<String>
    private let addresses: [String]

    package init(token: WebToken, port: Int, addresses: [String] = []) {
        self.token = token
        self.addresses = addresses
        let named = addresses.filter { !["::", "0.0.0.0"].contains($0) }.map(WebPage.urlHost)
        hosts = Set((["127.0.0.1", "[::1]", "localhost"] + named).map { "\($0.lowercased()):\(port)" })
    }

    /// The same gate for the port the page listens on, once known (`--web-port 0` picks one).
    package func listening(on port: Int) -> WebGate {
        WebGate(token: token, port: port, addresses: addresses)
    }

    package func admit(_ request: Request) -> Verdict {
        guard let host = request.host.map(Self.withPort), hosts.contains(host) else {
            return .refuse(status: 421, reason: "this page answers only to 127.0.0.1, [::1] or localhost")
        }
        if Self.pagePaths.contains(request.path) {
            return ["GET", "HEAD"].contains(request.method) ? .admit : Self.wrongMethod("GET")
        }
        guard let method = Self.apiRoutes[request.path] else {
            return request.path.hasPrefix("/api/") && !hasToken(request)
                ? Self.noToken : .refuse(status: 404, reason: "no such page")
        }
        guard hasToken(request) else { return Self.noToken }
        guard request.method == method else { return Self.wrongMethod(method) }
        if method != "GET", !sameOrigin(request.origin) {
            return .refuse(status: 403, reason: "a change must come from this page (Origin)")
        }
        return .admit
    }

    private static let noToken = Verdict.refuse(
        status: 401,
        reason: "no valid token: open the address `peerctl open` prints"
    )

    /// The methods `path` takes, for a 405's `Allow` header (RFC 9110, 15.5.6): nil for no route.
    package static func allowedMethods(for path: String) -> String? {
        pagePaths.contains(path) ? "GET, HEAD" : apiRoutes[path]
    }

    private static func wrongMethod(_ allowed: String) -> Verdict {
        .refuse(status: 405, reason: "use \(allowed)")
    }

    private func hasToken(_ request: Request) -> Bool {
        guard let header = request.authorization, header.hasPrefix("Bearer ") else { return false }
        return token.matches(String(header.dropFirst("Bearer ".count)))
    }

    private func sameOrigin(_ origin: String?) -> Bool {
        guard let origin = origin?.lowercased(), origin.hasPrefix("http://") else { return false }
        return hosts.contains(Self.withPort(String(origin.dropFirst("http://".count))))
    }

    /// `host:port`, lowercased; a host without a port is on HTTP's port 80, which browsers leave out.
    static func withPort(_ host: String) -> String {
        let host = host.lowercased()
        let port = host.split(separator: "]", omittingEmptySubsequences: false).last ?? ""
        return port.contains(":") ? host : host + ":80"
    }
}
