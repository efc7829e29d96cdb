import Logging
import NIOCore
import PeerdModel
import PeerdSecurity
import PeerdSync
import PeerdWire
import ServiceLifecycle

/// Drives one connection with a peer over TLS: feeds a ``PeerConnectionStateMachine`` the frames,
/// replica updates, trust changes and clock ticks, and carries out what it returns. Every decision
/// is the machine's; this type only reads, writes and calls the actors.
struct PeerConnection {
    typealias Machine = PeerConnectionStateMachine<ContinuousClock.Instant>
    typealias Session = Machine.Session
    typealias Role = Session.Role

    /// The other end as TLS authenticated it: its key's fingerprint and its certificate (DER).
    typealias RemoteIdentity = (peer: PeerID, certificate: [UInt8])

    let connection: PeerChannel.Connection
    let role: Role
    let address: String
    let source: PeerSource
    /// The id this side dialed expecting (an mDNS announcement's or a join's inviter), if any.
    let expected: PeerID?
    /// Who the other end is, once TLS is up: the peer certificate of the TLS handler.
    let identify: @Sendable () async throws -> RemoteIdentity
    /// Admission succeeded: the admission deadline and the cap on pending connections let go.
    let admitted: @Sendable () -> Void
    /// Bytes arriving, before they make a frame: a slow link's sign of life.
    let arriving: ArrivingBytes
    let replica: ReplicaService
    let directory: PeerDirectory
    let trust: TrustService
    let identity: PeerIdentity
    let localHello: @Sendable (VersionVector) -> PeerMessage.Hello
    let configuration: Session.Configuration
    let trace: FrameTrace?
    let logger: Logger

    /// What the connection's tasks report to its one loop.
    enum Event: Sendable {
        case frame(ByteBuffer)
        case inboundEnded((any Error)?)
        case advanced(VersionVector)
        /// The replica took a frame's operations: the origins all held already, or why not.
        case delivered(Result<Set<PeerID>, WireError>)
        case tick
        case closeRequested(WireError)
        case membersChanged
    }

    /// How long the closing `error` frame may wait for a peer that doesn't read.
    static let finalWriteLimit = Duration.seconds(1)

    func run() async -> ConnectionOutcome {
        let (events, sink) = AsyncStream.makeStream(of: Event.self)
        let connectionID = await directory.opened(address: address, source: source, role: role) { error in
            sink.yield(.closeRequested(error))
        }
        let interest = VectorInterest()
        let updates = await replica.vectorUpdates(interest: interest)
        let trustUpdates = await trust.updates()
        var generator = SystemRandomNumberGenerator()
        let machine = Machine(role: role, expected: expected, configuration: configuration, using: &generator)
        let credit = ReadCredit()
        let outcome: ConnectionOutcome
        do {
            outcome = try await connection.executeThenClose { inbound, outbound in
                var driver = Driver(
                    connection: self,
                    machine: machine,
                    outbound: outbound,
                    sink: sink,
                    credit: credit,
                    interest: interest,
                    connectionID: connectionID
                )
                await withDiscardingTaskGroup { group in
                    group.addTask {
                        do {
                            for try await frame in inbound {
                                sink.yield(.frame(frame))
                                await credit.handedOver()
                            }
                            sink.yield(.inboundEnded(nil))
                        } catch {
                            sink.yield(.inboundEnded(error))
                        }
                    }
                    group.addTask { for await advance in updates { sink.yield(.advanced(advance.vector)) } }
                    group.addTask { for await _ in trustUpdates { sink.yield(.membersChanged) } }
                    group.addTask {
                        while (try? await ContinuousClock().sleep(for: .seconds(1))) != nil { sink.yield(.tick) }
                    }
                    // Stopping closes the session with `shutting-down`. The task is not cancelled for
                    // it: a write from a cancelled task never reaches the wire.
                    group.addTask {
                        guard (try? await gracefulShutdown()) != nil else { return }
                        sink.yield(.closeRequested(.shuttingDown))
                    }
                    await driver.drive(events)
                    group.cancelAll()
                    // The session is over: `peers` stops showing it now, not when TLS's close is done.
                    await directory.closed(connectionID)
                }
                return driver.finish()
            }
        } catch {
            outcome = ConnectionOutcome(error: "connection failed: \(error)")
        }
        sink.finish()
        return outcome
    }
}
