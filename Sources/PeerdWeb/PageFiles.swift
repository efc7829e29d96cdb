/// The page's files, compiled into the binary (`.embedInCode` in Package.swift): no build step,
/// nothing to install beside the executable, and the same bytes that were tested.
enum PageFiles {
    struct File: Sendable {
        let bytes: [UInt8]
        let contentType: String
    }

    /// Each file by its path; `/` is `index.html`.
    static let files: [String: File] = {
        let html = File(bytes: PackageResources.index_html, contentType: "text/html; charset=utf-8")
        let script = "text/javascript; charset=utf-8"
        return [
            "/": html, "/index.html": html,
            "/app.js": File(bytes: PackageResources.app_js, contentType: script),
            "/live.js": live,
            "/browse.js": File(bytes: PackageResources.browse_js, contentType: script),
            "/app.css": File(bytes: PackageResources.app_css, contentType: "text/css; charset=utf-8"),
        ]
    }()

    static func file(at path: String) -> File? { files[path] }

    /// What both pages use: the event stream's reader and the card's swipe.
    static let live = File(bytes: PackageResources.live_js, contentType: "text/javascript; charset=utf-8")

    /// The guest page's files, by name (proto/WEB.md, "Guests"): served only by the guest door.
    static let guestFiles: [String: File] = [
        "guest.html": File(bytes: PackageResources.guest_html, contentType: "text/html; charset=utf-8"),
        "live.js": live,
        "guest.js": File(bytes: PackageResources.guest_js, contentType: "text/javascript; charset=utf-8"),
        "guest.css": File(bytes: PackageResources.guest_css, contentType: "text/css; charset=utf-8"),
    ]

    /// Bytes of all the page's files, for the README.
    static var totalBytes: Int {
        files.filter { $0.key != "/" }.values.map(\.bytes.count).reduce(0, +)
    }
}
