import Logging
import NIOPosix
import PeerdModel
import PeerdStore
import PeerdTestKit
import SystemPackage

@testable import PeerdDaemon

extension ListSpaces {
    /// The lists of `group`'s machine, kept in a fresh scratch state directory.
    static func testing(group: ReplicaService) async throws -> ListSpaces {
        let scratch = try ScratchDirectory("lists")
        let logger = Logger(label: "test")
        return try ListSpaces(
            group: group,
            identity: group.identity,
            state: try StateDirectory(at: scratch.path.appending("state"), logger: logger),
            name: await group.name,
            threadPool: .singleton,
            logger: logger
        )
    }

    /// Holds `service` as list `id`'s, as if the list were made or taken here.
    func hold(_ id: ListID, _ service: ReplicaService) { lists[id] = service }
}
