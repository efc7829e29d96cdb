/// Pure: what a request to the device door may reach (proto/WEB.md, "Devices"). The `Host` check
/// first, then the path: `/link/CODE`, the member's page and its files, and the page's API on the
/// paths the loopback page uses; then the method, and the `Origin` of a `POST`. Whether the request
/// carries a linked device is the door's to say.
package struct DeviceGate: LANGate {
    package enum Route: Hashable, Sendable {
        /// `GET /link/CODE`: a one-use link, opened by the browser that becomes a device.
        case link(code: Substring)
        /// One of the page's files, by path (``PageFiles/files``).
        case file(String)
        /// What holds nothing of the member's and needs no device: the web app manifest and its
        /// icons, which browsers fetch without cookies.
        case openFile(String)
        /// `POST /api/request`: a control request.
        case request
        /// `GET /api/events`: the page's event stream.
        case events

        /// What it takes: a link only GET, so that nothing but opening it uses it up.
        var methods: [String] {
            switch self {
            case .request: ["POST"]
            case .link, .events: ["GET"]
            case .file, .openFile: ["GET", "HEAD"]
            }
        }

        /// The page itself, or one of its files: a refusal there is a page of words, not JSON.
        package var isPage: Bool {
            switch self {
            case .link, .file, .openFile: true
            case .request, .events: false
            }
        }
    }

    package enum Verdict: Hashable, Sendable {
        case admit(Route)
        /// An HTTP status and a one-line reason; `allow` for a 405.
        case refuse(status: Int, reason: String, allow: String? = nil)
    }

    /// The files served without a device.
    package static let openPaths: Set<String> = [
        "/manifest.webmanifest", "/icon-192.png", "/icon-512.png", "/favicon.ico",
    ]

    let lan: LANAuthority

    init(lan: LANAuthority) { self.lan = lan }

    package func admit(method: String, path: String, host: String?, origin: String?) -> Verdict {
        guard lan.admits(host: host) else {
            return .refuse(status: lan.misdirected.status, reason: lan.misdirected.reason)
        }
        guard let route = Self.route(path) else { return .refuse(status: 404, reason: "no such page") }
        guard route.methods.contains(method) else {
            return .refuse(
                status: 405,
                reason: "use \(route.methods[0])",
                allow: route.methods.joined(separator: ", ")
            )
        }
        if method == "POST", !lan.isOwn(origin: origin) {
            return .refuse(status: 403, reason: "a change must come from this page (Origin)")
        }
        return .admit(route)
    }

    static func route(_ path: String) -> Route? {
        if path.hasPrefix("/link/") {
            let code = path.dropFirst("/link/".count)
            return DeviceSecret.isCode(code) ? .link(code: code) : nil
        }
        if openPaths.contains(path) { return .openFile(path) }
        if WebGate.pagePaths.contains(path) { return .file(path) }
        switch path {
        case "/api/request": return .request
        case "/api/events": return .events
        default: return nil
        }
    }
}
