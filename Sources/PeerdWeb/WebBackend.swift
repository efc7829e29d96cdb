package import PeerdWire

/// What the page's API asks of the daemon: the control socket's answers and its change stream,
/// so the page and `peerctl` share one protocol and one place that answers (proto/WEB.md).
package protocol WebBackend: Sendable {
    func respond(to request: ControlRequest) async -> ControlResponse
    /// The page's events from now on, as `follow` (the `follow` `request` is) streams them: the
    /// changes of the list its `inList` names (nil: the group's) for the member its `profile` names,
    /// and that list's picks, each as `pickStatus` answers it; or why not (no such list).
    func events(for request: ControlRequest) async -> Result<PageEvents, WireError>
    /// Runs for as long as the page is served (until graceful shutdown): what builds the group's
    /// pick events, once for every open event stream.
    func run() async
}
