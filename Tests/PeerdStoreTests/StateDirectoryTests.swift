import Foundation
import PeerdModel
import PeerdTestKit
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

    @Test func itCreatesMissingDirectoriesWithMode0700() async throws {
        try await withScratchDirectory("store") { root in
            let path = root.appending("a/b/peerd")
            let state = try StateDirectory(at: path, logger: quietLogger)
            #expect(try mode(of: root.appending("a")) == 0o700)
            #expect(try mode(of: path) == 0o700)
            #expect(state.logPath == path.appending("operations.log"))
            #expect(try names(in: path) == ["format", "lock"])
        }
    }

    @Test func aSecondOpenWhileTheFirstIsHeldFailsAsLocked() async throws {
        try await withScratchDirectory("store") { root in
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
        try await withScratchDirectory("store") { root in
            let state = try StateDirectory(at: root, logger: quietLogger)
            #expect(try state.loadPeers() == [])
            try state.savePeers(["192.168.1.20:7400", "nas.local:7400"])
            #expect(try state.loadPeers() == ["192.168.1.20:7400", "nas.local:7400"])
            try state.savePeers(["nas.local:7400"])
            #expect(try state.loadPeers() == ["nas.local:7400"])
            #expect(try mode(of: state.peersPath) == 0o600)
            #expect(try names(in: root) == ["format", "lock", "peers.json"])
        }
    }

    @Test func aDamagedPeersFileIsReported() async throws {
        try await withScratchDirectory("store") { root in
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
        try await withScratchDirectory("store") { root in
            let path = root.appending("file")
            try write([1], to: path)
            #expect(throws: StoreError.cannotAccess(path, .notDirectory)) {
                _ = try StateDirectory(at: path, logger: quietLogger)
            }
        }
    }
}
