import NIOCore

/// The last handler of a peer connection's pipeline: it makes the connection's one inbound
/// sequence. The peer's frames pass through it as ``PeerConnection/Event/frame(_:)``, and everything
/// else the connection waits for (commits, deliveries, the trust list, a close, its timer) is put in
/// beside them, through a ``ConnectionMailbox``. So the connection's loop reads nothing but the
/// `NIOAsyncChannel`'s inbound iterator, and NIO's watermarks stop reading the socket while the loop
/// is behind: no second queue, no hand-made credit.
///
/// Its timer is the connection's only one, set at the deadline the session's state machine gives
/// (``PeerConnectionStateMachine/outlook(now:)``): a quiet session wakes when a keepalive
/// falls due, not every second.
final class ConnectionEvents: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = PeerConnection.Event

    private var context: ChannelHandlerContext?
    private var timer: Scheduled<Void>?

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        self.context = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.fireChannelRead(wrapInboundOut(.frame(unwrapInboundIn(data))))
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        context.fireChannelInactive()
    }

    /// Puts `event` into the inbound sequence, after what is there already. On the event loop.
    fileprivate func post(_ event: PeerConnection.Event) {
        guard let context else { return }
        context.fireChannelRead(wrapInboundOut(event))
        // The async channel hands on what it has read at the end of a read.
        context.fireChannelReadComplete()
    }

    /// Posts a ``PeerConnection/Event/tick`` after `delay`, instead of any tick set before; nil
    /// sets none. On the event loop.
    fileprivate func setTimer(after delay: TimeAmount?) {
        timer?.cancel()
        timer = nil
        guard let delay, let context else { return }
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: delay) { [self] in
            timer = nil
            post(.tick)
        }
    }
}

/// Where the rest of the daemon reaches one connection's loop, from any thread: the events it
/// posts arrive in the connection's inbound sequence, in order (``ConnectionEvents``).
struct ConnectionMailbox: Sendable {
    private let events: NIOLoopBound<ConnectionEvents>

    /// Adds a ``ConnectionEvents`` handler to `channel`'s pipeline. On the channel's event loop.
    static func install(on channel: any Channel) throws -> ConnectionMailbox {
        let events = ConnectionEvents()
        try channel.pipeline.syncOperations.addHandler(events)
        return ConnectionMailbox(events: NIOLoopBound(events, eventLoop: channel.eventLoop))
    }

    func post(_ event: PeerConnection.Event) {
        let events = self.events
        events.eventLoop.execute { events.value.post(event) }
    }

    /// Sets the connection's timer to post ``PeerConnection/Event/tick`` at `deadline`, replacing
    /// the one set before (nil: none). A deadline already past ticks at once.
    func setTimer(at deadline: ContinuousClock.Instant?, now: ContinuousClock.Instant) {
        let delay = deadline.map { TimeAmount(max(.zero, now.duration(to: $0))) }
        let events = self.events
        events.eventLoop.execute { events.value.setTimer(after: delay) }
    }
}
