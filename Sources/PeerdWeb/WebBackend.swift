package import PeerdWire

/// What the page's API asks of the daemon: the control socket's answers and its change stream,
/// so the page and `peerctl` share one protocol and one place that answers (proto/WEB.md).
package protocol WebBackend: Sendable {
    func respond(to request: ControlRequest) async -> ControlResponse
    /// The list's changes from now on, as `follow` streams them.
    func follow() async -> ChangeFollow
}

/// The control requests the page may send. The rest (follow, connect, invite, join, forget,
/// trust, diagnose, import) stay with `peerctl`: they pair, trust, dial, tell the network's details
/// or bring in a file, which a page has no business doing.
extension ControlRequest {
    package var allowedFromPage: Bool {
        switch self {
        case .add, .remove, .list, .peers, .status, .search, .discover, .similar, .genres, .services, .show, .refresh,
            .mark, .watch, .history, .pick, .vote, .pickStatus, .pickClose:
            true
        case .follow, .connect, .invite, .join, .forget, .trust, .page, .diagnose, .importRows: false
        }
    }
}
