import PeerdModel

/// The fast path of ``OperationJSONReader``: parses the plain JSON of an ``Operation`` in about 6,100
/// instructions where `JSONDecoder` takes 77,000 (callgrind), which is what lets the daemon
/// cold-start with 100,000 operations well within half a second and a fresh peer read a catch-up
/// quickly.
///
/// It accepts only the plain shape `JSONEncoder` writes: one object whose keys are exactly those of
/// `Operation` (and `Movie`, `OperationID`), integers without fraction or exponent, strings with
/// standard escapes and valid UTF-8; a describe's `details` are read through `MovieDetails`' own
/// `Decodable` conformance (`details()`). For anything else — an unknown or repeated key, a `null`, a
/// float — it returns nil and the caller falls back to `JSONDecoder`, so it never accepts what the
/// model's `Decodable` conformance would refuse. Values are checked by the model's own
/// initializers (`PeerID`, `MovieID`, `Operation.Kind`). If `Operation` gains a field, this parser
/// returns nil for records holding it until it learns the field: slower, never wrong. A settings
/// operation's `settings` are read like `details`, through `GroupSettings`' `Decodable` conformance.
///
/// Everything it accepts is valid UTF-8 (strings are validated, everything else must be ASCII
/// punctuation, digits, literals or known keys), nests at most 7 levels deep inside what it parses
/// (``detailsLevels``), and keeps to its `Limits`.
struct OperationJSONParser {
    /// Strings longer than `maxStringBytes` (between the quotes, as written) and arrays of more than
    /// `maxArrayElements` elements are not plain: the parser returns nil for them.
    struct Limits {
        var maxStringBytes = Int.max
        var maxArrayElements = Int.max
        /// Proofs are checked for shape and left out (``OperationJSONReader/skipsProofs``).
        var skipsProofs = false
    }

    let bytes: UnsafeRawBufferPointer
    let limits: Limits
    var index = 0
    var recent: RecentStrings

    private init(_ bytes: UnsafeRawBufferPointer, recent: RecentStrings, limits: Limits) {
        self.bytes = bytes
        self.recent = recent
        self.limits = limits
    }

    /// The operation in `payload`, or nil if the payload is not in the plain shape (see above).
    static func parse(
        _ payload: UnsafeRawBufferPointer,
        recent: inout RecentStrings,
        limits: Limits = Limits()
    ) -> Operation? {
        parseWhole(payload, recent: &recent, limits: limits) { $0.operation() }
    }

    /// The operations of a JSON array of them, or nil if it or any element is not plain.
    static func parseArray(
        _ payload: UnsafeRawBufferPointer,
        recent: inout RecentStrings,
        limits: Limits = Limits()
    ) -> [Operation]? {
        parseWhole(payload, recent: &recent, limits: limits) { $0.operations() }
    }

    private static func parseWhole<Value>(
        _ payload: UnsafeRawBufferPointer,
        recent: inout RecentStrings,
        limits: Limits,
        _ body: (inout OperationJSONParser) -> Value?
    ) -> Value? {
        var parser = OperationJSONParser(payload, recent: recent, limits: limits)
        recent = RecentStrings()  // moved into the parser and back, so its arrays are never copied
        defer { recent = parser.recent }
        guard let value = body(&parser) else { return nil }
        parser.skipWhitespace()
        return parser.index == payload.count ? value : nil
    }

