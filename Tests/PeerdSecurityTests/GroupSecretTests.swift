import Crypto
import Foundation
import PeerdModel
import PeerdSecurity
import PeerdTestKit
import SystemPackage
import Testing

/// `--group-secret-file`: a private file of at least 16 bytes.
@Suite struct GroupSecretTests {
    /// Runs `body` on a new file holding `contents`, with `mode` set by chmod (not left to the umask).
    func withSecretFile<Result>(
        _ contents: String,
        mode: mode_t = 0o600,
        _ body: (FilePath) throws -> Result
    ) throws -> Result {
        try withSecretFile(Data(contents.utf8), mode: mode, body)
    }

    func withSecretFile<Result>(
        _ contents: Data,
        mode: mode_t = 0o600,
        _ body: (FilePath) throws -> Result
    ) throws -> Result {
        try withScratchDirectory("group-secret") { directory in
            let path = directory.appending("group.secret")
            #expect(FileManager.default.createFile(atPath: path.string, contents: contents))
            #expect(chmod(path.string, mode) == 0)
            return try body(path)
        }
    }

    @Test(arguments: [0o600, 0o400] as [mode_t])
    func aPrivateFileGivesTheKeyOfItsBytes(mode: mode_t) throws {
        let key = try withSecretFile("0123456789abcdef", mode: mode) { try GroupSecret.load($0) }
        #expect(key == GroupSecret.key(Array("0123456789abcdef".utf8)))
    }

    @Test func surroundingWhitespaceIsIgnoredButInnerWhitespaceCounts() throws {
        let padded = try withSecretFile(" \t0123456789 abcdef\r\n\n") { try GroupSecret.load($0) }
        #expect(padded == GroupSecret.key(Array("0123456789 abcdef".utf8)))
        #expect(padded != GroupSecret.key(Array("0123456789abcdef".utf8)))
    }

    /// SECURITY.md, "Group secret": the secret is the file's bytes, not what they may encode.
    @Test func aBase64FileGivesTheKeyOfItsTextNotOfTheBytesItEncodes() throws {
        let text = Data((0..<32).map { UInt8($0) }).base64EncodedString()
        let key = try withSecretFile(text + "\n") { try GroupSecret.load($0) }
        #expect(key == GroupSecret.key(Array(text.utf8)))
        #expect(key != GroupSecret.key((0..<32).map { UInt8($0) }))
    }

    @Test func aBinaryFileGivesTheKeyOfItsBytesWithOnlyWhitespaceAtItsEndsDropped() throws {
        let inner: [UInt8] = [0x00, 0xFF, 0xC3, 0x28, 0x0A, 0x20] + (0..<16).map { UInt8(0x80 + $0) }
        let file = Data([0x0A, 0x20] + inner + [0x09, 0x0D])
        let key = try withSecretFile(file) { try GroupSecret.load($0) }
        #expect(key == GroupSecret.key(inner))
    }

    @Test(arguments: ["  0123456789abcde\n", "0123456789abcde", " \n\t ", ""])
    func fewerThanSixteenBytesAreRefused(contents: String) throws {
        try withSecretFile(contents) { path in
            let error = #expect(throws: GroupSecretError.self) { try GroupSecret.load(path) }
            guard case .tooShort(let reported, let count)? = error else {
                Issue.record("expected tooShort, got \(String(describing: error))")
                return
            }
            #expect(reported == path)
            #expect(count == contents.trimmingCharacters(in: .whitespacesAndNewlines).utf8.count)
            #expect(error?.description.contains("at least 16") == true)
        }
    }

    @Test(arguments: [0o640, 0o604, 0o644, 0o660, 0o666] as [mode_t])
    func aFileOthersCanReadIsRefused(mode: mode_t) throws {
        try withSecretFile("0123456789abcdef0123456789abcdef", mode: mode) { path in
            let error = #expect(throws: GroupSecretError.self) { try GroupSecret.load(path) }
            guard case .readableByOthers(let reported, let shown)? = error else {
                Issue.record("expected readableByOthers, got \(String(describing: error))")
                return
            }
            #expect(reported == path)
            #expect(shown == String(mode, radix: 8))
            #expect(error?.description.contains("chmod 600 \(path)") == true)
        }
    }

    @Test func aMissingFileIsReported() throws {
        try withSecretFile("0123456789abcdef") { path in
            let missing = path.removingLastComponent().appending("nothing-here")
            let error = #expect(throws: GroupSecretError.self) { try GroupSecret.load(missing) }
            guard case .missing(let reported)? = error else {
                Issue.record("expected missing, got \(String(describing: error))")
                return
            }
            #expect(reported == missing)
        }
    }

    @Test func aDirectoryIsReportedUnreadable() throws {
        try withSecretFile("0123456789abcdef") { path in
            let error = #expect(throws: GroupSecretError.self) { try GroupSecret.load(path.removingLastComponent()) }
            #expect(error?.description.hasPrefix("cannot read group secret file") == true)
        }
    }

    @Test func theSameBytesGiveAGroupKeyUnlikeAnInviteKey() {
        let secret = Array("0123456789abcdef".utf8)
        let invite = InviteCode(inviter: PeerID.random(), secret: secret)
        #expect(GroupSecret.key(secret) != invite.key)
        #expect(GroupSecret.key(secret) == GroupSecret.key(secret))
    }
}

@Suite struct GroupSecretFingerprintTests {
    /// proto/SECURITY.md, "Group secret": the example file's secret and its fingerprint, as golden
    /// frame peer-ops-member-secret.bin records it.
    @Test func theFingerprintIsSecurityMDsExample() {
        let secret = Array("AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=".utf8)
        #expect(GroupSecret.fingerprint(of: secret) == "b9254e3a85fc4b2f0b1f76c6bad11957")
        #expect(
            GroupSecret.fingerprint(of: Array("another secret of 16+ bytes".utf8))
                != GroupSecret.fingerprint(of: secret)
        )
    }
}
