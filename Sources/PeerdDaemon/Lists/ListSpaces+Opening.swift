import Logging
import NIOPosix
import PeerdModel
import PeerdSecurity
import PeerdStore
import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// Lists on disk: `lists/<id>/operations.log` in the state directory, each replayed into a replica
/// of its own at start, as the group's log is.
extension ListSpaces {
    /// The ids of the lists in `state`'s `lists/` directory; a name that is no list id is left alone.
    static func heldLists(in state: StateDirectory) throws -> [ListID] {
        guard let directory = state.listsPath.withPlatformString({ opendir($0) }) else { return [] }
        defer { closedir(directory) }
        var ids: [ListID] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if let id = ListID(name) { ids.append(id) }
        }
        return ids.sorted()
    }

    /// The service of list `id`, its replica rebuilt from its log (made empty when missing).
    static func openService(
        _ id: ListID,
        identity: PeerIdentity,
        name: String,
        state: StateDirectory,
        pool: NIOThreadPool,
        logger: Logger
    ) throws -> ReplicaService {
        let path = try state.logPath(ofList: id.rawValue, logger: logger)
        let opened = try OpenedReplica(Replica(id: identity.peer, name: name, list: id), logPath: path, logger: logger)
        var listLogger = logger
        listLogger[metadataKey: "list"] = "\(id.short)"
        return ReplicaService(opened, identity: identity, threadPool: pool, logger: listLogger)
    }

    /// Opens list `id` here, empty when new, for the machine called `name`: its service runs from
    /// now on.
    func open(_ id: ListID, named name: String) async throws -> ReplicaService {
        if let service = lists[id] { return service }
        guard lists.count < Self.limit else {
            throw Refusal("this machine holds \(Self.limit) lists, as many as it takes")
        }
        let service = try Self.openService(
            id,
            identity: identity,
            name: name,
            state: state,
            pool: threadPool,
            logger: logger
        )
        lists[id] = service
        opened.continuation.yield(service)
        sharingChanged()
        await group.accompany(service)
        return service
    }
}
