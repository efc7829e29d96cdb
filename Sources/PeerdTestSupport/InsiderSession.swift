import Foundation
import NIOCore
import NIOSSL
package import PeerdModel
package import PeerdSecurity
import PeerdTestKit
import PeerdWire

/// A member's session with a real daemon, held open while a test acts on both: the test sends what
/// it likes when it likes (its own signed operations, another key's, forged ones), asks the daemon
/// for a `pong` to show the session is still up, and waits for the daemon's close. Where
/// ``InsiderConnection`` sends one payload and reads until a deadline, this waits on events: a frame
/// of the daemon's, or its close.
///
/// `@unchecked Sendable`: `outbound` is NIO's writer (Sendable); `inbox` guards itself with a lock;
/// the rest is set once in `init`.
package final class InsiderSession: @unchecked Sendable {
    /// What the daemon sent: a frame, or the end of the connection.
    package enum Event: Sendable {
        case frame(PeerFrame)
        case closed
    }

    /// One frame of the daemon's after admission, with the JSON fields tests look at.
    package struct PeerFrame: Sendable, CustomStringConvertible {
        package let bytes: [UInt8]
        package let type: String?
        package let code: String?
        package let message: String?

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
            let object = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any]
            type = object?["type"] as? String
            code = object?["code"] as? String
            message = object?["message"] as? String
        }

        package var description: String { String(decoding: bytes.prefix(300), as: UTF8.self) }
    }

    package let identity: PeerIdentity
    /// The daemon's id, from its certificate.
    package let daemon: PeerID
    /// The reason byte of the daemon's `WLR1` refusal record (SECURITY.md), when it refused us.
    package let refusalReason: UInt8?
    private let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    private let inbox: Inbox
    /// Frames of the daemon's before this index were admission records.
    private let firstPeerFrame: Int

    private init(
        identity: PeerIdentity,
        daemon: PeerID,
        refusalReason: UInt8?,
        outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>,
        inbox: Inbox,
        firstPeerFrame: Int
    ) {
        self.identity = identity
        self.daemon = daemon
        self.refusalReason = refusalReason
        self.outbound = outbound
        self.inbox = inbox
        self.firstPeerFrame = firstPeerFrame
    }

    /// Whether the daemon admitted us: no refusal record came.
    package var admitted: Bool { refusalReason == nil }
    /// Our peer id.
    package var peer: PeerID { identity.peer }

    /// Connects to `127.0.0.1:port` as `identity`, proves `groupSecret` (none when nil: then only a
    /// daemon that trusts `identity`'s id admits it), and runs `body` with the session; the
    /// connection is closed when `body` returns. A refused session is handed to `body` too
    /// (``admitted`` false, ``refusalReason`` set).
    package static func open<Result: Sendable>(
        port: Int,
        identity: PeerIdentity,
        groupSecret: String? = nil,
        _ body: (InsiderSession) async throws -> Result
    ) async throws -> Result {
        let channel = try await InsiderConnection.connect(port: port, identity: identity)
        let raw = channel.channel
        return try await channel.executeThenClose { inbound, outbound in
            let inbox = Inbox()
            return try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    do {
                        for try await frame in inbound { inbox.append(Array(frame.readableBytesView)) }
                    } catch {}
                    inbox.close()
                }
                defer {
                    raw.close(promise: nil)
                    group.cancelAll()
                }
                let session = try await admit(
                    identity: identity,
                    groupSecret: groupSecret,
                    channel: raw,
                    inbox: inbox,
                    outbound: outbound
                )
                return try await body(session)
            }
        }
    }

    /// The admission handshake (SECURITY.md): offers both ways, then proofs; a refusal record may
    /// follow the daemon's proof.
    private static func admit(
        identity: PeerIdentity,
        groupSecret: String?,
        channel: any Channel,
        inbox: Inbox,
        outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    ) async throws -> InsiderSession {
        let nonce = (0..<32).map { _ in UInt8.random(in: 0...255) }
        try await outbound.write(ByteBuffer(bytes: RawConnection.frame(AdmissionRecord.offer(nonce: nonce))))
        guard case .frame(let offer) = try await inbox.event(at: 0) else { throw InsiderSessionError.closed }
        let groupKey = groupSecret.map { GroupSecret.key(Array($0.utf8)) }
        let started = try await InsiderConnection.handshake(on: channel, as: identity, groupKey: groupKey, nonce: nonce)
        guard let started else { throw InsiderSessionError.noCertificate }
        let daemon = started.daemon
        var handshake = started.handshake
        for case .send(let bytes) in handshake.received(offer.bytes) {
            try await outbound.write(ByteBuffer(bytes: RawConnection.frame(bytes)))
        }
        guard case .frame(let proof) = try await inbox.event(at: 1) else { throw InsiderSessionError.closed }
        _ = handshake.received(proof.bytes)
        // A refusal record, if any, comes next; an admitted side sees the daemon's hello instead.
        var refusal: UInt8?
        if case .frame(let next) = try await inbox.event(at: 2), AdmissionRecord.parseRefusal(next.bytes) != nil {
            refusal = next.bytes.count > 4 ? next.bytes[4] : nil
        }
        return InsiderSession(
            identity: identity,
            daemon: daemon,
            refusalReason: refusal,
            outbound: outbound,
            inbox: inbox,
            firstPeerFrame: refusal == nil ? 2 : 3
        )
    }

    // MARK: Sending

    /// Sends each of `bodies` as one frame, in order. Throws when the connection is gone.
    package func send(_ bodies: [UInt8]...) async throws {
        for body in bodies { try await outbound.write(ByteBuffer(bytes: RawConnection.frame(body))) }
    }

    /// Our `hello`, holding `vector` (empty: the daemon sends us everything in its catch-up).
    package func hello(name: String, vector: VersionVector = VersionVector()) async throws {
        let hello = PeerMessage.Hello(peer: identity.peer, name: name, port: 0, vector: vector)
        try await send(WireCoding.encode(PeerMessage.hello(hello)))
    }

    /// One `ops` frame holding `operations`, as they are (signed or not).
    package func sendOps(_ operations: [PeerdModel.Operation]) async throws {
        try await send(OpsFrameBuilder.body(for: operations))
    }

    // MARK: Reading

    /// Every frame of the daemon's after admission so far.
    package var frames: [PeerFrame] { Array(inbox.frames.dropFirst(firstPeerFrame)) }

    /// The `code`s of the `error` frames the daemon sent.
    package var errorCodes: [String] { frames.filter { $0.type == "error" }.compactMap(\.code) }

    /// The first frame from now on (or already held, with `fromStart`) that `matches`; nil when the
    /// daemon closes or `timeout` passes first.
    package func firstFrame(
        fromStart: Bool = false,
        within timeout: Duration = .seconds(15),
        where matches: @escaping @Sendable (PeerFrame) -> Bool
    ) async throws -> PeerFrame? {
        let start = fromStart ? firstPeerFrame : inbox.count
        let event = try await firstEvent(of: inbox.events(from: start), within: timeout) { event in
            if case .frame(let frame) = event { return matches(frame) }
            return true
        }
        if case .frame(let frame) = event { return frame }
        return nil
    }

    /// Whether the session is up: a `ping` sent now is answered with a `pong` within `timeout`.
    package func answersPing(within timeout: Duration = .seconds(15)) async throws -> Bool {
        let events = inbox.events(from: inbox.count)
        do {
            try await send(Array(#"{"type":"ping"}"#.utf8))
        } catch {
            return false
        }
        let pong = try await firstEvent(of: events, within: timeout) { event in
            if case .frame(let frame) = event { return frame.type == "pong" }
            return true
        }
        if case .frame = pong { return true }
        return false
    }

    /// Whether the daemon closes the connection within `timeout` (or has already).
    package func closedByDaemon(within timeout: Duration = .seconds(15)) async throws -> Bool {
        let event = try await firstEvent(of: inbox.events(from: inbox.count), within: timeout) { event in
            if case .closed = event { return true }
            return false
        }
        return event != nil
    }
}

enum InsiderSessionError: Error {
    case noCertificate
    case closed
}

extension InsiderSession {
    /// The daemon's frames as they come, and the end of the connection; read by any number of
    /// waits, each from a frame of its choosing.
    ///
    /// `@unchecked Sendable`: every field is guarded by `lock`.
    final class Inbox: @unchecked Sendable {
        private let lock = NSLock()
        private var held: [PeerFrame] = []
        private var ended = false
        private var readers: [UUID: AsyncStream<Event>.Continuation] = [:]

        var frames: [PeerFrame] { lock.withLock { held } }
        var count: Int { lock.withLock { held.count } }

        func append(_ bytes: [UInt8]) {
            let frame = PeerFrame(bytes)
            let current = lock.withLock {
                held.append(frame)
                return Array(readers.values)
            }
            for reader in current { reader.yield(.frame(frame)) }
        }

        func close() {
            let current = lock.withLock {
                ended = true
                return Array(readers.values)
            }
            for reader in current {
                reader.yield(.closed)
                reader.finish()
            }
        }

        /// Frame `index` and every one after it, then `.closed` once the connection ends.
        func events(from index: Int) -> AsyncStream<Event> {
            let (stream, sink) = AsyncStream.makeStream(of: Event.self)
            let key = UUID()
            lock.withLock {
                for frame in held.dropFirst(index) { sink.yield(.frame(frame)) }
                if ended {
                    sink.yield(.closed)
                    sink.finish()
                } else {
                    readers[key] = sink
                }
            }
            sink.onTermination = { [weak self] _ in
                guard let self else { return }
                _ = self.lock.withLock { self.readers.removeValue(forKey: key) }
            }
            return stream
        }

        /// Frame `index` once it came (or `.closed`), within the admission deadline.
        func event(at index: Int) async throws -> Event {
            try await firstEvent(of: events(from: index), within: .seconds(10)) ?? .closed
        }
    }
}
