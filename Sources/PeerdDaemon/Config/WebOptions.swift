import PeerdWeb

/// Where the page listens: `--web-address` (repeatable), `--web-port`, `--no-web`, or the config
/// file's `webAddress`, `webPort` and `web` (proto/WEB.md).
package struct WebOptions: Sendable {
    package var enabled = true
    package var addresses = WebSettings.defaultAddresses
    package var port = WebSettings.defaultPort

    package init() {}
}

/// Where a pick's guests reach this peer: `--guest-address`, `--guest-port`, `--no-guests`, or the
/// config file's `guestAddress`, `guestPort` and `guests` (proto/WEB.md, "Guests").
package struct GuestOptions: Sendable {
    package static let defaultPort = 7603

    package var enabled = true
    /// nil: the LAN address found when the door opens.
    package var address: String?
    package var port = defaultPort

    package init() {}
}

/// Where linked devices reach this machine: `--device-address`, `--device-port`, `--no-devices`, or
/// the config file's `deviceAddress`, `devicePort` and `devices` (proto/WEB.md, "Devices").
package struct DeviceOptions: Sendable {
    package static let defaultPort = 7604

    package var enabled = true
    /// nil: the LAN address found when the door opens.
    package var address: String?
    package var port = defaultPort

    package init() {}
}
