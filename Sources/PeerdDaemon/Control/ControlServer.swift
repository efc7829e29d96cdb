import Logging
import NIOCore
import NIOPosix
import PeerdModel
import PeerdWire
import ServiceLifecycle

#if canImport(Glibc)
import Glibc
#endif

/// Serves `peerctl` on the Unix control socket. A connection may carry several requests in order;
/// `follow` turns it into a stream of changes until the client hangs up.
///
/// Only this daemon's own user (and root) is served: each connection's uid comes from the kernel
/// (`SO_PEERCRED`), and any other user gets `forbidden` before anything it sent is read.
final class ControlServer: Service {
    private let server: FramedChannel.Server
    private let responder: ControlResponder
    private let logger: Logger
    /// The user this daemon runs as, the only one (with root) it serves.
    private let owner = geteuid()

    /// Binds now: the socket exists (mode 0600, in a directory only we can enter) once this returns.
    init(socket: ControlSocketPath, group: any EventLoopGroup, responder: ControlResponder, logger: Logger) async throws
    {
        try socket.prepare()
        server = try await ServerBootstrap(group: group)
            // A client that shuts down its sending side after its requests (`nc -N`) still reads
            // their responses: its stream's end is where the requests stop, not a hang-up.
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            .bind(unixDomainSocketPath: socket.path, cleanupExistingSocketFile: false) { channel in
                channel.eventLoop.makeCompletedFuture { try FramedChannel.accept(channel) }
            }
        try socket.restrictPermissions()
        self.responder = responder
        self.logger = logger
    }

    func run() async throws {
        try await FramedChannel.serve(server) { connection in await self.serve(connection) }
    }

    /// A connection's frames: they end when the client's stream does, or when peerd stops (a
    /// request being answered then still is).
    private typealias Frames = AsyncCancelOnGracefulShutdownSequence<
        NIOAsyncChannelInboundStream<ByteBuffer>
    >.AsyncIterator
    private typealias Outbound = NIOAsyncChannelOutboundWriter<ByteBuffer>

    private func serve(_ connection: FramedChannel.Connection) async {
        do {
            try await connection.executeThenClose { inbound, outbound in
                if let refusal = await refusal(of: connection.channel) {
                    try await outbound.write(Self.encode(.error(refusal)))
                    return
                }
                var frames = inbound.cancelOnGracefulShutdown().makeAsyncIterator()
                guard try await answer(&frames, outbound: outbound), Task.isShuttingDownGracefully else { return }
                // Stopping ended the frames: the client hears why before the close (ERRORS.md).
                try await outbound.write(Self.encode(.error(.shuttingDown)))
            }
        } catch {
            logger.debug("control connection ended", metadata: ["error": "\(error)"])
        }
    }

    /// Answers requests in order; true once the frames end, false when an error closed the stream.
    private func answer(_ frames: inout Frames, outbound: Outbound) async throws -> Bool {
        while true {
            let frame: ByteBuffer
            do {
                guard let next = try await frames.next() else { return true }
                frame = next
            } catch let error as FrameError {
                logger.notice("bad control frame", metadata: ["error": "\(error)"])
                try await outbound.write(Self.encode(.error(WireError(error.code, error.description))))
                return false
            }
            let request: ControlRequest
            do throws(WireError) {
                request = try WireCoding.decode(ControlRequest.self, from: frame)
            } catch {
                logger.notice("bad control request", metadata: ["error": "\(error)"])
                try await outbound.write(Self.encode(.error(error)))
                // An unknown type leaves the stream intact, so a newer client can probe for a
                // request this daemon lacks and go on; any other error closes it (CONTROL.md).
                guard error.code == .unknownType else { return false }
                continue
            }
            switch await streamed(request) {
            case .success(.changes(let changes))?: return try await follow(changes, frames: &frames, outbound: outbound)
            case .success(.responses(let stream))?: return try await follow(stream, frames: &frames, outbound: outbound)
            case .failure(let error)?:
                try await outbound.write(Self.encode(.error(error)))
                continue
            case nil: break
            }
            let response = await responder.respond(to: request)
            try await outbound.write(Self.encode(response))
            // A request peerd is too far into stopping to carry out closes the stream (CONTROL.md).
            if case .error(let error) = response, error.code == .shuttingDown { return false }
        }
    }

    /// What a streamed request streams: `follow`'s list changes, or `news` with `follow`'s answers.
    private enum Streamed {
        case changes(AsyncStream<[WatchListChange]>)
        case responses(AsyncStream<ControlResponse>)
    }

