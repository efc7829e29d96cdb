package import PeerdWire

/// What one of the page's event streams sends (proto/WEB.md, "The API"): the changes of the list it
/// follows, and its picks' events.
package struct PageEvents: Sendable {
    package var changes: ChangeFollow
    package var picks: AsyncStream<PickEvent>
    /// Builds ``picks`` while the stream is open when they are this stream's own (another list's);
    /// the group's are built once for every stream, and this returns at once.
    package var building: @Sendable () async -> Void

    package init(
        changes: ChangeFollow,
        picks: AsyncStream<PickEvent>,
        building: @escaping @Sendable () async -> Void = {}
    ) {
        (self.changes, self.picks, self.building) = (changes, picks, building)
    }
}
