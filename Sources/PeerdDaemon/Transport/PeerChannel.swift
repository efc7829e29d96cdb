import NIOCore
import PeerdSecurity
import PeerdWire
import Synchronization

/// A peer connection's channel: TLS, then frames (the first two limited to admission records),
/// with a deadline for TLS and admission together.
struct PeerChannel: Sendable {
    typealias Connection = NIOAsyncChannel<PeerConnection.Event, ByteBuffer>

    let connection: Connection
    /// Where others post to the connection's loop, beside the frames.
    let mailbox: ConnectionMailbox
    let pending: PendingAdmission
    /// When bytes, TLS records and all, last arrived: the session's sign of life.
    let arriving: ArrivingBytes

    /// Time from the TCP connection to a completed admission (proto/SECURITY.md).
    static let admissionDeadline: TimeAmount = .seconds(5)

    /// Sets up the pipeline on the channel's event loop. Nil when `gate` is full: the caller closes.
    static func wrap(
        _ channel: any Channel,
        role: PeerConnection.Role,
        tls: PeerTLS,
        gate: AdmissionGate?
    ) throws -> PeerChannel {
        let pending = try PendingAdmission(channel: channel, gate: gate)
        let arriving = ArrivingBytes()
        try channel.pipeline.syncOperations.addHandler(arriving)
        try tls.addHandler(to: channel, role: role)
        try channel.pipeline.syncOperations.addHandler(
            ByteToMessageHandler(
                FrameDecoder(initialLimits: [AdmissionRecord.maxLength, AdmissionRecord.maxLength])
            )
        )
        try channel.pipeline.syncOperations.addHandler(MessageToByteHandler(FrameEncoder()))
        let mailbox = try ConnectionMailbox.install(on: channel)
        let connection = try Connection(wrappingChannelSynchronously: channel)
        return PeerChannel(connection: connection, mailbox: mailbox, pending: pending, arriving: arriving)
    }
}

/// Caps how many connections may be between TCP accept and admission at once.
final class AdmissionGate: Sendable {
    let limit: Int
    private let count = Mutex(0)

    init(limit: Int = 32) {
        self.limit = limit
    }

    func enter() -> Bool {
        count.withLock { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
    }

    func leave() {
        count.withLock { $0 -= 1 }
    }
}

/// One connection's place in the gate and its deadline, given up once (admitted or closed).
final class PendingAdmission: Sendable {
    private let state: Mutex<(done: Bool, deadline: Scheduled<Void>?)>
    private let gate: AdmissionGate?

    struct Busy: Error, CustomStringConvertible {
        var description: String { "too many connections are waiting for admission" }
    }

    init(channel: any Channel, gate: AdmissionGate?) throws {
        if let gate, !gate.enter() {
            // A failed initializer alone leaves the accepted socket open: close it here.
            channel.close(promise: nil)
            throw Busy()
        }
        self.gate = gate
        state = Mutex((false, nil))
        let deadline = channel.eventLoop.scheduleTask(in: PeerChannel.admissionDeadline) {
            channel.close(promise: nil)
        }
        state.withLock { $0.deadline = deadline }
        channel.closeFuture.whenComplete { _ in self.finish() }
    }

    /// Admission succeeded: the deadline no longer applies and the gate has room again.
    func finish() {
        let deadline: Scheduled<Void>? = state.withLock { state in
            guard !state.done else { return nil }
            state.done = true
            return state.deadline
        }
        guard let deadline else { return }
        deadline.cancel()
        gate?.leave()
    }
}
