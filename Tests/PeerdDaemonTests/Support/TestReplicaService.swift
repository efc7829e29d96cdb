import Logging
import PeerdModel
import PeerdSecurity

@testable import PeerdDaemon

extension ReplicaService {
    /// The replica service of `identity`'s own replica, named `name`, over `store`: as the tests make one.
    static func testing(
        _ identity: PeerIdentity,
        name: String,
        store: any OperationStore,
        list: ListID? = nil
    ) -> ReplicaService {
        ReplicaService(
            replica: Replica(id: identity.peer, name: name, list: list),
            identity: identity,
            store: store,
            logger: Logger(label: "test")
        )
    }
}
