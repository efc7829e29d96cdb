import Foundation
import PeerControl
import PeerdModel
import PeerdTestKit
import PeerdTestSupport
import PeerdWire
import Testing

@Suite("peerctl against a real peerd")
struct PeerctlTests {
    @Test func listPagesWithLimitAndAfterAndStaysStableWhileAddsArrive() async throws {
        let scratch = try ScratchDirectory("pages")
        let alice = try TestDaemon("alice", in: scratch)
        for id in 1...25 { #expect(try alice.peerctl("add", String(id)).status == 0) }

        var seen: [Int] = []
        var cursor: String?
        var pages = 0
        repeat {
            var arguments = ["list", "--json", "--limit", "10"]
            if let cursor { arguments += ["--after", cursor] }
            let page = try PeerctlRun.run(["--socket", alice.socket] + arguments).json([MovieRecord].self)
            seen += page.map(\.movieId)
            cursor = page.count == 10 ? page.last?.cursor : nil
            pages += 1
            // Adds arriving between pages land after every existing row and never shift a page.
            if pages == 1 { #expect(try alice.peerctl("add", "100").status == 0) }
        } while cursor != nil
        #expect(seen == Array(1...25) + [100])

        let text = try alice.peerctl("list", "--limit", "10")
        #expect(text.status == 0)
        #expect(text.stderr.contains("next page: peerctl list --limit 10 --after "))
        let bad = try alice.peerctl("list", "--after", "not-a-cursor")
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("is not a cursor"))
    }

    @Test func listFollowPrintsEachChangeAsItHappens() async throws {
        let scratch = try ScratchDirectory("follow")
        let alice = try TestDaemon("alice", in: scratch)
        let process = Process()
        process.executableURL = Binaries.peerctl
        process.arguments = ["--socket", alice.socket, "list", "--follow", "--json"]
        let out = Pipe()
        let lines = LockedLines()
        out.fileHandleForReading.readabilityHandler = { handle in lines.append(handle.availableData) }
        process.standardOutput = out
        process.standardError = Pipe()
        let exited = EventFeed<Void>()
        process.terminationHandler = { _ in exited.send(()) }
        let exits = exited.subscribe()
        try process.run()
        defer {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        // The follower may subscribe after a first add, and says nothing until a change: one add
        // every 200 ms until one reaches it.
        var probe = 1
        #expect(
            try await waitUntil(Ticks(every: .milliseconds(200))) {
                probe += 1
                _ = try alice.peerctl("add", String(probe))
                return !lines.all.isEmpty
            }
        )
        #expect(try alice.peerctl("add", "603", "--title", "The Matrix").status == 0)
        #expect(try alice.peerctl("remove", "603").status == 0)
        #expect(try await waitUntil(lines.arrivals.subscribe()) { lines.all.contains { $0.contains("\"removed\"") } })

        let events = try lines.all.map { try JSONDecoder().decode(ChangeRecord.self, from: Data($0.utf8)) }
        let matrix = events.filter { $0.movieId == 603 }
        #expect(matrix.map(\.change) == [.added, .removed])
        #expect(matrix.first?.title == "The Matrix")
        #expect(matrix.allSatisfy { $0.by == "alice" })
        #expect(events.first.map { $0.change == .added && $0.movieId > 1 } == true)

        // Ctrl-C ends it.
        process.interrupt()
        #expect(try await waitUntil(exits) { !process.isRunning })
    }

    @Test func statusShowsIdentityNamePortAndCounts() async throws {
        let scratch = try ScratchDirectory("status")
        let alice = try TestDaemon("alice", in: scratch)
        #expect(try alice.peerctl("add", "603").status == 0)
        let json = try alice.peerctl("status", "--json").json(StatusRecord.self)
        #expect(json.name == "alice")
        #expect(json.port == alice.port)
        #expect(json.movies == 1)
        #expect(json.operations == 1)
        #expect(json.peer.rawValue.count == 32)
        #expect(json.mdns == false)
        let text = try alice.peerctl("status").stdout
        for needle in ["peer", json.peer.rawValue, "name", "alice", "port", String(alice.port), "uptime", "movies"] {
            #expect(text.contains(needle), "status output lacks \(needle)")
        }
    }

    @Test func addingAMovieTwiceSaysItIsAlreadyListed() async throws {
        let scratch = try ScratchDirectory("twice")
        let alice = try TestDaemon("alice", in: scratch)
        #expect(try alice.peerctl("add", "tmdb:603").status == 0)
        let again = try alice.peerctl("add", "https://www.themoviedb.org/movie/603-the-matrix?language=de")
        #expect(again.status == 0)
        #expect(again.stdout.contains("already on the list"))
        #expect(try alice.status().operations == 1)
        let json = try alice.peerctl("add", "603", "--json")
        #expect(json.stdout.contains("\"added\" : false"))
    }
}

/// Lines a child process printed, collected from its pipe's handler thread.
final class LockedLines: @unchecked Sendable {
    // @unchecked: `buffer` is only touched under `lock`.
    private let lock = NSLock()
    private var buffer = ""
    /// An event each time more was printed.
    let arrivals = EventFeed<Void>()

    func append(_ data: Data) {
        lock.withLock { buffer += String(decoding: data, as: UTF8.self) }
        arrivals.send(())
    }

    /// Complete lines so far.
    var all: [String] {
        lock.withLock {
            buffer.split(separator: "\n", omittingEmptySubsequences: true).dropLast(buffer.hasSuffix("\n") ? 0 : 1).map(
                String.init
            )
        }
    }
}
