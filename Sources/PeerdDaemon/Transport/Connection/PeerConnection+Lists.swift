import Logging
import PeerdModel
import PeerdSync
import PeerdWire

/// The lists other than the group's on one connection (proto/PEER.md, "How a list travels"): which
/// are open is the machine's to say; the driver opens those ``ListSpaces`` shares with the peer,
/// answers the peer's, and feeds each open list's session its replica's commits.
extension PeerConnection.Driver {
    /// One open list: its replica service, and the task that passes its commits on to the session.
    struct ListFeed {
        let service: ReplicaService
        let commits: Task<Void, Never>
    }

    static let notShared = WireError(.forbidden, "no member of this list lives on your machine any more")

    /// Opens every list shared with the peer that is not open yet, and closes each open one that was
    /// shared when last looked at and is no longer. Nothing with a peer that carries no lists.
    mutating func shareLists() async {
        guard machine.carriesLists, let peer = machine.remote?.peer else { return }
        let shared = await connection.spaces.shared(with: peer)
        for (list, service) in shared.sorted(by: { $0.key < $1.key }) where !machine.openLists.contains(list) {
            await open(list, service)
        }
        for list in sharedLists.subtracting(shared.keys).sorted() where machine.openLists.contains(list) {
            await perform(machine.closeList(list, Self.notShared))
        }
        sharedLists = Set(shared.keys)
    }

    /// The peer opened a list not open here: taken when ``ListSpaces`` gives its service, refused
    /// with its words otherwise.
    mutating func offered(_ list: ListID) async {
        guard let peer = machine.remote?.peer else { return }
        switch await connection.spaces.accept(list, from: peer) {
        case .success(let service):
            await open(list, service)
        case .failure(let refusal):
            logger.notice("refused a list", metadata: ["list": "\(list.short)", "reason": "\(refusal.message)"])
            await perform(machine.closeList(list, refusal))
        }
    }

    /// Opens the list's session with a hello of the list's vector, and follows its commits.
    private mutating func open(_ list: ListID, _ service: ReplicaService) async {
        let actions = machine.openList(list, localHello: connection.localHello(await service.vector), now: clock.now)
        if machine.openLists.contains(list), lists[list] == nil {
            let mailbox = connection.mailbox
            let commits = Task {
                for await advance in await service.vectorUpdates() { mailbox.post(.listAdvanced(list, advance.vector)) }
            }
            lists[list] = ListFeed(service: service, commits: commits)
            logger.debug("list opened", metadata: ["list": "\(list.short)"])
        }
        await perform(actions)
    }

    /// The list's session ended: its commits are no longer followed.
    mutating func ended(_ list: ListID, _ error: WireError?) {
        lists.removeValue(forKey: list)?.commits.cancel()
        var metadata: Logger.Metadata = ["list": "\(list.short)"]
        if let error {
            metadata["code"] = "\(error.code.rawValue)"
            metadata["reason"] = "\(error.message)"
        }
        logger.info("list session ended", metadata: metadata)
    }

    /// The connection is over: every list's feed stops.
    mutating func stopFeedingLists() {
        for feed in lists.values { feed.commits.cancel() }
        lists.removeAll()
    }
}
