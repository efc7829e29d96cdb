package import SystemPackage

/// Where the page listens and where its token is kept (proto/WEB.md).
package struct WebSettings: Sendable {
    /// By default loopback only, IPv4 and IPv6: the page is for the person at this machine.
    package static let defaultAddresses = ["127.0.0.1", "::1"]
    package static let defaultPort = 7602

    package var addresses: [String]
    /// 0 picks a free port (the same one for every address).
    package var port: Int
    package var tokenPath: FilePath

    package init(addresses: [String] = defaultAddresses, port: Int = defaultPort, tokenPath: FilePath) {
        self.addresses = addresses.isEmpty ? Self.defaultAddresses : addresses
        self.port = port
        self.tokenPath = tokenPath
    }
}
