import Foundation
import PeerdTestSupport
import PeerdWire
import Testing

@Suite("Bad input gets a clear error and loses nothing")
struct BadInputTests {
    /// A daemon with a connected peer and one movie, so each test can check that nothing broke.
    struct Pair {
        let scratch: ScratchDirectory
        let alice: TestDaemon
        let bob: TestDaemon

        init(_ label: String) async throws {
            scratch = try ScratchDirectory(label)
            alice = try TestDaemon("alice", in: scratch)
            bob = try TestDaemon("bob", in: scratch, peers: [alice])
            #expect(try alice.peerctl("add", "603").status == 0)
            #expect(try await eventually { try bob.movieIDs() == [603] })
        }

        /// Alice still answers, and still replicates to bob.
        func stillServing(movie: Int) async throws {
            #expect(try alice.peerctl("add", String(movie)).status == 0)
            #expect(try await eventually { try bob.movieIDs().contains(movie) })
        }
    }

    static func errorCodes(_ frames: [[String: Any]]) -> [String] {
        frames.filter { $0["type"] as? String == "error" }.compactMap { $0["code"] as? String }
    }

    @Test func anOversizedLengthOnThePeerPortIsRefusedFromTheHeaderAlone() async throws {
        let pair = try await Pair("oversized")
        let attacker = try RawConnection(tcpPort: pair.alice.port)
        attacker.send([0xFF, 0xFF, 0xFF, 0xFF])  // 4 GiB promised, no body sent
        let (frames, closed) = attacker.readFramesUntilClosed()
        #expect(closed)
        #expect(Self.errorCodes(frames) == ["frame-too-large"])
        try await pair.stillServing(movie: 550)
    }

    @Test(
        arguments: [
            ("not json at all", "malformed-frame"),
            (
                #"{"type":"hello","version":99,"peer":"0123456789abcdef","name":"x","port":1,"vector":{}}"#,
                "unsupported-version"
            ),
            (#"{"type":"gossip"}"#, "unknown-type"),
            (#"{"type":"ops","ops":[]}"#, "unexpected-message"),
            (#"{"type":"hello"}"#, "malformed-frame"),
            ("{\"a\":" + String(repeating: "[", count: 5000), "malformed-frame"),
        ]
    )
    func aBadFirstFrameOnThePeerPortGetsAnErrorFrameAndAClose(body: String, code: String) async throws {
        let pair = try await Pair("badpeer")
        let attacker = try RawConnection(tcpPort: pair.alice.port)
        attacker.sendFrame(body)
        let (frames, closed) = attacker.readFramesUntilClosed()
        #expect(closed)
        #expect(Self.errorCodes(frames) == [code])
        try await pair.stillServing(movie: 550)
    }

    @Test func invalidUTF8OnThePeerPortIsRefused() async throws {
        let pair = try await Pair("utf8")
        let attacker = try RawConnection(tcpPort: pair.alice.port)
        attacker.send(RawConnection.frame([0x7B, 0x22, 0xFF, 0xFE, 0x22, 0x3A, 0x31, 0x7D]))
        let (frames, closed) = attacker.readFramesUntilClosed()
        #expect(closed)
        #expect(Self.errorCodes(frames) == ["malformed-frame"])
        try await pair.stillServing(movie: 550)
    }

    @Test func aForgedOperationAfterAValidHelloIsRefusedAndNotMerged() async throws {
        let pair = try await Pair("forged")
        let attacker = try RawConnection(tcpPort: pair.alice.port)
        attacker.sendFrame(
            #"{"type":"hello","version":1,"peer":"00000000deadbeef","name":"mallory","port":1,"vector":{}}"#
        )
        // seq 5 with nothing before it: a gap the receiver must refuse.
        attacker.sendFrame(
            #"{"type":"ops","ops":[{"origin":"00000000deadbeef","seq":5,"lamport":9,"at":0,"by":"mallory","op":"add","movie":{"id":666}}]}"#
        )
        let (frames, closed) = attacker.readFramesUntilClosed()
        #expect(closed)
        #expect(Self.errorCodes(frames) == ["invalid-operation"])
        #expect(try !pair.alice.movieIDs().contains(666))
        try await pair.stillServing(movie: 550)
    }

    @Test func theControlSocketRefusesBadFramesAndKeepsServing() async throws {
        let pair = try await Pair("control")
        let oversized = try RawConnection(unixPath: pair.alice.socket)
        oversized.send([0x7F, 0xFF, 0xFF, 0xFF])
        let (tooLarge, closed) = oversized.readFramesUntilClosed()
        #expect(closed)
        #expect(Self.errorCodes(tooLarge) == ["frame-too-large"])

        let garbage = try RawConnection(unixPath: pair.alice.socket)
        garbage.sendFrame("{\"type\":")
        #expect(Self.errorCodes(garbage.readFramesUntilClosed().frames) == ["malformed-frame"])

        // An unknown type or version is answered, and the same connection still serves the next request.
        let polite = try RawConnection(unixPath: pair.alice.socket)
        polite.sendFrame(#"{"type":"dance","version":1}"#)
        polite.sendFrame(#"{"type":"status","version":2}"#)
        polite.sendFrame(#"{"type":"status","version":1}"#)
        let replies = polite.readFramesUntilClosedOrCount(3)
        #expect(Self.errorCodes(replies) == ["unknown-type", "unsupported-version"])
        #expect(replies.last?["type"] as? String == "status")

        try await pair.stillServing(movie: 550)
    }

    @Test func peerctlExplainsAMovieItCannotUnderstand() throws {
        let run = try PeerctlRun.run(["--socket", "/nonexistent/peerd.sock", "add", "the matrix"])
        #expect(run.status == 64)
        #expect(run.stderr.contains("can't understand 'the matrix'"))
        #expect(run.stderr.contains("TMDB movie id (603)"))
        #expect(run.stderr.contains("themoviedb.org/movie/603"))
    }

    @Test func peerctlNamesTheSocketAndHowToStartTheDaemonWhenNoneAnswers() throws {
        let run = try PeerctlRun.run(["--socket", "/tmp/peerd-e2e-nobody-here.sock", "list"])
        #expect(run.status == 69)
        #expect(run.stderr.contains("/tmp/peerd-e2e-nobody-here.sock"))
        #expect(run.stderr.contains("Start it with `peerd`"))
        let fromEnvironment = try PeerctlRun.run(["status"], environment: ["PEERD_SOCKET": "/tmp/peerd-e2e-env.sock"])
        #expect(fromEnvironment.status == 69)
        #expect(fromEnvironment.stderr.contains("/tmp/peerd-e2e-env.sock"))
    }
}

extension RawConnection {
    /// Reads until `count` frames arrived or the connection closed.
    func readFramesUntilClosedOrCount(_ count: Int) -> [[String: Any]] {
        var all: [[String: Any]] = []
        while all.count < count {
            guard let frame = readOneFrame() else { break }
            all.append(frame)
        }
        return all
    }
}
