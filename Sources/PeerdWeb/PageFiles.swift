/// The page's files, compiled into the binary (`.embedInCode` in Package.swift): no build step,
/// nothing to install beside the executable, and the same bytes that were tested.
enum PageFiles {
    struct File: Sendable {
        let bytes: [UInt8]
        let contentType: String
    }

    private static let script = "text/javascript; charset=utf-8"
    private static let style = "text/css; charset=utf-8"
    private static let html = "text/html; charset=utf-8"
    private static let png = "image/png"

    /// What both pages use, by name: the base stylesheet, and the modules for the DOM, the API, the
    /// event stream and a pick's card to vote on.
    static let shared: [String: File] = [
        "base.css": File(bytes: PackageResources.base_css, contentType: style),
        "dom.js": File(bytes: PackageResources.dom_js, contentType: script),
        "api.js": File(bytes: PackageResources.api_js, contentType: script),
        "live.js": File(bytes: PackageResources.live_js, contentType: script),
        "card.js": File(bytes: PackageResources.card_js, contentType: script),
    ]

    /// The member's page's own files, by name: its entry module, one module per view and what they share.
    private static let own: [String: File] = [
        "index.html": File(bytes: PackageResources.index_html, contentType: html),
        "app.css": File(bytes: PackageResources.app_css, contentType: style),
        "app.js": File(bytes: PackageResources.app_js, contentType: script),
        "page.js": File(bytes: PackageResources.page_js, contentType: script),
        "list.js": File(bytes: PackageResources.list_js, contentType: script),
        "listcard.js": File(bytes: PackageResources.listcard_js, contentType: script),
        "listbutton.js": File(bytes: PackageResources.listbutton_js, contentType: script),
        "peers.js": File(bytes: PackageResources.peers_js, contentType: script),
        "members.js": File(bytes: PackageResources.members_js, contentType: script),
        "who.js": File(bytes: PackageResources.who_js, contentType: script),
        "lists.js": File(bytes: PackageResources.lists_js, contentType: script),
        "search.js": File(bytes: PackageResources.search_js, contentType: script),
        "discover.js": File(bytes: PackageResources.discover_js, contentType: script),
        "movie.js": File(bytes: PackageResources.movie_js, contentType: script),
        "activity.js": File(bytes: PackageResources.activity_js, contentType: script),
        "tonight.js": File(bytes: PackageResources.tonight_js, contentType: script),
        "news.js": File(bytes: PackageResources.news_js, contentType: script),
        "tv.css": File(bytes: PackageResources.tv_css, contentType: style),
        "tv.js": File(bytes: PackageResources.tv_js, contentType: script),
        "tvmovie.js": File(bytes: PackageResources.tvmovie_js, contentType: script),
        "spatial.js": File(bytes: PackageResources.spatial_js, contentType: script),
        // "Add to Home Screen": the web app manifest and its icons (drawn by scripts/make-icons.py).
        "manifest.webmanifest": File(
            bytes: PackageResources.manifest_webmanifest,
            contentType: "application/manifest+json"
        ),
        "icon-192.png": File(bytes: PackageResources.icon_192_png, contentType: png),
        "icon-512.png": File(bytes: PackageResources.icon_512_png, contentType: png),
    ]

    /// Each file of the member's page by its path; `/` is `index.html`.
    static let files: [String: File] = {
        var files = Dictionary(uniqueKeysWithValues: shared.merging(own) { $1 }.map { ("/" + $0.key, $0.value) })
        files["/"] = files["/index.html"]
        return files
    }()

    static func file(at path: String) -> File? { files[path] }

    /// The guest page's files, by name (proto/WEB.md, "Guests"): served only by the guest door.
    static let guestFiles: [String: File] = shared.merging([
        "guest.html": File(bytes: PackageResources.guest_html, contentType: html),
        "guest.js": File(bytes: PackageResources.guest_js, contentType: script),
        "guest.css": File(bytes: PackageResources.guest_css, contentType: style),
    ]) { $1 }

    /// Bytes of all the page's files, for the README.
    static var totalBytes: Int {
        files.filter { $0.key != "/" }.values.map(\.bytes.count).reduce(0, +)
    }
}
