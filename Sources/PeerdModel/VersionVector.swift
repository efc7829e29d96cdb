/// For each origin, the highest sequence number held with no gap below it.
///
/// Because every replica keeps a gap-free prefix of each origin's operations, this map describes
/// exactly which operations a replica holds; comparing two vectors tells what one lacks.
package struct VersionVector: Hashable, Sendable, Codable, CustomStringConvertible {
    package private(set) var entries: [PeerID: UInt64]

    package init(_ entries: [PeerID: UInt64] = [:]) {
        self.entries = entries.filter { $0.value > 0 }
    }

    package subscript(origin: PeerID) -> UInt64 {
        get { entries[origin] ?? 0 }
        set { entries[origin] = newValue == 0 ? nil : newValue }
    }

    package func contains(_ id: OperationID) -> Bool { id.seq <= self[id.origin] }

    /// Total number of operations described.
    package var operationCount: UInt64 { entries.values.reduce(0, +) }

    /// Per origin, the range of sequence numbers `self` has and `other` lacks.
    package func missing(from other: VersionVector) -> [(origin: PeerID, seqs: ClosedRange<UInt64>)] {
        entries.keys.sorted().compactMap { origin in
            let have = self[origin]
            let theirs = other[origin]
            return have > theirs ? (origin, (theirs + 1)...have) : nil
        }
    }

    /// The pointwise maximum.
    package func merged(with other: VersionVector) -> VersionVector {
        VersionVector(entries.merging(other.entries, uniquingKeysWith: max))
    }

    package var description: String {
        "[" + entries.sorted { $0.key < $1.key }.map { "\($0.key.short):\($0.value)" }.joined(separator: " ") + "]"
    }

    package init(from decoder: any Decoder) throws {
        let raw = try decoder.singleValueContainer().decode([String: UInt64].self)
        var entries: [PeerID: UInt64] = [:]
        for (key, value) in raw {
            guard let id = PeerID(key) else {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: decoder.codingPath,
                        debugDescription: "version vector key '\(key)' is not a peer id"
                    )
                )
            }
            entries[id] = value
        }
        self.init(entries)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Dictionary(uniqueKeysWithValues: entries.map { ($0.key.rawValue, $0.value) }))
    }
}
