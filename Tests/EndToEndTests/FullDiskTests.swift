import Foundation
import PeerdTestKit
import PeerdTestSupport
import Testing

@Suite("A full disk")
struct FullDiskTests {
    @Test(.enabled(if: getuid() == 0, "needs root to mount a small tmpfs as the state directory's disk"))
    func aFullDiskRefusesAnAddClearlyKeepsServingAndLosesNothing() async throws {
        let scratch = try ScratchDirectory("fulldisk")
        let disk = scratch.path("disk")
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        #expect(Self.shell("mount -t tmpfs -o size=512k peerd-test \(disk)") == 0)
        defer { _ = Self.shell("umount -l \(disk)") }

        let alice = try TestDaemon("alice", in: scratch, stateDir: disk + "/state")
        defer { alice.stop(signal: SIGKILL) }
        #expect(try alice.peerctl("add", "603").status == 0)

        // Fill the disk to the last byte; the log's last page may still have room for a few adds.
        _ = Self.shell("dd if=/dev/zero of=\(disk)/filler bs=4k 2>/dev/null")
        _ = Self.shell("dd if=/dev/zero of=\(disk)/filler2 bs=1 2>/dev/null")
        var acknowledged = [603]
        var refused: PeerctlRun?
        for id in 1000..<1400 {
            let run = try alice.peerctl("add", String(id), "--title", String(repeating: "x", count: 200))
            guard run.status == 0 else {
                refused = run
                break
            }
            acknowledged.append(id)
        }
        let refusal = try #require(refused, "the disk never filled up")
        #expect(refusal.status == 1, "\(refusal)")
        #expect(refusal.stderr.contains("No space left on device"))
        #expect(refusal.stderr.contains("nothing was saved"))
        // Still serving, and exactly what was acknowledged is on the list.
        #expect(try alice.movieIDs() == acknowledged)

        _ = Self.shell("rm -f \(disk)/filler \(disk)/filler2")
        #expect(try alice.peerctl("add", "550").status == 0)
        alice.stop()
        try alice.start()
        #expect(try alice.movieIDs() == acknowledged + [550])
    }

    static func shell(_ command: String) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        try? process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
