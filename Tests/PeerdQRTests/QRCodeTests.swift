import Foundation
import PeerdQR
import PeerdTestKit
import Testing

/// The QR code of a guest link: libqrencode's modules, drawn three ways, and read back by zbar.
@Suite struct QRCodeTests {
    static let link = "http://192.168.1.20:7603/g/0Yp3vH8xq2mKJ5d7u1wQbA"

    @Test func aLinkMakesASquareCodeWithItsFinderPatterns() throws {
        let code = try #require(QRCode(Self.link))
        #expect(code.size >= 21 && (code.size - 17) % 4 == 0, "a QR code is 17 + 4 × version modules a side")
        // The top-left finder pattern: a dark 7×7 ring, a light ring, a dark 3×3 centre.
        #expect((0..<7).allSatisfy { code.isDark(x: $0, y: 0) && code.isDark(x: 0, y: $0) })
        #expect(!code.isDark(x: 1, y: 1) && code.isDark(x: 3, y: 3) && !code.isDark(x: 7, y: 7))
        #expect(QRCode(String(repeating: "x", count: 4_000)) == nil, "too long for any version")
    }

    @Test func theTerminalTextIsTwoRowsOfModulesALine() throws {
        let code = try #require(QRCode(Self.link))
        let lines = code.terminalText(colors: false).split(separator: "\n", omittingEmptySubsequences: false)
        let side = code.size + 2 * QRCode.quietZone
        #expect(lines.count == (side + 1) / 2)
        #expect(lines.allSatisfy { $0.count == side })
        #expect(lines[1].dropFirst(QRCode.quietZone).hasPrefix("█"), "the finder's left edge")
        #expect(code.terminalText().hasPrefix("\u{1B}[30;47m"))
    }

    @Test func theSVGStrokesEachDarkModuleOnceAndFitsAControlString() throws {
        let code = try #require(QRCode(Self.link))
        let dark = (0..<code.size).reduce(0) { sum, y in sum + (0..<code.size).count { code.isDark(x: $0, y: y) } }
        let runs = code.svg.split(separator: "h").dropFirst().compactMap { Int($0.prefix { $0.isNumber }) }
        #expect(runs.reduce(0, +) == dark)
        #expect(code.svg.hasPrefix(#"<svg xmlns="http://www.w3.org/2000/svg""#))
        let longest = try #require(QRCode("http://[fd12:3456:789a:1::1234]:65535/g/uGRvtKEZ16TsOXojop-0RA/"))
        #expect(longest.svg.utf8.count < 4096, "the control protocol's longest string")
    }

    /// zbar's decoder (Debian's zbar-tools, which `make test` installs) reads the code back.
    @Test func zbarReadsTheLinkBack() throws {
        let zbarimg = "/usr/bin/zbarimg"
        guard FileManager.default.isExecutableFile(atPath: zbarimg) else {
            print("skipped: zbarReadsTheLinkBack needs zbarimg (apt install zbar-tools)")
            return
        }
        let code = try #require(QRCode(Self.link))
        let scratch = try ScratchDirectory("qr")
        defer { scratch.remove() }
        let file = scratch.url.appendingPathComponent("code.pgm")
        try Data(code.pgm()).write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: zbarimg)
        process.arguments = ["--raw", "-q", file.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        process.waitUntilExit()
        let read = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0)
        #expect(read.trimmingCharacters(in: .whitespacesAndNewlines) == Self.link)
    }
}
