import PeerdTestKit
import PeerdTestSupport
import PeerdWire
import Testing

/// `peerctl --list NAME` (and `PEERCTL_LIST`) reaches peerd on every request of a list, before or
/// after the subcommand, and the group's requests ignore it (proto/CONTROL.md, "Lists"). The lists
/// themselves are the list tests'; here none exists, so naming one is refused and writes nothing.
@Suite("peerctl --list")
struct ListOptionTests {
    @Test func aListThatIsNotHereIsRefusedWhereverTheOptionStands() throws {
        let scratch = try ScratchDirectory("list-option")
        let alice = try TestDaemon("alice", in: scratch)
        let tries = [
            ["add", "603", "--list", "nowhere"], ["--list", "nowhere", "add", "603"],
            ["list", "--list", "nowhere", "--unseen"], ["--list", "nowhere", "pick"],
            ["want", "603", "--list", "nowhere"],
            ["list", "--follow", "--list", "nowhere"], ["export", "--list", "nowhere"],
        ]
        for arguments in tries {
            let run = try PeerctlRun.run(["--socket", alice.socket] + arguments)
            #expect(run.status == 1, "\(arguments)")
            #expect(run.stderr.contains("nowhere"), "\(arguments): \(run.stderr)")
        }
        let fromTheShell = try PeerctlRun.run(
            ["--socket", alice.socket, "add", "603"],
            environment: ["PEERCTL_LIST": "nowhere"]
        )
        #expect(fromTheShell.status == 1 && fromTheShell.stderr.contains("nowhere"))
        #expect(try alice.movieIDs().isEmpty, "nothing reached the group's list")
        #expect(try alice.peerctl("add", "603").status == 0)
        #expect(try alice.movieIDs() == [603])
    }

    @Test func theGroupsCommandsIgnoreIt() throws {
        let scratch = try ScratchDirectory("list-option-group")
        let alice = try TestDaemon("alice", in: scratch)
        for arguments in [
            ["members", "--list", "nowhere"], ["--list", "nowhere", "peers"], ["lists", "--list", "x"],
        ] {
            #expect(try PeerctlRun.run(["--socket", alice.socket] + arguments).status == 0, "\(arguments)")
        }
    }
}
