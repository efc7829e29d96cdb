/// Keep the connection open and stream one `change` per list change.
package struct FollowRequest: ControlRequestBody {
    package static let tag = "follow"
    package static let allowedFromPage = false
    package init() {}
}

/// The peers this daemon knows, connected or not.
package struct PeersRequest: ControlRequestBody {
    package static let tag = "peers"
    package static let takesList = false
    package init() {}
}

/// This daemon at a glance.
package struct StatusRequest: ControlRequestBody {
    package static let tag = "status"
    package init() {}
}

/// Add a static peer `host:port` and dial it (again with backoff) until it answers.
package struct ConnectRequest: ControlRequestBody {
    package static let tag = "connect"
    package static let takesList = false
    package static let allowedFromPage = false
    package var address: String

    package init(address: String) { self.address = address }
}

/// Make a one-time invite code valid for `expiresIn` seconds (default 600).
package struct InviteRequest: ControlRequestBody {
    package static let tag = "invite"
    package static let takesList = false
    package static let allowedFromPage = false
    package var expiresIn: Int?

    package init(expiresIn: Int? = nil) { self.expiresIn = expiresIn }
}

/// Pair with the peer that printed `code`, found by mDNS or at `address`; answers once paired.
package struct JoinRequest: ControlRequestBody {
    package static let tag = "join"
    package static let takesList = false
    package static let allowedFromPage = false
    package var code: String
    package var address: String?

    package init(code: String, address: String? = nil) {
        self.code = code
        self.address = address
    }
}

/// Revoke a peer: by id, unique id prefix, or unique name.
package struct ForgetRequest: ControlRequestBody {
    package static let tag = "forget"
    package static let takesList = false
    package static let allowedFromPage = false
    package var peer: String

    package init(peer: String) { self.peer = peer }
}

/// Trust a peer id by hand (also undoes `forget`).
package struct TrustRequest: ControlRequestBody {
    package static let tag = "trust"
    package static let takesList = false
    package static let allowedFromPage = false
    package var peer: String

    package init(peer: String) { self.peer = peer }
}

/// The page's address with its token (proto/WEB.md), for `peerctl open`.
package struct PageRequest: ControlRequestBody {
    package static let tag = "page"
    package static let takesList = false
    package static let allowedFromPage = false
    package init() {}
}

/// What `peerctl doctor` needs that only the daemon knows (proto/CONTROL.md, "diagnose").
package struct DiagnoseRequest: ControlRequestBody {
    package static let tag = "diagnose"
    package static let takesList = false
    package static let allowedFromPage = false
    package init() {}
}
