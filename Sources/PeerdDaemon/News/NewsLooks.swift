import PeerdLoops
import PeerdModel
import PeerdStore
import SystemPackage

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where each member of this machine last looked at the news (`news-looked.json` in the state
/// directory): the newest report's place in the group's order when they did. Their unread count
/// is what came after it. Members live on one machine, so this is the machine's own, not replicated.
actor NewsLooks {
    let path: FilePath
    private var looked: [PeerID: OrderKey]?

    init(stateDirectory: FilePath) {
        path = stateDirectory.appending("news-looked.json")
    }

    /// Where `member` last looked; nil when they never did.
    func lastLook(of member: PeerID) async -> OrderKey? {
        await loaded()[member]
    }

    /// `member` looked when `newest` was the newest report. A file that can't be written costs
    /// only the count after a restart: said in the log by the caller.
    func look(_ member: PeerID, at newest: OrderKey) async throws {
        var looks = await loaded()
        guard looks[member].map({ $0 < newest }) ?? true else { return }
        looks[member] = newest
        looked = looks
        let entries = Dictionary(uniqueKeysWithValues: looks.map { ($0.key.rawValue, $0.value.cursor) })
        let bytes = Array(try JSONEncoder().encode(entries))
        let path = self.path
        try await BlockingPool.run { () throws(StoreError) in try AtomicFile.write(bytes, to: path) }
    }

    private func loaded() async -> [PeerID: OrderKey] {
        if let looked { return looked }
        let path = self.path
        let bytes = await BlockingPool.run { try? AtomicFile.read(path) } ?? nil
        let entries = bytes.flatMap { try? JSONDecoder().decode([String: String].self, from: Data($0)) } ?? [:]
        let looks = Dictionary(
            entries.compactMap { key, value in
                PeerID(key).flatMap { peer in OrderKey(cursor: value).map { (peer, $0) } }
            },
            uniquingKeysWith: max
        )
        looked = looks
        return looks
    }
}
