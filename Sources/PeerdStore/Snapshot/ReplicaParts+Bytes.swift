import PeerdCodec
import PeerdModel

/// ``ReplicaParts`` in a snapshot's bytes, section by section in the order the fields are declared.
extension SnapshotWriter {
    mutating func put(_ parts: ReplicaParts) {
        put(parts.id.rawValue)
        put(parts.name)
        put(parts.listID?.rawValue)
        put(parts.lamport)
        put(parts.creator?.rawValue)
        put(count: parts.vector.count)
        for (origin, seq) in parts.vector {
            put(origin.rawValue)
            put(seq)
        }
        put(count: parts.kept.count)
        // Operations in their canonical JSON, as the log holds them. Their proofs stay there, but
        // one of a later version is written whole from its verbatim form, signature and all: that
        // form is what it is relayed in.
        for op in parts.kept { putBlock { OperationJSON.append(op, to: &$0) } }
        put(count: parts.tombstones.count)
        for id in parts.tombstones { put(id) }
        put(parts.marks)
        put(count: parts.names.count)
        for part in parts.names {
            put(part.member.rawValue)
            put(part.key.lamport)
            put(OperationID(origin: part.key.origin, seq: part.key.seq))
            put(part.name)
        }
        put(parts.log)
    }

    private mutating func put(_ marks: GroupMarks.Parts) {
        put(count: marks.peers.count)
        for peer in marks.peers { put(peer.rawValue) }
        put(count: marks.movies.count)
        for (movie, entries) in marks.movies {
            put(UInt64(movie.rawValue))
            put(count: entries.count)
            for entry in entries {
                put(entry.lamport)
                put(entry.seq)
                put(entry.member)
                put(entry.origin)
                put(UInt8(Mark.Kind.allCases.firstIndex(of: entry.mark.kind)!))
                put(UInt8(entry.mark.set ? 1 : 0))
                put(entry.mark.on)
                put(Int64(entry.mark.rating ?? -1))
            }
        }
    }

    private mutating func put(_ log: ReplicaLog.Parts) {
        put(count: log.origins.count)
        for origin in log.origins {
            put(origin.peer.rawValue)
            put(origin.lastBy)
            put(count: origin.entries.count)
            for entry in origin.entries { put(entry.raw) }
            for offset in origin.offsets { put(offset) }
        }
        put(count: log.retired.count)
        for gist in log.retired {
            put(gist.lamport)
            put(gist.at)
            put(UInt64(gist.movie.rawValue))
            put(UInt8(OperationGist.kinds.firstIndex(of: gist.kind)!))
            put(UInt8((gist.isAboutGroup ? 1 : 0) | (gist.isTitled ? 2 : 0)))
        }
    }
}
