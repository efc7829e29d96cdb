import NIOCore
import PeerdRelay

/// Opens session mode on a fresh connection to a relay: sends `JoinSessionRequest` with the
/// invitation's key, reads the relay's one answer, and on success installs the caller's handlers
/// after itself, hands them whatever bytes followed the answer, and leaves the pipeline. From then
/// on the connection is the other device's bytes. On any failure (a refusal, a close, no answer
/// within `timeout`) the promise fails and the channel is closed.
final class RelaySessionJoiner<Value: Sendable>: ChannelInboundHandler, RemovableChannelHandler, RelayWaiting {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let key: [UInt8]
    private let timeout: TimeAmount
    let promise: EventLoopPromise<Value>
    private let install: @Sendable (any Channel) throws -> Value
    private var received = ByteBuffer()
    var timer: Scheduled<Void>?
    private var sent = false
    var done = false

    init(
        key: [UInt8],
        timeout: TimeAmount,
        promise: EventLoopPromise<Value>,
        install: @escaping @Sendable (any Channel) throws -> Value
    ) {
        self.key = key
        self.timeout = timeout
        self.promise = promise
        self.install = install
    }

    func handlerAdded(context: ChannelHandlerContext) {
        startDeadline(timeout, for: "answer the session join", context: context)
        if context.channel.isActive { sendJoin(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        sendJoin(context: context)
        context.fireChannelActive()
    }

    private func sendJoin(context: ChannelHandlerContext) {
        guard !sent else { return }
        sent = true
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: RelayMessage.joinSession(key: key).encoded)))
            .assumeIsolated()
            .whenFailure { self.fail(RelayError.of($0), context: context) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !done else { return context.fireChannelRead(data) }
        var bytes = unwrapInboundIn(data)
        received.writeBuffer(&bytes)
        do {
            guard let answer = try Self.answer(&received) else { return }
            switch answer {
            case .response(RelayMessage.success, _): joined(context: context)
            case .response(RelayMessage.notFound, _): fail(.notFound, context: context)
            case .response(let code, let message): fail(.refused(code: code, message: message), context: context)
            default: fail(.unexpected("a message of type \(answer.type) for a session join"), context: context)
            }
        } catch {
            fail(.unexpected(error.description), context: context)
        }
    }

    /// The relay's whole answer, taken off the front of `buffer`; nil until it has all come.
    static func answer(_ buffer: inout ByteBuffer) throws(RelayMessageError) -> RelayMessage? {
        guard let head = buffer.getBytes(at: buffer.readerIndex, length: RelayMessage.headerSize) else { return nil }
        let header = try RelayMessage.header(head)
        guard buffer.readableBytes >= RelayMessage.headerSize + header.length else { return nil }
        buffer.moveReaderIndex(forwardBy: RelayMessage.headerSize)
        return try RelayMessage(type: header.type, body: buffer.readBytes(length: header.length) ?? [])
    }

    private func joined(context: ChannelHandlerContext) {
        finish()
        let value: Value
        do {
            value = try install(context.channel)
        } catch {
            promise.fail(error)
            context.close(promise: nil)
            return
        }
        if received.readableBytes > 0 {
            context.fireChannelRead(wrapInboundOut(received))
            context.fireChannelReadComplete()
        }
        received = ByteBuffer()
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        promise.succeed(value)
    }
}
