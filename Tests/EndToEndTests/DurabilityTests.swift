import Foundation
import PeerControl
import PeerdModel
import PeerdTestKit
import PeerdTestSupport
import PeerdWire
import Testing

@Suite("Durability of a real peerd")
struct DurabilityTests {
    @Test func everyAcknowledgedAddSurvivesKillDashNine() async throws {
        let scratch = try ScratchDirectory("kill9")
        let alice = try TestDaemon("alice", in: scratch)
        let socket = alice.socket

        // Writers keep adding, on their own threads (blocking I/O stays off the test's executor),
        // while the daemon is killed mid-stream; each records what was acknowledged.
        let acked = LockedIDs()
        let writers = DispatchGroup()
        for writer in 0..<4 {
            writers.enter()
            Thread.detachNewThread {
                defer { writers.leave() }
                for n in 0..<5_000 {
                    let id = writer * 10_000 + n + 1
                    guard let client = try? ControlClient(socketPath: socket),
                        case .added = try? client.request(AddRequest(movie: Movie(id: MovieID(id)!)))
                    else { return }
                    acked.insert(id)
                }
            }
        }
        // The killer watches from its own thread too, so a busy test executor can't delay the kill.
        let killedMidStream = LockedIDs()
        writers.enter()
        Thread.detachNewThread {
            defer { writers.leave() }
            for _ in 0..<20_000 {
                if let status = try? alice.status(), status.movies >= 200 {
                    killedMidStream.insert(status.movies)
                    break
                }
                usleep(1_000)
            }
            alice.stop(signal: SIGKILL)
        }
        writers.wait()
        #expect(!killedMidStream.all.isEmpty, "the daemon never reached 200 movies")
        let acknowledged = acked.all
        // The kill landed mid-stream: some adds were acknowledged, and not all 20,000 were tried.
        // (The 200th commit can be killed before its reply reaches the writer, so no exact bound.)
        #expect(acknowledged.count >= 100)
        #expect(acknowledged.count < 20_000)

        try alice.start()
        let listed = Set(try alice.movieIDs())
        let lost = Set(acknowledged).subtracting(listed)
        #expect(lost.isEmpty, "acknowledged but lost after kill -9: \(lost.sorted().prefix(20))")
        #expect(try alice.peerctl("add", "999999").status == 0)
    }

    @Test func aTornLogTailIsCutOffAtStartAndTheRestIsKept() async throws {
        let scratch = try ScratchDirectory("torn")
        let alice = try TestDaemon("alice", in: scratch)
        for id in [603, 550, 13] { #expect(try alice.peerctl("add", String(id)).status == 0) }
        alice.stop()

        let logFile = try #require(
            try FileManager.default.contentsOfDirectory(atPath: alice.stateDir).first { $0.hasSuffix(".log") }
        )
        let handle = try #require(FileHandle(forWritingAtPath: alice.stateDir + "/" + logFile))
        handle.seekToEndOfFile()
        // Half of a record: a length header promising more bytes than follow, as after a crash mid-write.
        handle.write(Data([0, 0, 0, 90, 0xDE, 0xAD, 0xBE, 0xEF]) + Data("{\"origin\":".utf8))
        try handle.close()

        try alice.start()
        #expect(try alice.movieIDs() == [603, 550, 13])
        #expect(alice.log.lowercased().contains("corrupt") || alice.log.lowercased().contains("torn"))
        let saved = try FileManager.default.contentsOfDirectory(atPath: alice.stateDir).filter {
            $0.contains("corrupt")
        }
        #expect(saved.count == 1)
        #expect(try alice.peerctl("add", "680").status == 0)
        alice.stop()
        try alice.start()
        #expect(try alice.movieIDs() == [603, 550, 13, 680])
    }

    @Test func aRestartReloadsTheListAndKeepsTheIdentity() async throws {
        let scratch = try ScratchDirectory("restart")
        let alice = try TestDaemon("alice", in: scratch)
        #expect(try alice.peerctl("add", "603", "--title", "The Matrix", "--year", "1999").status == 0)
        let before = try alice.status()
        alice.stop()
        try alice.start()
        let after = try alice.status()
        #expect(after.peer == before.peer)
        #expect(after.movies == 1)
        #expect(try alice.list().first?.title == "The Matrix")
    }
}

final class LockedIDs: @unchecked Sendable {
    // @unchecked: `ids` is only touched under `lock`.
    private let lock = NSLock()
    private var ids: [Int] = []

    func insert(_ id: Int) { lock.withLock { ids.append(id) } }
    var all: [Int] { lock.withLock { ids } }
}
