import Foundation
import PeerdModel
import PeerdTestKit
import PeerdTestSupport
import PeerdWire
import Testing

/// A state folder made by an earlier release (Tests/EndToEndTests/Fixtures/state-RELEASE, made once by
/// scripts/make-state-fixture.py with that release's binaries) opens in this one with everything in it;
/// a folder a newer release wrote is refused with a clear error and left exactly as it was.
@Suite("A state folder from another release")
struct StateFixtureTests {
    static let release = "0.1.0"

    @Test func aFolderFromTheLastReleaseOpensWithItsListTrustAndIdentity() throws {
        let (scratch, state, expected) = try Self.copyFixture("opens")
        let key = try Data(contentsOf: URL(fileURLWithPath: state).appendingPathComponent("identity.key"))
        let alice = try TestDaemon("alice", in: scratch, stateDir: state, groupSecret: nil)

        #expect(try alice.status().peer.description == expected["peer"] as? String)
        let movies = try Self.json(alice.peerctl("list", "--json")) as? [[String: Any]] ?? []
        for wanted in expected["movies"] as? [[String: Any]] ?? [] {
            let found = movies.first { $0["movieId"] as? Int == wanted["movieId"] as? Int }
            let kept = found.map { Self.holds($0, wanted) } ?? false
            #expect(kept, "movie \(wanted["movieId"] ?? "?") as 0.1.0 listed it: \(wanted); now: \(found ?? [:])")
        }
        #expect(movies.count == (expected["movies"] as? [Any])?.count)

        let peers = try Self.json(alice.peerctl("peers", "--json")) as? [[String: Any]] ?? []
        let members = peers.filter { $0["trust"] as? String == "member" }.compactMap { $0["peer"] as? String }
        #expect(members == expected["trusted"] as? [String])
        let statics = peers.filter { $0["source"] as? String == "static" }.compactMap { $0["address"] as? String }
        #expect(statics == expected["staticPeers"] as? [String])

        let pick = try Self.json(alice.peerctl("pick", "--status", "--json")) as? [String: Any] ?? [:]
        let wantedPick = expected["pick"] as? [String: Any] ?? [:]
        #expect(
            NSDictionary(dictionary: ["open": pick["open"] ?? "", "result": pick["result"] ?? ""])
                == NSDictionary(dictionary: wantedPick)
        )

        // It is the group's list, the only one (proto/PEER.md, "Lists"), and the same with `--list group`.
        let lists = try Self.json(alice.peerctl("lists", "--json")) as? [String: Any] ?? [:]
        let held = lists["lists"] as? [[String: Any]] ?? []
        #expect(held.count == 1 && held.first?["default"] as? Bool == true, "\(lists)")
        #expect(held.first?["movies"] as? Int == movies.count)
        let named = try Self.json(alice.peerctl("list", "--list", "group", "--json")) as? [[String: Any]] ?? []
        #expect(named.count == movies.count)

        // It goes on from there: the same key, a new add kept over a restart, and the folder now says its format.
        #expect(try alice.peerctl("add", "27", "--title", "Kill Bill").status == 0)
        alice.stop()
        try alice.start()
        #expect(try alice.movieIDs().contains(27))
        #expect(try Data(contentsOf: URL(fileURLWithPath: state).appendingPathComponent("identity.key")) == key)
        #expect(try String(contentsOfFile: state + "/format", encoding: .utf8) == "peerd-state 1\n")
    }

    @Test(arguments: [
        Refusal(
            file: "format",
            bytes: "peerd-state 2\n",
            says: "was written by a newer peerd (format 2; this one reads up to 1)"
        ),
        Refusal(
            file: "operations.log",
            bytes: "PEERDLG3",
            says: "was written by a newer peerd (format 3; this one reads up to 1)"
        ),
        Refusal(file: "format", bytes: "peerd-state two\n", says: "format is damaged: it should say \"peerd-state N\""),
    ])
    func aFolderThisReleaseCannotReadIsRefusedAndLeftUntouched(_ refusal: Refusal) throws {
        let (scratch, state, _) = try Self.copyFixture("refused")
        try Data("peerd-state 1\n".utf8).write(to: URL(fileURLWithPath: state + "/format"))
        try refusal.apply(in: state)
        let before = try Self.contents(of: state)

        #expect(throws: TestDaemon.Failure.self) {
            _ = try TestDaemon("alice", in: scratch, stateDir: state, groupSecret: nil)
        }
        let log = try String(contentsOfFile: scratch.path("alice.log"), encoding: .utf8)
        #expect(log.contains(refusal.says), "peerd said: \(log.suffix(600))")
        #expect(try Self.contents(of: state) == before, "peerd changed a folder it cannot read")
    }

    struct Refusal: Sendable, CustomStringConvertible {
        let file: String
        let bytes: String
        let says: String
        var description: String { "\(file) starting \(bytes.debugDescription)" }

        /// Writes `bytes` over the start of `file` (a log keeps its records after a header of the same length).
        func apply(in state: String) throws {
            let url = URL(fileURLWithPath: state).appendingPathComponent(file)
            var data = (try? Data(contentsOf: url)) ?? Data()
            if file == "format" { data = Data() }
            data.replaceSubrange(0..<min(data.count, bytes.utf8.count), with: Data(bytes.utf8))
            try data.write(to: url)
        }
    }

    /// A copy of the fixture (less expected.json) in a new scratch directory, and what that release
    /// listed. git keeps no modes but the executable bit, so the copy gets peerd's own: 0700 for the
    /// directory, 0600 for its files (peerd refuses an identity key others can read).
    static func copyFixture(_ label: String) throws -> (ScratchDirectory, String, [String: Any]) {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/state-\(release)")
        let scratch = try ScratchDirectory("state-\(label)")
        let state = scratch.path("state")
        try FileManager.default.copyItem(atPath: fixture.path, toPath: state)
        try FileManager.default.removeItem(atPath: state + "/expected.json")
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: state)
        for file in try FileManager.default.contentsOfDirectory(atPath: state) {
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: state + "/" + file)
        }
        let expected = try JSONSerialization.jsonObject(
            with: Data(contentsOf: fixture.appendingPathComponent("expected.json"))
        )
        return (scratch, state, expected as? [String: Any] ?? [:])
    }

    /// Every file's bytes but the lock's (peerd takes the lock before it reads the format).
    static func contents(of state: String) throws -> [String: Data] {
        let names = try FileManager.default.contentsOfDirectory(atPath: state).filter { $0 != "lock" }
        return try Dictionary(
            uniqueKeysWithValues: names.map { ($0, try Data(contentsOf: URL(fileURLWithPath: state + "/" + $0))) }
        )
    }

    static func json(_ run: PeerctlRun) throws -> Any {
        try #require(run.status == 0, "\(run)")
        return try JSONSerialization.jsonObject(with: Data(run.stdout.utf8))
    }

    /// Whether `record` has every field `wanted` has, with the same value (a later release may add fields).
    static func holds(_ record: [String: Any], _ wanted: [String: Any]) -> Bool {
        wanted.allSatisfy { key, value in
            record[key].map { NSDictionary(dictionary: ["v": $0]) == NSDictionary(dictionary: ["v": value]) } ?? false
        }
    }
}
