import Foundation
import PeerdModel
import PeerdSecurity
import PeerdTestKit
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
            #expect(try await bob.waitUntil { try bob.movieIDs() == [603] })
        }

        /// Alice still answers, and still replicates to bob.
        func stillServing(movie: Int) async throws {
            #expect(try alice.peerctl("add", String(movie)).status == 0)
            #expect(try await bob.waitUntil { try bob.movieIDs().contains(movie) })
        }
    }

    static func errorCodes(_ frames: [[String: Any]]) -> [String] {
        frames.filter { $0["type"] as? String == "error" }.compactMap { $0["code"] as? String }
    }

    /// Admitted with the group secret, then `payload`: the daemon must answer with one error frame
    /// of `code` and close, merge nothing, and keep serving.
    func insider(
        _ pair: Pair,
        expect code: String,
        payload: @escaping @Sendable (String) -> [[UInt8]]
    ) async throws -> InsiderConnection.Exchange {
        let exchange = try await InsiderConnection.exchange(
            port: pair.alice.port,
            groupSecret: TestDaemon.testGroupSecret,
            payload: payload
        )
        #expect(exchange.admitted)
        #expect(exchange.closed)
        #expect(Self.errorCodes(exchange.frames) == [code])
        return exchange
    }

    @Test func anOversizedLengthOnThePeerPortIsRefusedFromTheHeaderAlone() async throws {
        let pair = try await Pair("oversized")
        // 4 GiB promised, no body sent.
        _ = try await insider(pair, expect: "frame-too-large") { _ in [[0xFF, 0xFF, 0xFF, 0xFF]] }
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
            // A hello in another peer's name: the certificate says who this is.
            (
                #"{"type":"hello","version":3,"peer":"0123456789abcdef0123456789abcdef","name":"x","port":1,"vector":{}}"#,
                "unexpected-message"
            ),
        ]
    )
    func aBadFirstFrameFromAMemberGetsAnErrorFrameAndAClose(body: String, code: String) async throws {
        let pair = try await Pair("badpeer")
        _ = try await insider(pair, expect: code) { _ in [RawConnection.frame(Array(body.utf8))] }
        try await pair.stillServing(movie: 550)
    }

    @Test func invalidUTF8FromAMemberIsRefused() async throws {
        let pair = try await Pair("utf8")
        _ = try await insider(pair, expect: "malformed-frame") { _ in
            [RawConnection.frame([0x7B, 0x22, 0xFF, 0xFE, 0x22, 0x3A, 0x31, 0x7D])]
        }
        try await pair.stillServing(movie: 550)
    }

    // An operation in bob's name that bob never signed: the receiver's verifier refuses it.
    @Test func anOperationForgedInAnotherPeersNameIsRefusedAndNotMerged() async throws {
        try await forgedOperation()
    }

    func forgedOperation() async throws {
        let pair = try await Pair("forged")
        let bob = try pair.bob.status().peer.rawValue
        // Of the two, the one with the smaller id records their admission by the group secret: when
        // that is bob, it is his first operation, and the forgery comes next.
        let bobRecords = bob < (try pair.alice.status().peer.rawValue)
        if bobRecords {
            #expect(
                try await waitUntil(Ticks(every: .milliseconds(50))) {
                    try pair.alice.peerctl("peers", "--json").json([PeerRecord].self).contains { $0.opsReceived >= 1 }
                }
            )
        }
        let seq = bobRecords ? 2 : 1
        _ = try await insider(pair, expect: "invalid-operation") { me in
            [
                RawConnection.frame(
                    Array(#"{"type":"hello","version":3,"peer":"\#(me)","name":"mallory","port":1,"vector":{}}"#.utf8)
                ),
                // In bob's name, next in bob's sequence, but not signed by bob's key.
                RawConnection.frame(
                    Array(
                        #"{"type":"ops","ops":[{"origin":"\#(bob)","seq":\#(seq),"lamport":99,"at":0,"by":"bob","op":"add","movie":{"id":666}}]}"#
                            .utf8
                    )
                ),
            ]
        }
        #expect(try !pair.alice.movieIDs().contains(666))
        #expect(try !pair.bob.movieIDs().contains(666))
        try await pair.stillServing(movie: 550)
    }

    /// The TLS server answers bytes that are not a ClientHello with a TLS alert, then closes: no
    /// frame, nothing of the peer protocol.
    @Test func plaintextOnTheTLSPortGetsATLSAlertAndAClose() async throws {
        let pair = try await Pair("plaintext")
        let attacker = try RawConnection(tcpPort: pair.alice.port)
        attacker.sendFrame(#"{"type":"hello","version":3,"peer":"00000000deadbeef","name":"x","port":1,"vector":{}}"#)
        let (bytes, closed) = attacker.readUntilClosed()
        #expect(closed)
        // A TLS record: content type 21 (alert), a version, a 2-byte length, then level and description.
        #expect(bytes.first == 21, "\(bytes)")
        #expect(bytes.count == 7)
        try await pair.stillServing(movie: 550)
    }

    @Test func anOutsiderWithTheWrongSecretIsRefusedBeforeAnyJSON() async throws {
        let pair = try await Pair("outsider")
        let exchange = try await InsiderConnection.exchange(
            port: pair.alice.port,
            groupSecret: "not the group's secret, but long"
        ) { me in
            [
                RawConnection.frame(
                    Array(#"{"type":"hello","version":3,"peer":"\#(me)","name":"x","port":1,"vector":{}}"#.utf8)
                )
            ]
        }
        #expect(!exchange.admitted)
        #expect(exchange.refusal == .notAMember)
        #expect(exchange.closed)
        #expect(exchange.frames.isEmpty)
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

        // An unknown type is answered and the same connection serves the next request (a newer client
        // may probe); another version is answered and closed (CONTROL.md).
        let polite = try RawConnection(unixPath: pair.alice.socket)
        polite.sendFrame(#"{"type":"dance","version":1}"#)
        polite.sendFrame(#"{"type":"status","version":1}"#)
        let replies = polite.readFramesUntilClosedOrCount(2)
        #expect(Self.errorCodes(replies) == ["unknown-type"])
        #expect(replies.last?["type"] as? String == "status")
        // So is a request whose values are out of bounds (a list this daemon doesn't know): it is
        // read as it came and refused where it is answered.
        let later = try RawConnection(unixPath: pair.alice.socket)
        later.sendFrame(#"{"type":"discover","version":1,"list":"cult-classics"}"#)
        later.sendFrame(#"{"type":"status","version":1}"#)
        let laterReplies = later.readFramesUntilClosedOrCount(2)
        #expect(Self.errorCodes(laterReplies) == ["bad-request"])
        #expect(laterReplies.last?["type"] as? String == "status")
        let future = try RawConnection(unixPath: pair.alice.socket)
        future.sendFrame(#"{"type":"status","version":2}"#)
        future.sendFrame(#"{"type":"status","version":1}"#)
        let (futureReplies, futureClosed) = future.readFramesUntilClosed()
        #expect(futureClosed)
        #expect(Self.errorCodes(futureReplies) == ["unsupported-version"])
        #expect(futureReplies.count == 1)

        try await pair.stillServing(movie: 550)
    }

    @Test func aFrameOnAFollowStreamIsAnUnexpectedMessageAndEndsTheStream() async throws {
        let pair = try await Pair("follow")
        let follower = try RawConnection(unixPath: pair.alice.socket)
        follower.sendFrame(#"{"type":"follow","version":1}"#)
        #expect(follower.readOneFrame()?["type"] as? String == "following")
        follower.sendFrame(#"{"type":"status","version":1}"#)
        let (frames, closed) = follower.readFramesUntilClosed()
        #expect(closed)
        #expect(Self.errorCodes(frames) == ["unexpected-message"])
        try await pair.stillServing(movie: 550)
    }

    @Test func connectWithoutAPortIsABadRequestOnTheSocketButPeerctlFillsInTheDefault() async throws {
        let pair = try await Pair("connect")
        let raw = try RawConnection(unixPath: pair.alice.socket)
        raw.sendFrame(#"{"address":"127.0.0.1","type":"connect","version":1}"#)
        let reply = raw.readOneFrame()
        #expect(reply?["code"] as? String == "bad-request")
        #expect((reply?["message"] as? String)?.contains("127.0.0.1:7601") == true)
        #expect(try !pair.alice.peerctl("peers").stdout.contains("127.0.0.1:7601"))

        let run = try pair.alice.peerctl("connect", "127.0.0.1", "--json")
        #expect(run.status == 0)
        #expect(run.stdout.contains("127.0.0.1:7601"))
    }

    @Test func peerctlExplainsAMovieItCannotUnderstand() throws {
        let run = try PeerctlRun.run(["--socket", "/nonexistent/peerd.sock", "add", "?!"])
        #expect(run.status == 64)
        #expect(run.stderr.contains("can't understand '?!'"))
        #expect(run.stderr.contains("TMDB movie id (603)"))
        #expect(run.stderr.contains("themoviedb.org/movie/603"))
    }

    @Test(arguments: [
        ["remove", "?!"], ["show", "tmdb:x"], ["seen", "https://example.com/movie/603"], ["rate", "?!", "8"],
    ])
    func peerctlRefusesAMovieItCannotUnderstandBeforeAskingTheDaemon(arguments: [String]) throws {
        let run = try PeerctlRun.run(["--socket", "/nonexistent/peerd.sock"] + arguments)
        #expect(run.status == 64)
        #expect(run.stderr.contains("can't understand '\(arguments[1])' as a movie"))
        #expect(run.stderr.contains("TMDB movie id (603), tmdb:603, or a TMDB movie URL"))
        #expect(run.stderr.contains("or a title"))
    }

    @Test func peerctlRefusesARefreshOfAMovieItCannotParse() throws {
        let run = try PeerctlRun.run([
            "--socket", "/nonexistent/peerd.sock", "refresh", "https://example.com/movie/603",
        ])
        #expect(run.status == 64)
        #expect(run.stderr.contains("The value 'https://example.com/movie/603' is invalid for '<movie>'"))
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
