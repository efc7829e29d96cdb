import NIOCore
import Synchronization

/// At most ``Count/limit`` guest connections open at once, and ``Count/perAddress`` from one
/// address: one more is closed as it comes. A flood of connections (proto/WEB.md, "Guests") then
/// holds a bounded amount of memory, one flooder can't take every place, and the members' page, on
/// a server of its own, is not slowed. Written here because Hummingbird's server has no such limit;
/// it is a count and two callbacks.
final class ConnectionCap: ChannelInboundHandler, RemovableChannelHandler, Sendable {
    typealias InboundIn = NIOAny

    final class Count: Sendable {
        let limit: Int
        let perAddress: Int
        private let open = Mutex<(all: Int, by: [String: Int])>((0, [:]))

        init(limit: Int, perAddress: Int) {
            self.limit = limit
            self.perAddress = perAddress
        }

        /// Counts a connection from `address` in, if there is room for it.
        func admit(_ address: String) -> Bool {
            open.withLock { open in
                guard open.all < limit, open.by[address, default: 0] < perAddress else { return false }
                open.all += 1
                open.by[address, default: 0] += 1
                return true
            }
        }

        func release(_ address: String) {
            open.withLock { open in
                open.all -= 1
                let left = open.by[address, default: 1] - 1
                open.by[address] = left > 0 ? left : nil
            }
        }
    }

    private let count: Count
    private let address = Mutex<String?>(nil)

    init(_ count: Count) { self.count = count }

    func handlerAdded(context: ChannelHandlerContext) {
        let from = context.channel.remoteAddress?.ipAddress ?? "unknown"
        guard count.admit(from) else { return context.close(promise: nil) }
        address.withLock { $0 = from }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        if let from = address.withLock({ $0 }) { count.release(from) }
    }
}
