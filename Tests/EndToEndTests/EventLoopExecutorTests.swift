import Foundation
import PeerdTestKit
import PeerdTestSupport
import Testing

/// peerd runs its Swift tasks on SwiftNIO's event loops, and never on libdispatch's worker pool,
/// whose monitor would wake it every second for good (PeerdMain, `LoopClock`).
@Suite("Tasks run on the event loops")
struct EventLoopExecutorTests {
    /// The threads' names (`/proc/PID/task/TID/comm`). libdispatch names a worker of Swift's global
    /// pool after its root queue, "com.apple.root.default-qos", cut to its last 15 bytes; an idle one
    /// lives on for seconds after its last job, so one that ran a task is seen just after.
    static func threadNames(of daemon: TestDaemon) throws -> [String] {
        let pid = try #require(daemon.pid)
        let tasks = "/proc/\(pid)/task"
        return try FileManager.default.contentsOfDirectory(atPath: tasks).compactMap {
            try? String(contentsOfFile: "\(tasks)/\($0)/comm", encoding: .utf8)
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    /// Workers of the root queues Swift's global pool uses ("…default-qos"); libdispatch's own
    /// threads end in "-qos.overcommit" and don't count.
    static func poolWorkers(of daemon: TestDaemon) throws -> [String] {
        try threadNames(of: daemon).filter { $0.hasSuffix("-qos") }
    }

    @Test func aSessionAnAddAndItsTimersLeaveNoDispatchWorker() async throws {
        let scratch = try ScratchDirectory("event-loop-executor")
        // A keepalive every second: the connections' timers and the dialer's sleeps run too.
        let alice = try TestDaemon("alice", in: scratch, arguments: ["--keepalive-interval", "1"])
        let bob = try TestDaemon("bob", in: scratch, peers: [alice], arguments: ["--keepalive-interval", "1"])
        #expect(try alice.peerctl("add", "603").status == 0)
        #expect(try await bob.waitUntil { try bob.movieIDs() == [603] })
        #expect(try bob.peerctl("remove", "603").status == 0)
        #expect(try await alice.waitUntil { try alice.movieIDs().isEmpty })
        for daemon in [alice, bob] {
            let names = try Self.threadNames(of: daemon)
            #expect(names.contains { $0.hasPrefix("NIO-") }, "\(daemon.name): \(names)")
            #expect(try Self.poolWorkers(of: daemon).isEmpty, "\(daemon.name) ran tasks on libdispatch: \(names)")
        }
    }
}