    /// The stream `request` asks for, or why there is none; nil for a request answered once.
    private func streamed(_ request: ControlRequest) async -> Result<Streamed, WireError>? {
        if request.body is FollowRequest { return await responder.changes(for: request).map(Streamed.changes) }
        guard let news = request.body as? NewsRequest, news.follow == true else { return nil }
        return await responder.newsFollow(for: request, news).map(Streamed.responses)
    }

    /// Nil when the connected process may use this daemon; else the error it gets before the close.
    private func refusal(of channel: any Channel) async -> WireError? {
        let caller: Caller
        do {
            caller = try await Caller.of(channel)
        } catch {
            logger.notice("refused a control connection: its user is unknown", metadata: ["error": "\(error)"])
            return WireError(.forbidden, "peerd could not tell which user connected (\(error)), so it refuses")
        }
        guard !Self.admits(caller, owner: owner) else { return nil }
        logger.notice(
            "refused a control connection from another user",
            metadata: ["uid": "\(caller.uid)", "pid": "\(caller.pid)", "owner": "\(owner)"]
        )
        return WireError(
            .forbidden,
            "permission denied: this peerd belongs to uid \(owner) and serves only that user; you are uid \(caller.uid)"
        )
    }

    /// The owner is served, and root: root can read the owner's state directory and identity key and
    /// trace the daemon anyway, so refusing it would protect nothing and only get in the way of an
    /// administrator's `sudo peerctl --socket …`.
    static func admits(_ caller: Caller, owner: uid_t) -> Bool {
        caller.uid == owner || caller.uid == 0
    }

    /// The process at the other end of a control connection, as the kernel recorded it when it
    /// connected (`SO_PEERCRED`): it cannot be forged by what the client sends.
    struct Caller: Sendable {
        var pid: Int32
        var uid: uid_t
        var gid: gid_t

        static func of(_ channel: any Channel) async throws -> Caller {
            #if os(Linux)
            guard let provider = channel as? any SocketOptionProvider else { throw ChannelError.operationUnsupported }
            // `struct ucred { pid_t pid; uid_t uid; gid_t gid; }`, three 32-bit fields. Swift's Glibc
            // doesn't import it (it needs _GNU_SOURCE); a homogeneous tuple has the same layout.
            let ucred: (UInt32, UInt32, UInt32) = try await provider.unsafeGetSocketOption(
                level: .socket,
                name: NIOBSDSocket.Option(rawValue: SO_PEERCRED)
            ).get()
            return Caller(pid: Int32(bitPattern: ucred.0), uid: ucred.1, gid: ucred.2)
            #else
            // No SO_PEERCRED: nobody is served rather than everybody.
            throw ChannelError.operationUnsupported
            #endif
        }
    }

    /// Streams `changes` (of the list the request named) until the frames end (true): the client
    /// closed its end, or peerd stops. A client that sends anything more gets `unexpected-message`,
    /// and the stream ends (false) (CONTROL.md, "follow").
    private func follow(
        _ changes: AsyncStream<[WatchListChange]>,
        frames: inout Frames,
        outbound: Outbound
    ) async throws -> Bool {
        let follow = ChangeFollow(changes)
        try await outbound.write(Self.encode(.following))
        return try await streaming(frames: &frames, outbound: outbound) {
            // A client that went away ends the stream; `frames` sees its end as well.
            await follow.forward { try await outbound.write(Self.encode(.change($0))) }
        }
    }

    /// Streams `responses` (a `news` follow: its answer, then each later batch) as `follow` streams changes.
    private func follow(
        _ responses: AsyncStream<ControlResponse>,
        frames: inout Frames,
        outbound: Outbound
    ) async throws -> Bool {
        try await streaming(frames: &frames, outbound: outbound) {
            for await response in responses {
                guard (try? await outbound.write(Self.encode(response))) != nil else { return }
            }
        }
    }

    /// Runs `forward` until the frames end (true) or the client sends a frame, which gets
    /// `unexpected-message` and ends the stream (false).
    private func streaming(
        frames: inout Frames,
        outbound: Outbound,
        _ forward: @escaping @Sendable () async -> Void
    ) async throws -> Bool {
        let clientSent = await withTaskGroup { group in
            group.addTask { await forward() }
            let frame = try? await frames.next()
            group.cancelAll()
            return frame != nil
        }
        guard clientSent else { return true }
        let error = WireError(.unexpectedMessage, "a follow stream takes no requests; send them on another connection")
        try await outbound.write(Self.encode(.error(error)))
        return false
    }

    static func encode(_ response: ControlResponse) -> ByteBuffer {
        WireCoding.encodeBuffer(response)
    }
}
