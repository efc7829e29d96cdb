import PeerdModel

/// A mark operation's `mark` and a watch's `watch`, read key by key like `movie`: a cold start
/// reads hundreds of thousands of marks, and scanning them as any JSON and decoding that through
/// `Codable` (as `details` are) would cost several times the rest of the operation.
extension OperationJSONParser {
    /// `{"kind":…,"on":…,"rating":…,"set":…}`; a value a mark never holds gives up, as does an
    /// unknown key (a later version's field: the general path keeps it verbatim).
    mutating func mark() -> Mark? {
        var kind: Mark.Kind?
        var isSet: Bool?
        var on: String?
        var rating: Int64?
        let complete = object { parser, key in
            switch key {
            case .kind: return set(&kind, parser.markKind())
            case .set: return set(&isSet, parser.boolean())
            case .on: return set(&on, parser.string())
            case .rating: return set(&rating, parser.signed())
            default: return false
            }
        }
        guard complete, let kind, let isSet else { return nil }
        guard let rating else { return Mark.make(kind: kind, set: isSet, on: on, rating: nil) }
        return Int(exactly: rating).map { Mark.make(kind: kind, set: isSet, on: on, rating: $0) }
    }

    /// `{"on":…,"with":[peer ids]}`. Taken only when already in its one form (sorted, each member
    /// once), so that writing it again gives the same bytes.
    mutating func watch() -> Watch? {
        var with: [PeerID]?
        var on: String?
        let complete = object { parser, key in
            switch key {
            case .with: return set(&with, parser.peerIDs())
            case .on: return set(&on, parser.string())
            default: return false
            }
        }
        guard complete, let with else { return nil }
        let watch = Watch(with: with, on: on)
        return watch.with == with ? watch : nil
    }

    private mutating func markKind() -> Mark.Kind? {
        guard let raw = plainString() else { return nil }
        index = raw.endIndex + 1
        switch Key(bytes[raw]) {
        case .want: return .want
        case .seen: return .seen
        case .rating: return .rating
        case .veto: return .veto
        default: return nil
        }
    }

    private mutating func peerIDs() -> [PeerID]? {
        guard take(UInt8(ascii: "[")) else { return nil }
        var ids: [PeerID] = []
        if take(UInt8(ascii: "]")) { return ids }
        repeat {
            skipWhitespace()
            guard ids.count < limits.maxArrayElements, let id = peerID() else { return nil }
            ids.append(id)
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "]")) ? ids : nil
    }
}
