import Foundation
import PeerdModel
import SystemPackage
import Testing

@testable import PeerdStore

@Suite("State directory")
struct StateDirectoryTests {
    @Test func theDefaultIsUnderXDGStateHomeWhenItIsSet() throws {
        let path = try StateDirectory.defaultPath(environment: ["XDG_STATE_HOME": "/x/state", "HOME": "/home/a"])
        #expect(path == "/x/state/peerd")
    }

    @Test func theDefaultFallsBackToHomeWhenXDGStateHomeIsUnsetOrRelative() throws {
        #expect(try StateDirectory.defaultPath(environment: ["HOME": "/home/a"]) == "/home/a/.local/state/peerd")
        let relative = ["XDG_STATE_HOME": "state", "HOME": "/home/a"]
        #expect(try StateDirectory.defaultPath(environment: relative) == "/home/a/.local/state/peerd")
    }

    @Test func withNeitherVariableThereIsNoDefault() {
        #expect(throws: StoreError.noStateDirectory) { try StateDirectory.defaultPath(environment: [:]) }
    }

    @Test func itCreatesMissingDirectoriesWithMode0700AndAnIdentityWithMode0600() async throws {
        try await withTemporaryDirectory { root in
            let path = root.appending("a/b/peerd")
            let state = try StateDirectory(at: path, logger: quietLogger)
            #expect(try mode(of: root.appending("a")) == 0o700)
            #expect(try mode(of: path) == 0o700)
            #expect(try mode(of: state.identityPath) == 0o600)
            #expect(state.logPath == path.appending("operations.log"))
            #expect(try names(in: path) == ["identity.json", "lock"])
            let json = try JSONSerialization.jsonObject(with: Data(contents(of: state.identityPath))) as? [String: Any]
            #expect(json?["peer"] as? String == state.identity.peer.rawValue)
            #expect((json?["created"] as? NSNumber)?.int64Value == state.identity.created)
        }
    }

    @Test func theIdentityStaysTheSameAcrossReopening() async throws {
        try await withTemporaryDirectory { root in
            let first = try StateDirectory(at: root, logger: quietLogger).identity
            let second = try StateDirectory(at: root, logger: quietLogger).identity
            #expect(first == second)
        }
    }

    @Test func aSecondOpenWhileTheFirstIsHeldFailsAsLocked() async throws {
        try await withTemporaryDirectory { root in
            do {
                let held = try StateDirectory(at: root, logger: quietLogger)
                #expect(throws: StoreError.locked(root)) { _ = try StateDirectory(at: root, logger: quietLogger) }
                #expect(StoreError.locked(root).description.contains("in use by another peerd"))
                withExtendedLifetime(held) {}
            }
            // Releasing the first one releases the lock.
            #expect(throws: Never.self) { _ = try StateDirectory(at: root, logger: quietLogger) }
        }
    }

    @Test func staticPeersRoundTripAndStartEmpty() async throws {
        try await withTemporaryDirectory { root in
            let state = try StateDirectory(at: root, logger: quietLogger)
            #expect(try state.loadPeers() == [])
            try state.savePeers(["192.168.1.20:7400", "nas.local:7400"])
            #expect(try state.loadPeers() == ["192.168.1.20:7400", "nas.local:7400"])
            try state.savePeers(["nas.local:7400"])
            #expect(try state.loadPeers() == ["nas.local:7400"])
            #expect(try mode(of: state.peersPath) == 0o600)
            #expect(try names(in: root) == ["identity.json", "lock", "peers.json"])
        }
    }

    @Test func aDamagedIdentityIsReportedAndNotReplaced() async throws {
        try await withTemporaryDirectory { root in
            let path = root.appending("identity.json")
            try write(Array("{\"peer\": \"NOT HEX\"}".utf8), to: path)
            let error = #expect(throws: StoreError.self) { _ = try StateDirectory(at: root, logger: quietLogger) }
            guard case .corruptFile(let reported, _) = error else {
                Issue.record("expected corruptFile, got \(String(describing: error))")
                return
            }
            #expect(reported == path)
            #expect(try contents(of: path) == Array("{\"peer\": \"NOT HEX\"}".utf8))
            // The lock is released on failure, so fixing the file is enough to start.
            try FileManager.default.removeItem(atPath: path.string)
            #expect(throws: Never.self) { _ = try StateDirectory(at: root, logger: quietLogger) }
        }
    }

    @Test func aDamagedPeersFileIsReported() async throws {
        try await withTemporaryDirectory { root in
            let state = try StateDirectory(at: root, logger: quietLogger)
            try write(Array("{\"not\": \"a list\"}".utf8), to: state.peersPath)
            #expect(
                throws: StoreError.corruptFile(
                    state.peersPath,
                    reason: "it is not a JSON array of \"host:port\" strings"
                )
            ) {
                try state.loadPeers()
            }
        }
    }

    @Test func aPathThatIsAFileIsNotADirectory() async throws {
        try await withTemporaryDirectory { root in
            let path = root.appending("file")
            try write([1], to: path)
            #expect(throws: StoreError.cannotAccess(path, .notDirectory)) {
                _ = try StateDirectory(at: path, logger: quietLogger)
            }
        }
    }
}
