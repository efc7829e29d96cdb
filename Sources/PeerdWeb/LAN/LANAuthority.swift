import Hummingbird

/// Pure: the one `ADDRESS:PORT` a door on the LAN answers to (the guests', the devices'), as its
/// links name it and browsers send it in `Host` and `Origin`, lowercased. Never a name DNS could
/// point elsewhere: the `Host` check stops DNS rebinding, the `Origin` check a POST from another site.
package struct LANAuthority: Hashable, Sendable {
    package let authority: String
    let address: String
    let port: Int

    package init(address: String, port: Int) {
        self.address = address
        self.port = port
        authority = "\(WebPage.urlHost(address).lowercased()):\(port)"
    }

    /// The same authority on the port the door listens on, once known (port 0 picks one).
    func listening(on port: Int) -> LANAuthority { LANAuthority(address: address, port: port) }

    func admits(host: String?) -> Bool { host.map(WebGate.withPort) == authority }

    func isOwn(origin: String?) -> Bool { origin?.lowercased() == "http://\(authority)" }

    /// A request with another `Host`: 421, and the one it answers to.
    var misdirected: (status: Int, reason: String) { (421, "this page answers only to \(authority)") }
}

/// A door's gate on the LAN (the guests', the devices'): pure, on one ``LANAuthority``; its
/// verdict on a request's method, path, `Host` and `Origin`.
protocol LANGate: PortBoundGate {
    associatedtype Verdict
    var lan: LANAuthority { get }
    init(lan: LANAuthority)
    func admit(method: String, path: String, host: String?, origin: String?) -> Verdict
}

extension LANGate {
    init(address: String, port: Int) { self.init(lan: LANAuthority(address: address, port: port)) }

    /// `ADDRESS:PORT`, as the door's links name it and browsers send it in `Host`, lowercased.
    var authority: String { lan.authority }

    /// The same gate on the port the door listens on, once known (`--…-port 0` picks one).
    func listening(on port: Int) -> Self { Self(lan: lan.listening(on: port)) }

    func admit(_ request: Request) -> Verdict {
        admit(
            method: request.method.rawValue,
            path: request.uri.path,
            host: request.head.authority,
            origin: request.headers[.origin]
        )
    }
}

extension Response {
    /// A gate's refusal: the status and one line of text, and the methods a 405's route takes.
    static func refused(status: Int, reason: String, allow: String?) -> Response {
        var response = WebGateMiddleware<BasicRequestContext>.text(status: status, reason)
        if let allow { response.headers[.allow] = allow }
        return response
    }
}
