package import HTTPTypes

/// The headers every response of the page carries, the refused ones too (proto/WEB.md).
package enum WebHeaders {
    /// The page's scripts and styles are its own files; it talks only to this server; posters come
    /// straight from TMDB's image server, the one other origin allowed. The web app manifest is its own.
    package static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
        + "img-src 'self' https://image.tmdb.org; manifest-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    package static let all: HTTPFields = [
        HTTPField.Name("Content-Security-Policy")!: contentSecurityPolicy,
        HTTPField.Name("X-Content-Type-Options")!: "nosniff",
        HTTPField.Name("Referrer-Policy")!: "no-referrer",
        .cacheControl: "no-store",
    ]
}
