import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import PeerdTestKit
import Synchronization

/// A small TMDB on 127.0.0.1 (port 0) for the client's tests: each request is answered as
/// `answer` says, and every request is recorded.
final class FakeTMDB: Sendable {
    /// How the fake answers one request.
    enum Answer: Sendable {
        /// A whole answer with a Content-Length.
        case body(HTTPResponseStatus = .ok, [UInt8], headers: [(String, String)] = [])
        /// Reads the request and never answers.
        case stall
        /// Sends the head and a few bytes of a 1 MB body, then nothing.
        case stallBody
        /// A 200 with a chunked body of this many bytes, as fast as it goes.
        case chunked(bytes: Int)
        /// A 200 that declares this Content-Length and sends a few bytes.
        case declared(length: Int)
        /// Closes the connection with a TCP reset instead of answering.
        case reset
    }

    /// A request as the fake saw it.
    struct Request: Sendable {
        var uri: String
        var headers: [(String, String)]

        var path: String { String(uri.prefix { $0 != "?" }) }

        var query: [String: String] {
            guard let start = uri.firstIndex(of: "?") else { return [:] }
            var items: [String: String] = [:]
            for item in uri[uri.index(after: start)...].split(separator: "&") {
                let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
                items[parts[0]] = parts.count > 1 ? parts[1].removingPercentEncoding : ""
            }
            return items
        }

        func header(_ name: String) -> String? {
            headers.first { $0.0.lowercased() == name.lowercased() }?.1
        }
    }

    let port: Int
    private let group: MultiThreadedEventLoopGroup
    private let log: RequestLog

    var baseURL: String { "http://127.0.0.1:\(port)" }
    var requests: [Request] { log.all }
    /// An event per request, once it is recorded.
    var arrivals: EventFeed<Void> { log.arrivals }

    /// How many requests asked for `path`.
    func count(_ path: String) -> Int { requests.filter { $0.path == path }.count }

    /// Starts a server whose answer to a request is `answer(request, n)`, `n` the number of earlier
    /// requests for the same path.
    static func start(_ answer: @escaping @Sendable (Request, Int) -> Answer) async throws -> FakeTMDB {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let log = RequestLog()
        let channel = try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(Responder(log: log, answer: answer))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return FakeTMDB(port: channel.localAddress!.port!, group: group, log: log)
    }

    /// A server that answers each path from a table (TMDB's 404 elsewhere).
    static func serving(_ bodies: [String: [UInt8]]) async throws -> FakeTMDB {
        try await start { request, _ in
            guard let body = bodies[request.path] else {
                return .body(.notFound, Array(#"{"status_code":34,"status_message":"not here","success":false}"#.utf8))
            }
            return .body(.ok, body)
        }
    }

    private init(port: Int, group: MultiThreadedEventLoopGroup, log: RequestLog) {
        self.port = port
        self.group = group
        self.log = log
    }

    /// Closes the server and every connection it has.
    func stop() async throws {
        try await group.shutdownGracefully()
    }
}

private final class RequestLog: Sendable {
    private let requests = Mutex<[FakeTMDB.Request]>([])
    let arrivals = EventFeed<Void>()

    var all: [FakeTMDB.Request] { requests.withLock { $0 } }

    /// Records `request`; returns how many came for its path before it.
    func record(_ request: FakeTMDB.Request) -> Int {
        let earlier = requests.withLock { requests in
            defer { requests.append(request) }
            return requests.count { $0.path == request.path }
        }
        arrivals.send(())
        return earlier
    }
}

private final class Responder: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let log: RequestLog
    private let answer: @Sendable (FakeTMDB.Request, Int) -> FakeTMDB.Answer
    private var head: HTTPRequestHead?

    init(log: RequestLog, answer: @escaping @Sendable (FakeTMDB.Request, Int) -> FakeTMDB.Answer) {
        self.log = log
        self.answer = answer
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
        case .body:
            break
        case .end:
            guard let head else { return }
            let request = FakeTMDB.Request(uri: head.uri, headers: head.headers.map { ($0.name, $0.value) })
            respond(answer(request, log.record(request)), context: context)
        }
    }

    private func respond(_ answer: FakeTMDB.Answer, context: ChannelHandlerContext) {
        switch answer {
        case .body(let status, let bytes, let headers):
            writeHead(status, length: bytes.count, headers: headers, context: context)
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: bytes)))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        case .stall:
            break
        case .stallBody:
            writeHead(.ok, length: 1_000_000, context: context)
            context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: #"{"id":603,"#)))), promise: nil)
        case .chunked(let total):
            writeHead(.ok, length: nil, context: context)
            let chunk = ByteBuffer(repeating: UInt8(ascii: " "), count: 64 << 10)
            for _ in 0..<(total / chunk.readableBytes) {
                context.write(wrapOutboundOut(.body(.byteBuffer(chunk))), promise: nil)
            }
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        case .declared(let length):
            writeHead(.ok, length: length, context: context)
            context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: "{}")))), promise: nil)
        case .reset:
            let channel = context.channel
            let linger = (channel as? any SocketOptionProvider)?.setSoLinger(linger(l_onoff: 1, l_linger: 0))
            linger?.whenComplete { _ in channel.close(promise: nil) }
        }
    }

    private func writeHead(
        _ status: HTTPResponseStatus,
        length: Int?,
        headers: [(String, String)] = [],
        context: ChannelHandlerContext
    ) {
        var fields = HTTPHeaders(headers)
        fields.add(name: "Content-Type", value: "application/json;charset=utf-8")
        if let length { fields.add(name: "Content-Length", value: "\(length)") }
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: fields))),
            promise: nil
        )
    }
}
