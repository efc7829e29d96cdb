import Foundation
import PeerdTestKit
import PeerdTestSupport
import PeerdWire
import Testing

/// The page on a port the system picked (`--web-port 0`, as every test daemon runs): a request that
/// names the port `status` shows is let in (proto/WEB.md, "Who gets in").
@Suite("The page on a picked port")
struct WebPortTests {
    @Test func aRequestNamingThePickedPortIsServed() async throws {
        let alice = try TestDaemon("alice", in: try ScratchDirectory("web-port"))
        // The page starts serving beside the rest, just after peerd reports ready.
        // Only `status` shows the page's port; no event says it listens: a poll.
        #expect(try await waitUntil(Ticks(every: .milliseconds(50))) { try alice.status().web != nil })
        let web = try #require(try alice.status().web, "the page is on")
        let port = try #require(URL(string: web)?.port, "\(web) names its port")
        #expect(port != 0)
        let connection = try RawConnection(tcpPort: port)
        connection.send(Array("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n".utf8))
        let answer = String(decoding: connection.readUntilClosed().bytes, as: UTF8.self)
        #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer.prefix(200))")
    }
}
