package import PeerdModel
package import PeerdWire

/// The lists other than the group's on a connection (proto/PEER.md, "How a list travels"): each
/// open list has a ``PeerSession`` of its own inside the connection, keyed by its id, that runs
/// catch-up, live push and the relay tree with the list's vector and no keepalive of its own. Its
/// messages travel in `list` messages, only when both hellos said `lists`; its actions come out
/// tagged with the list (`.send(.list(id, …))`, ``PeerSession/Action/sendListOperations(_:_:)``,
/// ``PeerSession/Action/deliverList(_:_:)``), and its close ends it alone
/// (``PeerSession/Action/listEnded(_:_:)``), never the connection.
extension PeerConnectionStateMachine {
    /// Both hellos said `lists` and the session is up: lists may travel on this connection.
    package var carriesLists: Bool {
        guard !isClosed, let session, let remote = session.remote else { return false }
        return session.localHello.lists == true && remote.lists == true
    }

    /// The lists whose sessions are open on this connection.
    package var openLists: Set<ListID> { Set(lists.keys) }

    /// Opens list `id`'s session, sending its hello, `localHello` (the list's vector, the rest as
    /// the connection's), and feeds it the peer's hello if the peer opened the list already: so it
    /// also accepts an offer (``PeerSession/Action/listOffered(_:)``). Nothing when the peer carries
    /// no lists, or when the list is open.
    package mutating func openList(_ id: ListID, localHello: PeerMessage.Hello, now: Instant) -> [Session.Action] {
        guard carriesLists, lists[id] == nil, let remote = session?.authenticatedRemote else { return [] }
        var listConfiguration = configuration
        listConfiguration.keepsAlive = false
        lists[id] = Session(
            role: role,
            localHello: localHello,
            now: now,
            authenticatedRemote: remote,
            configuration: listConfiguration
        )
        let offer = offers.removeValue(forKey: id)
        return withList(id) { list in
            list.start(now: now) + (offer.map { list.received(.hello($0), now: now) } ?? [])
        }
    }

    /// Ends list `id`'s session, or refuses the peer's offer of it, sending `error` in the list's
    /// `list` message; the connection goes on. Nothing when the list is neither open nor offered.
    package mutating func closeList(_ id: ListID, _ error: WireError) -> [Session.Action] {
        let offered = offers.removeValue(forKey: id) != nil
        guard carriesLists else { return [] }
        if lists[id] != nil { return withList(id) { $0.failed(error) } }
        return offered ? [.send(.list(id, .error(error)))] : []
    }

    /// The list's replica now holds `vector`: its session pushes what the peer lacks.
    package mutating func listAdvanced(_ id: ListID, to vector: VersionVector, now: Instant) -> [Session.Action] {
        withList(id) { $0.localAdvanced(to: vector, now: now) }
    }

    /// The list's replica took the peer's operations (with the origins it held all of already), or
    /// refused them, or could not persist them: then the list's session ends, not the connection.
    package mutating func listDelivered(
        _ id: ListID,
        _ result: Result<Set<PeerID>, WireError>,
        now: Instant
    ) -> [Session.Action] {
        switch result {
        case .success(let heldAlready): withList(id) { $0.delivered(heldAlready: heldAlready, now: now) }
        case .failure(let failure): withList(id) { $0.failed(failure) }
        }
    }

    /// A message of list `id` from a peer that carries lists: to the list's session when it is
    /// open; a `hello` for a list not open is offered to the driver; anything else is ignored.
    mutating func listReceived(_ id: ListID, _ message: PeerMessage, now: Instant) -> [Session.Action] {
        if lists[id] != nil { return withList(id) { $0.received(message, now: now) } }
        guard case .hello(let hello) = message else { return [] }
        let asked = offers.updateValue(hello, forKey: id) != nil
        return asked ? [] : [.listOffered(id)]
    }

    /// The relay tree's timers of every list's session.
    mutating func listsTick(now: Instant) -> [Session.Action] {
        lists.keys.sorted().flatMap { id in withList(id) { $0.tick(now: now) } }
    }

    /// Runs `body` on list `id`'s session and tags what it returns with the list; a session that
    /// closed is dropped.
    private mutating func withList(_ id: ListID, _ body: (inout Session) -> [Session.Action]) -> [Session.Action] {
        guard !isClosed, var list = lists[id] else { return [] }
        let actions = body(&list)
        lists[id] = list.isClosed ? nil : list
        return Self.tagged(actions, list: id)
    }

    /// A list's session's actions as the connection carries them out.
    static func tagged(_ actions: [Session.Action], list id: ListID) -> [Session.Action] {
        var reported: WireError?
        return actions.flatMap { action -> [Session.Action] in
            switch action {
            case .send(let message): return [.send(.list(id, message))]
            case .sendOperations(let ranges): return [.sendListOperations(id, ranges)]
            case .deliver(let operations): return [.deliverList(id, operations)]
            case .peerReported(let error):
                reported = error
                return []
            case .close(let error):
                return (error.map { [.send(.list(id, .error($0)))] } ?? []) + [.listEnded(id, error ?? reported)]
            case .established, .introduced, .sendMembers, .queried, .answered, .sendListOperations, .deliverList,
                .listOffered, .listEnded:
                return []
            }
        }
    }
}
