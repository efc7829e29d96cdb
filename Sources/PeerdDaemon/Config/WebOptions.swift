import PeerdWeb

/// Where the page listens: `--web-address` (repeatable), `--web-port`, `--no-web`, or the config
/// file's `webAddress`, `webPort` and `web` (proto/WEB.md).
package struct WebOptions: Sendable {
    package var enabled = true
    package var addresses = WebSettings.defaultAddresses
    package var port = WebSettings.defaultPort

    package init() {}
}
