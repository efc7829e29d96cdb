import NIOCore
import Synchronization

/// At most ``Count/limit`` guest connections open at once, and ``Count/perAddress`` from one
/// address: one more is closed as it comes. A flood of connections (proto/WEB.md, "Guests") then
/// holds a bounded amount of memory, one flooder can't take every place, and the members' page, on
/// a server of its own, is not slowed. Written here because Hummingbird's server has no such limit;
/// it is a count and two callbacks.
///
/// It also says when the client closed its side (``clientGone``): Hummingbird allows half-closed
/// connections, so without it an event stream, which only writes, would learn that its reader left
/// at its next write (the keep-alive, 15 s on), and hold its place until then.
final class ConnectionCap: ChannelInboundHandler, RemovableChannelHandler, Sendable {
    typealias InboundIn = NIOAny

    final class Count: Sendable {
        let limit: Int
        let perAddress: Int
        private let open = Mutex<(all: Int, by: [String: Int])>((0, [:]))
        /// Told the number of open connections after each change (a seam for tests).
        private let changed: @Sendable (Int) -> Void

        init(limit: Int, perAddress: Int, changed: @escaping @Sendable (Int) -> Void = { _ in }) {
            self.limit = limit
            self.perAddress = perAddress
            self.changed = changed
        }

        /// How many connections are open now.
        var openCount: Int { open.withLock { $0.all } }

        /// Counts a connection from `address` in, if there is room for it.
        func admit(_ address: String) -> Bool {
            let now: Int? = open.withLock { open in
                guard open.all < limit, open.by[address, default: 0] < perAddress else { return nil }
                open.all += 1
                open.by[address, default: 0] += 1
                return open.all
            }
            now.map(changed)
            return now != nil
        }

        func release(_ address: String) {
            let now = open.withLock { open in
                open.all -= 1
                let left = open.by[address, default: 1] - 1
                open.by[address] = left > 0 ? left : nil
                return open.all
            }
            changed(now)
        }
    }

    private let count: Count
    private let address = Mutex<String?>(nil)
    /// Completed once, when the client closes its side or the connection ends.
    private let gone = Mutex<(promise: EventLoopPromise<Void>?, future: EventLoopFuture<Void>?)>((nil, nil))

    init(_ count: Count) { self.count = count }

    /// Completes when the client has closed its side of the connection (or the connection ended).
    var clientGone: EventLoopFuture<Void>? { gone.withLock { $0.future } }

    func handlerAdded(context: ChannelHandlerContext) {
        let promise = context.eventLoop.makePromise(of: Void.self)
        gone.withLock { $0 = (promise, promise.futureResult) }
        let from = context.channel.remoteAddress?.ipAddress ?? "unknown"
        guard count.admit(from) else { return context.close(promise: nil) }
        address.withLock { $0 = from }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .inputClosed = event as? ChannelEvent { clientLeft() }
        context.fireUserInboundEventTriggered(event)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        clientLeft()
        if let from = address.withLock({ $0 }) { count.release(from) }
    }

    private func clientLeft() {
        gone.withLock { state in
            defer { state.promise = nil }
            return state.promise
        }?.succeed()
    }
}
