package import PeerdModel

/// What a `follow` sends after `following` (CONTROL.md), and what the page's event stream carries
/// (WEB.md): one ``ChangeRecord`` per list change, in commit order, read from a subscription to the
/// replica's changes. The subscription ends with its stream: once the reader stops and lets go.
package struct ChangeFollow: Sendable {
    let changes: AsyncStream<[WatchListChange]>

    /// Follows `changes`, a subscription that keeps every change (no batch may be dropped).
    package init(_ changes: AsyncStream<[WatchListChange]>) {
        self.changes = changes
    }

    /// Hands each change to `deliver` as its record, in order, until `deliver` throws (the reader
    /// went away), the changes end (the replica stopped) or the task is cancelled.
    package func forward(to deliver: (ChangeRecord) async throws -> Void) async {
        for await batch in changes {
            for change in batch {
                guard (try? await deliver(ChangeRecord(change))) != nil else { return }
            }
        }
    }
}
