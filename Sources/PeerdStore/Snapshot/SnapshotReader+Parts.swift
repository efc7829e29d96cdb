import PeerdCodec
import PeerdModel

/// Reads back what ``SnapshotWriter/put(_:)`` wrote of a replica's parts.
extension SnapshotReader {
    mutating func parts() throws(SnapshotMalformed) -> ReplicaParts {
        let id = try peer()
        let name = try string()
        let listID = try optionalString().map { text throws(SnapshotMalformed) in
            guard let list = ListID(text) else { throw SnapshotMalformed(description: "not a list id") }
            return list
        }
        let lamport = try uint64()
        let creator = try optionalString().flatMap(PeerID.init)
        var vector: [PeerID: UInt64] = [:]
        for _ in 0..<(try count()) { vector[try peer()] = try uint64() }
        let kept = try keptOperations()
        var tombstones: [OperationID] = []
        for _ in 0..<(try count()) { tombstones.append(try operationID()) }
        let marks = try marks()
        var names: [MemberNames.Part] = []
        for _ in 0..<(try count()) {
            let member = try peer()
            let lamport = try uint64()
            let id = try operationID()
            let key = OrderKey(lamport: lamport, origin: id.origin, seq: id.seq)
            names.append(MemberNames.Part(member: member, key: key, name: try string()))
        }
        return ReplicaParts(
            id: id,
            name: name,
            listID: listID,
            lamport: lamport,
            vector: vector,
            creator: creator,
            kept: kept,
            tombstones: tombstones,
            marks: marks,
            names: names,
            log: try log()
        )
    }

    private mutating func keptOperations() throws(SnapshotMalformed) -> [Operation] {
        var reader = OperationJSONReader(skippingProofs: true)
        var kept: [Operation] = []
        for _ in 0..<(try count()) {
            let bytes = try block()
            do {
                kept.append(try reader.decode(bytes))
            } catch {
                throw SnapshotMalformed(description: "an operation that does not read: \(error)")
            }
        }
        return kept
    }

    private mutating func marks() throws(SnapshotMalformed) -> GroupMarks.Parts {
        var peers: [PeerID] = []
        for _ in 0..<(try count()) { peers.append(try peer()) }
        var movies: [(movie: MovieID, entries: [GroupMarks.Entry])] = []
        for _ in 0..<(try count()) {
            let movie = try movieID()
            var entries: [GroupMarks.Entry] = []
            for _ in 0..<(try count()) {
                let (lamport, seq, member, origin) = (try uint64(), try uint64(), try uint32(), try uint32())
                let kinds = Mark.Kind.allCases
                let kind = Int(try uint8())
                guard kind < kinds.count else { throw SnapshotMalformed(description: "no such kind of mark") }
                let set = try uint8() == 1
                let on = try optionalString()
                let rating = try int64()
                let mark = Mark.make(kind: kinds[kind], set: set, on: on, rating: rating < 0 ? nil : Int(rating))
                entries.append(GroupMarks.Entry(lamport: lamport, seq: seq, mark: mark, member: member, origin: origin))
            }
            movies.append((movie, entries))
        }
        return GroupMarks.Parts(peers: peers, movies: movies)
    }

    private mutating func log() throws(SnapshotMalformed) -> ReplicaLog.Parts {
        var origins: [ReplicaLog.Parts.Origin] = []
        for _ in 0..<(try count()) {
            let peer = try peer()
            let lastBy = try string()
            let count = try count()
            var entries: [ReplicaLog.Entry] = []
            entries.reserveCapacity(min(count, bytes.count / 16))
            for _ in 0..<count { entries.append(ReplicaLog.Entry(raw: try uint64())) }
            var offsets: [UInt64] = []
            offsets.reserveCapacity(entries.count)
            for _ in 0..<count { offsets.append(try uint64()) }
            origins.append(ReplicaLog.Parts.Origin(peer: peer, entries: entries, lastBy: lastBy, offsets: offsets))
        }
        var retired: [OperationGist] = []
        let count = try count()
        retired.reserveCapacity(min(count, bytes.count / 26))
        for _ in 0..<count { retired.append(try gist()) }
        return ReplicaLog.Parts(origins: origins, retired: retired)
    }

    private mutating func gist() throws(SnapshotMalformed) -> OperationGist {
        let (lamport, at, movie) = (try uint64(), try int64(), try movieID())
        let kind = Int(try uint8())
        guard kind < OperationGist.kinds.count else { throw SnapshotMalformed(description: "no such kind") }
        let flags = try uint8()
        return OperationGist(
            lamport: lamport,
            at: at,
            movie: movie,
            kind: OperationGist.kinds[kind],
            isAboutGroup: flags & 1 != 0,
            isTitled: flags & 2 != 0
        )
    }

    private mutating func movieID() throws(SnapshotMalformed) -> MovieID {
        guard let movie = MovieID(Int(truncatingIfNeeded: try uint64())) else {
            throw SnapshotMalformed(description: "not a movie id")
        }
        return movie
    }
}
