import Hummingbird
import NIOCore
import PeerdLoops
import ServiceLifecycle

/// A `text/event-stream` answer, for the page's events and the guests': what `produce` yields, a
/// comment line when nothing else was sent for a while (so proxies and browsers keep it open),
/// until `produce` returns, the reader goes away (`readerGone` completes, or else a write fails),
/// `ended` finishes (the device that reads it was unlinked) or peerd shuts down.
enum EventStream {
    /// How often an idle stream gets a comment line.
    static var keepAliveInterval: Duration { .seconds(15) }

    static func response(
        until readerGone: EventLoopFuture<Void>? = nil,
        or ended: AsyncStream<Never>? = nil,
        _ produce: @escaping @Sendable (AsyncStream<ByteBuffer>.Continuation) async -> Void
    ) -> Response {
        let body = ResponseBody { writer in
            let (frames, sink) = AsyncStream.makeStream(of: ByteBuffer.self)
            await withDiscardingTaskGroup { group in
                group.addTask {
                    await produce(sink)
                    sink.finish()
                }
                if let readerGone {
                    group.addTask {
                        // A stream, not `readerGone.get()`, so that the group's cancelling ends the wait.
                        let (gone, leave) = AsyncStream.makeStream(of: Never.self)
                        readerGone.whenComplete { _ in leave.finish() }
                        for await _ in gone {}
                        sink.finish()
                    }
                }
                if let ended {
                    group.addTask {
                        for await _ in ended {}
                        sink.finish()
                    }
                }
                group.addTask {
                    while (try? await LoopClock.shared.sleep(for: keepAliveInterval)) != nil {
                        sink.yield(ByteBuffer(string: ": keep-alive\n\n"))
                    }
                }
                for await frame in frames.cancelOnGracefulShutdown() {
                    guard (try? await writer.write(frame)) != nil else { break }
                }
                // The producer's task ends here, and any subscription with it.
                group.cancelAll()
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: [.contentType: "text/event-stream; charset=utf-8"], body: body)
    }
}
