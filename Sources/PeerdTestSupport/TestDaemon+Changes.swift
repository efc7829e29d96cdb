import Foundation
import PeerControl
package import PeerdTestKit
import PeerdWire

/// Waiting on a spawned daemon's list: its `follow` stream (proto/CONTROL.md), one event per change
/// it commits, local or received from a peer.
extension TestDaemon {
    /// Whether `condition` holds now or after one of the list changes of `daemons`, within
    /// `timeout` (``waitUntil(_:within:_:)``): for what the daemons' lists show.
    package static func waitUntil(
        _ daemons: [TestDaemon],
        within timeout: Duration = .seconds(15),
        _ condition: () throws -> Bool
    ) async throws -> Bool {
        try await PeerdTestKit.waitUntil(try changes(of: daemons), within: timeout, condition)
    }

    /// ``waitUntil(_:within:_:)`` on this daemon's list alone.
    package func waitUntil(within timeout: Duration = .seconds(15), _ condition: () throws -> Bool) async throws
        -> Bool
    {
        try await Self.waitUntil([self], within: timeout, condition)
    }

    /// One event per list change of any of `daemons` from the moment this returns (their `follow`
    /// streams are answered `following` first), until the stream is dropped or its reader cancelled.
    package static func changes(of daemons: [TestDaemon]) throws -> AsyncStream<Void> {
        let (stream, sink) = AsyncStream.makeStream(of: Void.self)
        let readers = try daemons.map { try FollowReader(socket: $0.socket, sink: sink) }
        sink.onTermination = { _ in for reader in readers { reader.stop() } }
        for reader in readers { reader.start() }
        return stream
    }
}

/// A `follow` connection read on a thread of its own: the control client blocks.
///
/// `@unchecked Sendable`: `client` is read only by the thread; ``stop()`` only calls `shutdown(2)`
/// on its socket, which is safe from any thread and wakes the blocked read.
private final class FollowReader: @unchecked Sendable {
    private let client: ControlClient
    private let sink: AsyncStream<Void>.Continuation

    init(socket: String, sink: AsyncStream<Void>.Continuation) throws {
        client = try ControlClient(socketPath: socket)
        self.sink = sink
        guard case .following = try client.request(FollowRequest()) else {
            throw ControlClient.Failure.protocolError("follow was not answered `following`")
        }
    }

    func start() {
        Thread { [self] in
            while case .change = try? client.receive() { sink.yield() }
            sink.finish()
        }.start()
    }

    func stop() { client.shutDown() }
}
