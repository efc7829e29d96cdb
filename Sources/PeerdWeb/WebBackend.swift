package import PeerdWire

/// What the page's API asks of the daemon: the control socket's answers and its change stream,
/// so the page and `peerctl` share one protocol and one place that answers (proto/WEB.md).
package protocol WebBackend: Sendable {
    func respond(to request: ControlRequest) async -> ControlResponse
    /// The list's changes from now on, as `follow` streams them.
    func follow() async -> ChangeFollow
    /// The page's `pick` events from now on: each pick a commit changed, as `pickStatus` answers it,
    /// built once for every open event stream.
    func pickEvents() async -> AsyncStream<PickEvent>
    /// Runs for as long as the page is served (until graceful shutdown): what ``pickEvents()`` yields.
    func run() async
}
