import NIOCore

/// A handler that owes its caller one answer about a relay connection (``RelayHandshake``: TLS is
/// done and the relay is the named one; ``RelaySessionJoiner``: the session is joined): through its
/// promise, once, before its deadline. A failure closes the channel.
protocol RelayWaiting: AnyObject {
    associatedtype Value: Sendable
    var promise: EventLoopPromise<Value> { get }
    var timer: Scheduled<Void>? { get set }
    /// The answer is given: later events pass through.
    var done: Bool { get set }
}

extension RelayWaiting {
    /// Fails with ``RelayError/timeout(_:)`` (`what` within `timeout`) unless answered before then.
    func startDeadline(_ timeout: TimeAmount, for what: String, context: ChannelHandlerContext) {
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) {
            self.fail(.timeout("\(what) within \(timeout.relayWords)"), context: context)
        }
    }

    /// The answer is given (or about to be): the deadline no longer applies.
    func finish() {
        done = true
        timer?.cancel()
    }

    func fail(_ error: RelayError, context: ChannelHandlerContext) {
        guard !done else { return }
        finish()
        promise.fail(error)
        context.close(promise: nil)
    }
}

extension RelayWaiting where Self: ChannelInboundHandler {
    /// An error before the answer fails it; after, it passes on.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard !done else { return context.fireErrorCaught(error) }
        fail(RelayError.of(error), context: context)
    }

    /// A close before the answer fails it (``RelayError/closed``).
    func channelInactive(context: ChannelHandlerContext) {
        fail(.closed, context: context)
        context.fireChannelInactive()
    }
}

extension TimeAmount {
    /// `10 s`, `1.5 s`, `500 ms`: a wait in the words of a relay's error.
    var relayWords: String {
        let millis = nanoseconds / 1_000_000
        guard millis >= 1000 else { return "\(millis) ms" }
        let seconds = Double(millis) / 1000
        return seconds.rounded() == seconds ? "\(Int(seconds)) s" : "\((seconds * 10).rounded() / 10) s"
    }
}
