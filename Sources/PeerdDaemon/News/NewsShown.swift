import Logging
import PeerdLoops
import PeerdModel
import PeerdStore
import SystemPackage

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The reports this machine's desktop has shown or passed over (`news-shown.json` in the state
/// directory), written after each batch is shown: a report that reached this machine just before
/// it stopped is shown at the next start, and none is shown twice unless peerd died between
/// showing it and writing this down.
struct NewsShown: Sendable {
    let path: FilePath
    let logger: Logger

    init(stateDirectory: FilePath, logger: Logger) {
        path = stateDirectory.appending("news-shown.json")
        self.logger = logger
    }

    /// The reports already handled; without the file (the first start with news), every report
    /// `holding` holds, which are old news to this desktop.
    func load(holding reports: [Operation]) async -> Set<OperationID> {
        let path = self.path
        let bytes = await BlockingPool.run { try? AtomicFile.read(path) } ?? nil
        if let bytes, let ids = try? JSONDecoder().decode([OperationID].self, from: Data(bytes)) {
            return Set(ids)
        }
        let known = Set(reports.map(\.id))
        await save(known)
        return known
    }

    func save(_ known: Set<OperationID>) async {
        let path = self.path
        do {
            let bytes = Array(try JSONEncoder().encode(known.sorted()))
            try await BlockingPool.run { () throws(StoreError) in try AtomicFile.write(bytes, to: path) }
        } catch {
            logger.warning("could not record the news shown on the desktop", metadata: ["cause": "\(error)"])
        }
    }
}
