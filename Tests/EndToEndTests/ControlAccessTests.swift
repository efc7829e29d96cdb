import Foundation
import PeerdTestKit
import PeerdTestSupport
import Testing

/// The control socket serves only the daemon's own user (and root), checked with SO_PEERCRED even
/// when the socket's file permissions would let anyone in (proto/CONTROL.md, "The socket").
@Suite("Control socket access")
struct ControlAccessTests {
    /// Lets everyone reach the socket as far as file permissions go, so only SO_PEERCRED stands in the way.
    private static func openToEveryone(_ daemon: TestDaemon) {
        chmod(daemon.scratch.url.path, 0o755)
        chmod(daemon.socket, 0o666)
    }

    @Test(.enabled(if: getuid() == 0, "needs root to run peerctl as the unprivileged user nobody"))
    func anotherUserIsRefusedByUidEvenThroughAWorldWritableSocket() throws {
        let scratch = try ScratchDirectory("peercred")
        let alice = try TestDaemon("alice", in: scratch)
        chmod(scratch.url.path, 0o755)

        // As peerd leaves it (0600), the socket itself keeps nobody out: connect fails with EACCES.
        let denied = try PeerctlRun.run(asUser: PeerctlRun.nobody, ["--socket", alice.socket, "status"])
        #expect(denied.status == 69, "\(denied)")
        #expect(denied.stderr.contains("permission denied: \(alice.socket) belongs to another user"), "\(denied)")

        Self.openToEveryone(alice)
        for arguments in [["status"], ["add", "603"], ["list", "--follow"]] {
            let refused = try PeerctlRun.run(asUser: PeerctlRun.nobody, ["--socket", alice.socket] + arguments)
            #expect(refused.status != 0, "\(arguments): \(refused)")
            #expect(refused.stdout.isEmpty, "\(arguments): \(refused)")
            #expect(
                refused.stderr.contains("permission denied: this peerd belongs to uid 0"),
                "\(arguments): \(refused)"
            )
            #expect(refused.stderr.contains("you are uid 65534"), "\(arguments): \(refused)")
        }
        #expect(alice.log.contains("refused a control connection from another user"))
        #expect(alice.log.contains("uid=65534"))

        // The owner is still served, and nobody's refused add changed nothing.
        #expect(try alice.peerctl("status").status == 0)
        #expect(try alice.movieIDs() == [])
        #expect(try alice.peerctl("add", "550").status == 0)
        #expect(try alice.movieIDs() == [550])
    }

    @Test(.enabled(if: getuid() == 0, "needs root to start peerd and peerctl as other users"))
    func aDaemonRunByAnOrdinaryUserServesThatUserAndRootOnly() throws {
        let scratch = try ScratchDirectory("peercred-nobody")
        // nobody must be able to create its state directory and socket here.
        chmod(scratch.url.path, 0o777)
        let bob = try TestDaemon("bob", in: scratch, runAsNobody: true)
        Self.openToEveryone(bob)

        let stranger = try PeerctlRun.run(asUser: 65533, ["--socket", bob.socket, "add", "603"])
        #expect(stranger.status != 0, "\(stranger)")
        #expect(stranger.stderr.contains("this peerd belongs to uid 65534"), "\(stranger)")
        #expect(stranger.stderr.contains("you are uid 65533"), "\(stranger)")

        let owner = try PeerctlRun.run(asUser: PeerctlRun.nobody, ["--socket", bob.socket, "add", "603"])
        #expect(owner.status == 0, "\(owner)")
        // Root may use anyone's daemon: it could read the state directory anyway.
        #expect(try bob.movieIDs() == [603])
    }

    @Test func aClientThatShutsDownItsSendingSideStillGetsEveryAnswer() throws {
        let alice = try TestDaemon("alice", in: try ScratchDirectory("half-close"))
        let client = try RawConnection(unixPath: alice.socket)
        client.sendFrame(#"{"type":"add","version":1,"movie":{"id":603}}"#)
        client.sendFrame(#"{"type":"status","version":1}"#)
        client.finishSending()
        let (frames, closed) = client.readFramesUntilClosed()
        #expect(frames.map { $0["type"] as? String } == ["added", "status"])
        #expect(closed, "the daemon closes once it has answered")
        #expect(try alice.movieIDs() == [603])
    }
}