    private mutating func operations() -> [Operation]? {
        guard take(UInt8(ascii: "[")) else { return nil }
        var operations: [Operation] = []
        if take(UInt8(ascii: "]")) { return operations }
        repeat {
            guard operations.count < limits.maxArrayElements, let operation = operation() else { return nil }
            operations.append(operation)
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "]")) ? operations : nil
    }

    private mutating func operation() -> Operation? {
        var origin: PeerID?
        var seq: UInt64?
        var lamport: UInt64?
        var at: Int64?
        var by: String?
        var kind: Operation.Kind?
        var movie: Movie?
        var removes: [OperationID]?
        // One payload an operation: a second one makes `set` give up, and the general path refuses
        // such an operation (it would otherwise drop one).
        var payload: Operation.Payload?
        var sig: [UInt8]?
        var prev: [UInt8]?
        var publicKey: [UInt8]?
        let complete = object { parser, key in
            switch key {
            case .origin: return set(&origin, parser.peerID())
            case .seq: return set(&seq, parser.unsigned())
            case .lamport: return set(&lamport, parser.unsigned())
            case .at: return set(&at, parser.signed())
            case .by: return set(&by, parser.name())
            case .op: return set(&kind, parser.kind())
            case .movie: return set(&movie, parser.movie())
            case .removes: return set(&removes, parser.operationIDs())
            case .details: return set(&payload, parser.details().map(Operation.Payload.details))
            case .settings: return set(&payload, parser.settings().map(Operation.Payload.settings))
            case .mark: return set(&payload, parser.mark().map(Operation.Payload.mark))
            case .watch: return set(&payload, parser.watch().map(Operation.Payload.watch))
            case .sig: return set(&sig, parser.base64(OperationProof.signatureLength...OperationProof.signatureLength))
            case .prev: return set(&prev, parser.base64(OperationProof.digestLength...OperationProof.digestLength))
            case .key: return set(&publicKey, parser.base64(1...OperationProof.maxKeyLength))
            default: return false
            }
        }
        guard complete, let origin, let seq, let lamport, let at, let by, let kind, let movie else { return nil }
        // `removes` is written for a removal and wherever it is not empty (OperationJSON). An empty
        // one outside a removal, or a removal without one, would not be written back as it came:
        // the general path keeps such an operation verbatim, so this one does not take it (the
        // second was a fuzzer's find: a `remove` with no `removes`).
        if kind != .remove, removes?.isEmpty == true { return nil }
        if kind == .remove, removes == nil { return nil }
        return Operation(
            id: OperationID(origin: origin, seq: seq),
            lamport: lamport,
            at: at,
            by: by,
            kind: kind,
            movie: movie,
            removes: removes ?? [],
            payload: payload,
            proof: limits.skipsProofs ? OperationProof() : OperationProof(sig: sig, prev: prev, key: publicKey)
        )
    }

    private mutating func movie() -> Movie? {
        var id: MovieID?
        var title: String?
        var year: Int64?
        let complete = object { parser, key in
            switch key {
            case .id: return set(&id, parser.signed().flatMap { Int(exactly: $0) }.flatMap(MovieID.init))
            case .title: return set(&title, parser.string())
            case .year: return set(&year, parser.signed())
            default: return false
            }
        }
        guard complete, let id else { return nil }
        return Movie(id: id, title: title, year: year.flatMap { Int(exactly: $0) })
    }

    /// A describe's `details`. Their fields are spelled out once, in `MovieDetails.Fields`, so they are
    /// read through its `Decodable` conformance rather than a second list of keys here: the value is
    /// scanned as any JSON (valid UTF-8, integers only, the limits, no repeated key), decoded from
    /// that, and taken only when encoding the details again gives the same value. A key this version
    /// does not know, a `null` or an empty `genres` would be lost on the way, so such an operation goes
    /// to the general path, which keeps it verbatim.
    private mutating func details() -> MovieDetails? {
        guard let value = value(levels: Self.detailsLevels), let details = MovieDetails.decoding(value),
            details.json.isSameValue(as: value)
        else { return nil }
        return details
    }

    /// A settings operation's `settings`, read as ``details()`` are and for the same reasons.
    private mutating func settings() -> GroupSettings? {
        guard let value = value(levels: Self.detailsLevels), let settings = GroupSettings.decoding(value),
            settings.json.isSameValue(as: value)
        else { return nil }
        return settings
    }

    private mutating func operationIDs() -> [OperationID]? {
        guard take(UInt8(ascii: "[")) else { return nil }
        var ids: [OperationID] = []
        if take(UInt8(ascii: "]")) { return ids }
        repeat {
            guard ids.count < limits.maxArrayElements else { return nil }
            var origin: PeerID?
            var seq: UInt64?
            let complete = object { parser, key in
                switch key {
                case .origin: return set(&origin, parser.peerID())
                case .seq: return set(&seq, parser.unsigned())
                default: return false
                }
            }
            guard complete, let origin, let seq else { return nil }
            ids.append(OperationID(origin: origin, seq: seq))
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "]")) ? ids : nil
    }

    /// Parses `{ "key": value, … }`, handing each key to `member`, which parses the value and
    /// returns false to give up. Keys with escapes are refused; a key no `Key` names is passed as nil.
    mutating func object(_ member: (inout OperationJSONParser, Key?) -> Bool) -> Bool {
        guard take(UInt8(ascii: "{")) else { return false }
        if take(UInt8(ascii: "}")) { return true }
        repeat {
            skipWhitespace()
            guard let key = plainString() else { return false }
            index = key.endIndex + 1
            guard take(UInt8(ascii: ":")), member(&self, Key(bytes[key])) else { return false }
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "}"))
    }

    /// A kind this version knows (`"add"`, `"remove"`, …); nil for another, which the general path keeps
    /// verbatim.
    private mutating func kind() -> Operation.Kind? {
        if let raw = plainString() {
            index = raw.endIndex + 1
            switch Key(bytes[raw]) {
            case .add: return .add
            case .remove: return .remove
            case .describe: return .describe
            case .settings: return .settings
            case .mark: return .mark
            case .watch: return .watch
            default: return nil
            }
        }
        return string().map(Operation.Kind.init(name:)).flatMap { $0 == .unknown ? nil : $0 }
    }

    /// A peer id; one equal to a recently read one shares its storage instead of allocating.
    mutating func peerID() -> PeerID? {
        if let raw = plainString(), let peer = recent.origin(equalTo: raw, in: bytes) {
            index = raw.endIndex + 1
            return peer
        }
        guard let peer = string().flatMap(PeerID.init) else { return nil }
        recent.remember(peer)
        return peer
    }

    /// An adder's name; like origins, a recently read one is shared.
    private mutating func name() -> String? {
        if let raw = plainString(), let name = recent.name(equalTo: raw, in: bytes) {
            index = raw.endIndex + 1
            return name
        }
        guard let name = string() else { return nil }
        recent.remember(name)
        return name
    }

    /// The bytes of a strict base64 string (``Base64``) whose length is in `lengths`. Escapes (`\/`,
    /// as `JSONEncoder` writes by default) take the slower way through `string()`.
    private mutating func base64(_ lengths: ClosedRange<Int>) -> [UInt8]? {
        if limits.skipsProofs, let raw = plainString() {
            // Left out: a plain base64 string whose length decodes to one of `lengths`, taken as it
            // is (an empty array marks the field as seen). Anything else is decoded, and refused
            // as it would be.
            index = raw.endIndex + 1
            return Base64.isPlain(UnsafeRawBufferPointer(rebasing: bytes[raw]), decodingTo: lengths) ? [] : nil
        }
        let decoded: [UInt8]?
        if let raw = plainString() {
            index = raw.endIndex + 1
            decoded = Base64.decode(UnsafeRawBufferPointer(rebasing: bytes[raw]))
        } else {
            decoded = string().flatMap(Base64.decode)
        }
        guard let decoded, lengths.contains(decoded.count) else { return nil }
        return decoded
    }
}

/// Stores `value` in a field seen for the first time; false for a repeated key or a bad value.
func set<Value>(_ field: inout Value?, _ value: Value?) -> Bool {
    guard field == nil, let value else { return false }
    field = value
    return true
}
