import Foundation

/// Polls `condition` until it holds or `timeout` passes; returns whether it held. For state that
/// settles over the network (a peer catching up), where no single event says "done".
package func eventually(
    timeout: Duration = .seconds(15),
    every interval: Duration = .milliseconds(50),
    _ condition: () throws -> Bool
) async throws -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try condition() { return true }
        try await Task.sleep(for: interval)
    }
    return try condition()
}
