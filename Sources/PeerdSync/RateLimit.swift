import PeerdModel
import PeerdWire

/// How fast one peer may send: two token buckets, one counting frames and one counting bytes, each
/// with a sustained rate and a burst. A plain value like `PeerSession`: the connection asks
/// ``admit(bytes:now:)`` for every frame it receives and closes the session when told no.
///
/// Each bucket (a ``TokenBucket``) holds at most its burst and refills at its rate; a frame takes one
/// token from the frame bucket and its length from the byte bucket, and is admitted only if both have
/// enough. A refused frame takes nothing.
///
/// The defaults, and why:
/// - **Frames: 2,000 a second sustained, a burst of 2,000.** Frames per second is what a flood of
///   small valid-looking frames (pings, `ops` of one duplicate operation each) costs the receiver:
///   each is parsed, dispatched and often answered. Legitimate traffic is far below it: a catch-up
///   packs 500 operations a frame (157,000 operations a second measured on loopback is about 315
///   frames a second), 1 MiB frames at 2 GB/s are 2,000 a second, live pushes follow commits (each
///   fsynced, about 1 ms), and keepalive is one `ping` per 10 s. A flood of 10,000 frames a second
///   is refused within a quarter of a second.
/// - **Bytes: 512 MiB a second sustained, a burst of 64 MiB.** Generous on purpose: no LAN link
///   carries more than about 125 MB/s (1 GbE), and a loopback catch-up of 1 MiB frames at 100+ MB/s
///   (about 30 MB/s measured: the receiver's parsing and fsync set the pace) passes with five times
///   room; the burst is 64 frames of the largest size. It is a backstop against a peer streaming
///   large frames faster than any honest one, not the limit that stops floods.
package struct RateLimit<Instant: InstantProtocol>: Sendable where Instant.Duration == Duration {
    package struct Configuration: Hashable, Sendable {
        package var framesPerSecond = 2_000
        package var frameBurst = 2_000
        package var bytesPerSecond = 512 << 20
        /// At least `Frame.maxFrameLength`, or the largest frames would never be admitted.
        package var byteBurst = 64 * Frame.maxFrameLength

        package init() {}

        package init(framesPerSecond: Int, frameBurst: Int, bytesPerSecond: Int, byteBurst: Int) {
            self.framesPerSecond = framesPerSecond
            self.frameBurst = frameBurst
            self.bytesPerSecond = bytesPerSecond
            self.byteBurst = byteBurst
        }
    }

    package enum Decision: Hashable, Sendable {
        case admitted
        /// Over the frame rate, the burst spent.
        case tooManyFrames
        /// Over the byte rate, the burst spent (or one frame larger than the whole byte burst).
        case tooManyBytes
    }

    package let configuration: Configuration
    private var frames: TokenBucket<Instant>
    private var bytes: TokenBucket<Instant>

    /// Both buckets start full.
    package init(configuration: Configuration = .init()) {
        precondition(configuration.framesPerSecond > 0 && configuration.bytesPerSecond > 0, "rates must be positive")
        precondition(configuration.frameBurst >= 1 && configuration.byteBurst >= 1, "bursts must be at least 1")
        self.configuration = configuration
        frames = TokenBucket(rate: configuration.framesPerSecond, burst: configuration.frameBurst)
        bytes = TokenBucket(rate: configuration.bytesPerSecond, burst: configuration.byteBurst)
    }

    /// Whether a frame of `bytes` bytes (its body length) received at `now` is within the limits;
    /// if it is, its tokens are taken.
    package mutating func admit(bytes count: Int, now: Instant) -> Decision {
        var (frames, bytes) = (self.frames, self.bytes)
        guard frames.take(1, now: now) else { return .tooManyFrames }
        guard bytes.take(max(0, count), now: now) else { return .tooManyBytes }
        (self.frames, self.bytes) = (frames, bytes)
        return .admitted
    }

    /// For the `error` a refused peer gets and the log: what it did wrong.
    package func explanation(of decision: Decision) -> String {
        switch decision {
        case .admitted: "within the rate limit"
        case .tooManyFrames:
            "more than \(configuration.framesPerSecond) frames a second (burst \(configuration.frameBurst))"
        case .tooManyBytes:
            "more than \(configuration.bytesPerSecond) bytes a second (burst \(configuration.byteBurst))"
        }
    }
}
