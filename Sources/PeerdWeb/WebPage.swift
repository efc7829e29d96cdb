import Synchronization

/// Where the page is, once it is served, for `peerctl open` and `peerctl status`; or why it is not.
package final class WebPage: Sendable {
    package enum State: Sendable {
        case starting
        case serving(host: String, port: Int, token: WebToken)
        case off(reason: String)
    }

    private let current = Mutex(State.starting)

    package init() {}

    package var state: State {
        get { current.withLock { $0 } }
        set { current.withLock { $0 = newValue } }
    }

    /// `http://127.0.0.1:7602/`, without the token; nil while the page is not served.
    package var address: String? {
        guard case .serving(let host, let port, _) = state else { return nil }
        return "http://\(host):\(port)/"
    }

    /// The address with the token in its fragment (proto/WEB.md), or why there is none.
    package var url: Result<String, PageUnavailable> {
        switch state {
        case .serving(let host, let port, let token): .success("http://\(host):\(port)/#token=\(token.hex)")
        case .starting: .failure(PageUnavailable(reason: "the page is starting; try again in a moment"))
        case .off(let reason): .failure(PageUnavailable(reason: reason))
        }
    }

    /// `::1` as a URL's host is `[::1]`; `::` or `0.0.0.0` (every address) is reached at loopback.
    package static func urlHost(_ address: String) -> String {
        switch address {
        case "::": "[::1]"
        case "0.0.0.0": "127.0.0.1"
        default: address.contains(":") ? "[\(address)]" : address
        }
    }
}

package struct PageUnavailable: Error, Sendable {
    package var reason: String
}
