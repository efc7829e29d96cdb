/// Pure: what a request to the guest door may reach (proto/WEB.md, "Guests"). The `Host` check
/// first, then the path: `/g/CAPABILITY/`, the guest page's files and four names under it, nothing
/// else; then the method, and the `Origin` of a `POST`. Whether the capability opens a pick is the
/// door's to say.
package struct GuestGate: LANGate {
    package enum Route: Hashable, Sendable {
        /// The guest page itself, `guest.html`.
        case page
        /// One of its scripts and styles, by name (``PageFiles/guestFiles``).
        case file(String)
        case state, join, vote, events

        /// The route of a name under `/g/CAPABILITY/`, if it is one.
        init?(_ name: String) {
            switch name {
            case "": self = .page
            case "state": self = .state
            case "join": self = .join
            case "vote": self = .vote
            case "events": self = .events
            default:
                guard name != "guest.html", PageFiles.guestFiles[name] != nil else { return nil }
                self = .file(name)
            }
        }

        var method: String { self == .join || self == .vote ? "POST" : "GET" }

        /// The page and its files: a closed pick's get a line of text, not the API's JSON.
        var isPage: Bool {
            switch self {
            case .page, .file: true
            case .state, .join, .vote, .events: false
            }
        }
    }

    package enum Verdict: Hashable, Sendable {
        case admit(capability: Substring, Route)
        /// `/g/CAP` without its slash: a 308 to `/g/CAP/` when the capability opens a pick.
        case redirect(capability: Substring)
        /// An HTTP status and a one-line reason; `allow` for a 405.
        case refuse(status: Int, reason: String, allow: String? = nil)
    }

    let lan: LANAuthority

    init(lan: LANAuthority) { self.lan = lan }

    package func admit(method: String, path: String, host: String?, origin: String?) -> Verdict {
        guard lan.admits(host: host) else {
            return .refuse(status: lan.misdirected.status, reason: lan.misdirected.reason)
        }
        let parts = path.split(separator: "/", maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count >= 3, parts[0].isEmpty, parts[1] == "g", Self.isCapability(parts[2]) else {
            return Self.notFound
        }
        let capability = parts[2]
        guard parts.count == 4 else {
            return ["GET", "HEAD"].contains(method) ? .redirect(capability: capability) : Self.notFound
        }
        guard let route = Route(String(parts[3])) else { return Self.notFound }
        let allowed = route.method == "GET" ? ["GET", "HEAD"] : ["POST"]
        guard allowed.contains(method) else {
            return .refuse(status: 405, reason: "use \(route.method)", allow: allowed.joined(separator: ", "))
        }
        if method == "POST", !lan.isOwn(origin: origin) {
            return .refuse(status: 403, reason: "a vote must come from the guest page (Origin)")
        }
        return .admit(capability: capability, route)
    }

    package static let notFound = Verdict.refuse(status: 404, reason: "no such page")

    /// 22 base64url characters: what ``GuestKey/capability(for:)`` makes.
    static func isCapability(_ text: Substring) -> Bool {
        text.utf8.count == 22 && text.utf8.allSatisfy { GuestKey.base64urlDigits.contains($0) }
    }
}
