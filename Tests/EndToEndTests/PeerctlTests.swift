import Foundation
import PeerControl
import PeerdModel
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
        process.standardOutput = out
        process.standardError = Pipe()
        try process.run()
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        // The follower is subscribed once a change reaches it; keep adding until one does.
        let reader = out.fileHandleForReading
        #expect(try alice.peerctl("add", "603", "--title", "The Matrix").status == 0)
        #expect(try alice.peerctl("remove", "603").status == 0)
        var text = ""
        while text.split(separator: "\n").count < 2 {
            let data = reader.availableData
            guard !data.isEmpty else { break }
            text += String(decoding: data, as: UTF8.self)
        }
        let events = try text.split(separator: "\n").map {
            try JSONDecoder().decode(ChangeRecord.self, from: Data($0.utf8))
        }
        #expect(events.map(\.change) == [.added, .removed])
        #expect(events.first?.title == "The Matrix")
        #expect(events.allSatisfy { $0.by == "alice" && $0.movieId == 603 })
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
