/// Everything a replica folded from its log, in plain parts: what a start-up snapshot holds
/// (PeerdStore's `ReplicaSnapshot` writes and reads them). ``Replica/init(restoring:archive:)``
/// makes from them the replica that replaying the log gave, without reading the log again.
///
/// Operations are parts only where the folded state holds them whole (surviving adds, the newest
/// describes, settings and list definition, pick and member operations); the rest, retired
/// (``OperationGist``), is in the log, where the parts say each operation is.
package struct ReplicaParts: Sendable {
    package var id: PeerID
    package var name: String
    package var listID: ListID?
    package var lamport: UInt64
    package var vector: [PeerID: UInt64]
    package var creator: PeerID?
    /// Every operation the folded state holds whole, without proofs, in the list's order.
    package var kept: [Operation]
    /// Every add a removal cancelled.
    package var tombstones: [OperationID]
    package var marks: GroupMarks.Parts
    package var names: [MemberNames.Part]
    package var log: ReplicaLog.Parts

    package init(
        id: PeerID,
        name: String,
        listID: ListID?,
        lamport: UInt64,
        vector: [PeerID: UInt64],
        creator: PeerID?,
        kept: [Operation],
        tombstones: [OperationID],
        marks: GroupMarks.Parts,
        names: [MemberNames.Part],
        log: ReplicaLog.Parts
    ) {
        self.id = id
        self.name = name
        self.listID = listID
        self.lamport = lamport
        self.vector = vector
        self.creator = creator
        self.kept = kept
        self.tombstones = tombstones
        self.marks = marks
        self.names = names
        self.log = log
    }
}

extension Replica {
    /// This replica in parts; nil when it holds an operation or a proof that no log holds (a
    /// replica in a test or a tool, which has nothing to snapshot), has staged operations, or
    /// dropped void ones its log still holds (a later removal may lift their cutoff, and replaying
    /// the log would then count them).
    package var parts: ReplicaParts? {
        guard staged.isEmpty, !droppedVoid, let logParts = log.parts else { return nil }
        var kept = list.keptOperations
        kept += membership.recordedOperations
        kept.sort { $0.orderKey < $1.orderKey }
        return ReplicaParts(
            id: id,
            name: name,
            listID: listID,
            lamport: lamport,
            vector: vector.entries,
            creator: creator,
            kept: kept,
            tombstones: list.tombstoneParts,
            marks: list.marks.parts,
            names: list.names.parts,
            log: logParts
        )
    }
}
