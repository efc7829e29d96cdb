import Logging
import NIOCore
import PeerdModel
import PeerdSecurity
import PeerdSync
import PeerdWire
import ServiceLifecycle

/// Drives one connection with a peer over TLS: feeds a ``PeerConnectionStateMachine`` the frames,
/// replica updates, trust changes and its timer, and carries out what it returns. Every decision
/// is the machine's; this type only reads, writes and calls the actors.
///
/// Everything the connection waits for arrives in one sequence, the channel's inbound iterator
/// (``ConnectionEvents``): the frames, and the events others post to its ``ConnectionMailbox``.
struct PeerConnection {
    typealias Machine = PeerConnectionStateMachine<ContinuousClock.Instant>
    typealias Session = Machine.Session
    typealias Role = Session.Role

    /// The other end as TLS authenticated it: its key's fingerprint and its certificate (DER).
    typealias RemoteIdentity = (peer: PeerID, certificate: [UInt8])

    let connection: PeerChannel.Connection
    let mailbox: ConnectionMailbox
    /// Where the connection's loop runs: its channel's event loop (``EventLoopTaskExecutor``), or
    /// Swift's global executor when nil (a test's channel, whose loop runs only when told to).
    let executor: (any TaskExecutor)?
    let role: Role
    let address: String
    let source: PeerSource
    /// The id this side dialed expecting (an mDNS announcement's or a join's inviter), if any.
    let expected: PeerID?
    /// The relay's `host:port` when the connection rides on one (proto/PEER.md, "Relays and reach").
    let via: String?
    /// Who the other end is, once TLS is up: the peer certificate of the TLS handler.
    let identify: @Sendable () async throws -> RemoteIdentity
    /// Admission succeeded: the admission deadline and the cap on pending connections let go.
    let admitted: @Sendable () -> Void
    /// Bytes arriving, before they make a frame: a slow link's sign of life.
    let arriving: ArrivingBytes
    let replica: ReplicaService
    /// The lists other than the group's: which go to the peer, and their replica services.
    let spaces: ListSpaces
    let directory: PeerDirectory
    let trust: TrustService
    let catalog: CatalogPeers
    let identity: PeerIdentity
    let localHello: @Sendable (VersionVector) -> PeerMessage.Hello
    let configuration: Session.Configuration
    let trace: FrameTrace?
    let logger: Logger

    /// What the connection's loop reads: the peer's frames, and what others post beside them.
    enum Event: Sendable {
        case frame(ByteBuffer)
        case advanced(VersionVector)
        /// The replica took a frame's operations: the origins all held already, or why not.
        case delivered(Result<Set<PeerID>, WireError>)
        /// The timer set at the machine's next deadline.
        case tick
        case closeRequested(WireError)
        case membersChanged
        /// A catalog `query` of ours, or an `answer` to the peer's, to send.
        case catalog(PeerMessage)
        /// Which lists are shared with which machines may have changed.
        case listsChanged
        /// A list's replica committed: it now holds this vector.
        case listAdvanced(ListID, VersionVector)
        /// A list's replica took the operations of one of its frames, or not (as ``delivered(_:)``).
        case listDelivered(ListID, Result<Set<PeerID>, WireError>)
    }

    /// How long the closing `error` frame may wait for a peer that doesn't read.
    static let finalWriteLimit = Duration.seconds(1)
    /// How long it may wait when the peer reads and only this machine is slow.
    static let busyWriteLimit = Duration.seconds(10)

    /// Serves the connection until it closes, on `executor`.
    func run() async -> ConnectionOutcome {
        await withTaskExecutorPreference(executor) { await serve() }
    }

    private func serve() async -> ConnectionOutcome {
        let mailbox = self.mailbox
        let connectionID = await directory.opened(
            address: address,
            source: source,
            role: role,
            via: via,
            close: { mailbox.post(.closeRequested($0)) },
            send: { mailbox.post(.catalog($0)) }
        )
        let interest = VectorInterest()
        let updates = await replica.vectorUpdates(interest: interest)
        let trustUpdates = await trust.updates()
        let sharing = await spaces.sharingChanges()
        var generator = SystemRandomNumberGenerator()
        let machine = Machine(role: role, expected: expected, configuration: configuration, using: &generator)
        let outcome: ConnectionOutcome
        do {
            outcome = try await connection.executeThenClose { inbound, outbound in
                var driver = Driver(
                    connection: self,
                    machine: machine,
                    outbound: outbound,
                    interest: interest,
                    connectionID: connectionID
                )
                await withDiscardingTaskGroup { group in
                    group.addTask { for await advance in updates { mailbox.post(.advanced(advance.vector)) } }
                    group.addTask { for await _ in trustUpdates { mailbox.post(.membersChanged) } }
                    group.addTask { for await _ in sharing { mailbox.post(.listsChanged) } }
                    // Stopping closes the session with `shutting-down`. The task is not cancelled for
                    // it: a write from a cancelled task never reaches the wire.
                    group.addTask {
                        guard (try? await gracefulShutdown()) != nil else { return }
                        mailbox.post(.closeRequested(.shuttingDown))
                    }
                    await driver.drive(inbound)
                    group.cancelAll()
                    // The session is over: `peers` stops showing it now, not when TLS's close is done.
                    await directory.closed(connectionID)
                    await catalog.asker.ended(connectionID)
                }
                return driver.finish()
            }
        } catch {
            outcome = ConnectionOutcome(error: "connection failed: \(error)")
        }
        return outcome
    }

    /// The peer said this daemon's key was removed from the group ("removed from the group by alice
    /// at 21:04"): trust dials nobody any more, and the replica writes nothing.
    func toldRemoved(_ words: String) async {
        await trust.toldRemoved(words)
        await replica.told(removed: words)
    }
}
