/// The page's files, compiled into the binary (`.embedInCode` in Package.swift): no build step,
/// nothing to install beside the executable, and the same bytes that were tested.
enum PageFiles {
    struct File: Sendable {
        let bytes: [UInt8]
        let contentType: String
    }

    static func file(at path: String) -> File? {
        switch path {
        case "/", "/index.html": File(bytes: PackageResources.index_html, contentType: "text/html; charset=utf-8")
        case "/app.js": File(bytes: PackageResources.app_js, contentType: "text/javascript; charset=utf-8")
        case "/app.css": File(bytes: PackageResources.app_css, contentType: "text/css; charset=utf-8")
        default: nil
        }
    }

    /// Bytes of all the page's files, for the README.
    static var totalBytes: Int {
        [PackageResources.index_html, PackageResources.app_js, PackageResources.app_css].map(\.count).reduce(0, +)
    }
}
