import Foundation
import PeerdTestKit
import PeerdWeb
import SystemPackage
import Testing

@Suite("WebToken: made once, kept 0600, compared whole")
struct WebTokenTests {
    @Test("first start makes 256 random bits in a 0600 file; later starts read the same token")
    func madeOnceAndKept() throws {
        try withScratchDirectory("web") { directory in
            let path = directory.appending("web.token")
            let first = try WebToken.load(at: path)
            #expect(first.hex.count == 64)
            let mode = try FileManager.default.attributesOfItem(atPath: path.string)[.posixPermissions] as? Int
            #expect(mode == 0o600)
            #expect(try WebToken.load(at: path).hex == first.hex)
            #expect(WebToken.random().hex != first.hex)
        }
    }

    @Test("a token file others can read, or one that isn't 64 hex digits, turns the page off with the fix")
    func refusesLooseOrMalformedFiles() throws {
        try withScratchDirectory("web") { directory in
            let path = directory.appending("web.token")
            _ = try WebToken.load(at: path)
            chmod(path.string, 0o644)
            #expect(throws: WebTokenError.self) { try WebToken.load(at: path) }
            do {
                _ = try WebToken.load(at: path)
            } catch {
                #expect("\(error)".contains("chmod 600"))
            }
            try Data("not a token\n".utf8).write(to: URL(fileURLWithPath: path.string))
            chmod(path.string, 0o600)
            #expect(throws: WebTokenError.self) { try WebToken.load(at: path) }
        }
    }

    @Test("matches only the whole token; its description never shows it")
    func matching() {
        let token = WebToken.random()
        #expect(token.matches(token.hex))
        #expect(!token.matches(""))
        #expect(!token.matches(String(token.hex.dropLast())))
        #expect(!token.matches(String(token.hex.dropLast()) + (token.hex.hasSuffix("0") ? "1" : "0")))
        #expect(!"\(token)".contains(token.hex))
        #expect(WebToken(hex: "g" + String(token.hex.dropFirst())) == nil)
    }
}
