import Foundation
import PeerdTestKit
import PeerdTestSupport
import Testing

/// What peerctl says in the small moments of an evening (issue 35, "Small words"), with a real peerd.
@Suite("peerctl's small words against a real peerd")
struct SmallWordsTests {
    @Test func joiningSaysHowManyPeersInTheSingular() async throws {
        let scratch = try ScratchDirectory("join-words")
        let alice = try TestDaemon("alice", in: scratch, groupSecret: nil)
        let bob = try TestDaemon("bob", in: scratch, groupSecret: nil)
        let invite = try alice.peerctl("invite", "--json")
        let code = try #require(try JSONSerialization.jsonObject(with: Data(invite.stdout.utf8)) as? [String: Any])[
            "code"
        ]
        let joined = try bob.peerctl("join", try #require(code as? String), "--address", alice.address)
        #expect(joined.status == 0, "\(joined)")
        #expect(joined.stdout.contains("this daemon now trusts 1 peer\n"), "\(joined.stdout)")
    }

    @Test func openWithoutADisplaySaysItCouldNotOpenABrowser() async throws {
        let scratch = try ScratchDirectory("open-words")
        let alice = try TestDaemon("alice", in: scratch)
        let open = try PeerctlRun.run(
            ["--socket", alice.socket, "open"],
            environment: ["DISPLAY": "", "WAYLAND_DISPLAY": ""]
        )
        #expect(open.status == 0)
        #expect(open.stdout.hasPrefix("http://127.0.0.1:"))
        #expect(open.stderr.contains("couldn't open a browser: no display"), "\(open.stderr)")
        let quiet = try PeerctlRun.run(
            ["--socket", alice.socket, "open", "--no-browser"],
            environment: ["DISPLAY": ""]
        )
        #expect(quiet.stderr.isEmpty, "--no-browser asked for no browser: nothing to say")
    }

    /// A package installs the unit in /usr/lib/systemd/user; here a folder of the user unit search
    /// path ($XDG_DATA_HOME/systemd/user) stands for it, and no user manager answers on this machine.
    @Test func doctorFindsAnInstalledUnitWithoutAUserManager() async throws {
        let scratch = try ScratchDirectory("doctor-unit")
        let alice = try TestDaemon("alice", in: scratch)
        let units = scratch.path("data/systemd/user")
        try FileManager.default.createDirectory(atPath: units, withIntermediateDirectories: true)
        let unit = units + "/peerd.service"
        #expect(
            FileManager.default.createFile(atPath: unit, contents: Data("[Service]\nExecStart=/usr/bin/peerd\n".utf8))
        )
        let environment = ["XDG_DATA_HOME": scratch.path("data"), "XDG_CONFIG_HOME": scratch.path("config")]
        let manager = try PeerctlRun.run(
            ["systemctl", "--user", "show", "peerd"],
            executable: URL(fileURLWithPath: "/usr/bin/env")
        )
        try #require(manager.status != 0, "a user manager answers on this machine: \(manager.stdout.prefix(200))")

        let running = try PeerctlRun.run(["--socket", alice.socket, "doctor"], environment: environment)
        let line = try #require(running.stdout.split(separator: "\n").first { $0.contains("peerd.service") })
        #expect(
            line.hasPrefix("– peerd.service is installed (\(unit)), but no systemd user manager answers"),
            "\(line)"
        )

        let stopped = try PeerctlRun.run(["--socket", scratch.path("none.sock"), "doctor"], environment: environment)
        #expect(stopped.status == 1)
        #expect(stopped.stdout.contains("✗ peerd.service is installed (\(unit)), but no systemd user manager"))
        #expect(stopped.stdout.contains("sudo loginctl enable-linger"), "\(stopped.stdout)")
    }
}
