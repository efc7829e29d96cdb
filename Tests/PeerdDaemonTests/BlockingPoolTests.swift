import NIOCore
import NIOPosix
import PeerdLoops
import Synchronization
import Testing

@testable import PeerdDaemon

#if canImport(Glibc)
import Glibc
#endif

/// `BlockingPool`: where file system calls go instead of the event loops.
@Suite("BlockingPool")
struct BlockingPoolTests {
    struct Refused: Error, Equatable {}

    @Test func workAskedForOnAnEventLoopRunsOffTheLoops() async {
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        let (askedOnLoop, ranOnLoop) = await withTaskExecutorPreference(EventLoopTaskExecutor(loop)) {
            (loop.inEventLoop, await BlockingPool.run { MultiThreadedEventLoopGroup.currentEventLoop != nil })
        }
        #expect(askedOnLoop)
        #expect(!ranOnLoop)
    }

    @Test func whatTheWorkReturnsOrThrowsComesBack() async {
        #expect(await BlockingPool.run { 42 } == 42)
        await #expect(throws: Refused()) {
            try await BlockingPool.run { () throws(Refused) -> Int in throw Refused() }
        }
    }

    /// One thread, so two writes of one file never interleave.
    @Test func workRunsOneAtATime() async {
        let counts = Counts()
        await withDiscardingTaskGroup { group in
            for _ in 0..<20 {
                group.addTask {
                    await BlockingPool.run {
                        counts.state.withLock {
                            $0.running += 1
                            $0.most = max($0.most, $0.running)
                        }
                        usleep(1_000)
                        counts.state.withLock {
                            $0.running -= 1
                            $0.done += 1
                        }
                    }
                }
            }
        }
        let (most, done) = counts.state.withLock { ($0.most, $0.done) }
        #expect(most == 1)
        #expect(done == 20)
    }

    /// How many pieces of work run at once, the most that did, and how many ended.
    final class Counts: Sendable {
        let state = Mutex((running: 0, most: 0, done: 0))
    }
}
