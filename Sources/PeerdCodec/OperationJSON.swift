package import PeerdModel

/// The JSON of an ``Operation``, written by hand: what the wire's `ops` frames and the operation log's
/// records hold. `Operation`'s `Codable` conformance stays the reference; this writer produces exactly
/// the bytes `JSONEncoder` with `[.sortedKeys, .withoutEscapingSlashes]` produces for it (the tests
/// compare the two on generated operations), and ``OperationJSONReader`` reads them back.
///
/// Why by hand: `JSONEncoder` costs about 61,000 instructions (7 µs) per operation, boxing every
/// value and then sorting keys; catching up 100,000 operations encoded each one twice (the sender's
/// frame, the receiver's log record): a quarter of the receiver's CPU time and nearly all of the
/// sender's (perf). This writer appends straight into a byte array: about 3,700 instructions
/// (0.3–0.5 µs) per operation (callgrind and wall clock on the benchmark machine).
///
/// The canonical form: keys sorted (`at, by, details, key, lamport, list, mark, member, movie, news, op, origin, pick,
/// prev, reach, relays, removes, seq, settings, sig, watch`; `kind, on, rating, set`; `on, with`; `id, title, year`; `origin, seq`; `details` as ``MovieDetails`` and `settings` as
/// ``GroupSettings`` write themselves, sorted likewise), no whitespace, `title` and `year` omitted when nil,
/// `removes` written for a removal and wherever it is not empty (an add with one is invalid, and
/// must reach `Replica` as it came to be refused), `key`, `prev` and `sig` only when present (as strict
/// padded base64, ``Base64``), integers in plain decimal, strings as UTF-8 with `"` `\` and the
/// control characters escaped (`\b \f \n \r \t`, the others as `\u00xx`) and nothing else — `/`
/// included (``CanonicalJSON``). It is what operations are hashed and signed in (proto/PEER.md,
/// "Signed operations"). An operation holding what this version does not know carries its canonical
/// form with it (``Operation/verbatim``), and that is what is written.
package enum OperationJSON {
    /// The JSON of `operation` in canonical form.
    package static func encode(_ operation: Operation) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(192)
        append(operation, to: &bytes)
        return bytes
    }

    /// Appends the JSON of `operation` in canonical form to `buffer`; without its `sig` when
    /// `includingSig` is false (what the signature is made over).
    package static func append(_ operation: Operation, to buffer: inout [UInt8], includingSig: Bool = true) {
        if let verbatim = operation.verbatim {
            verbatim.append(to: &buffer, includingSig: includingSig)
            return
        }
        CanonicalJSON.append(#"{"at":"#, to: &buffer)
        CanonicalJSON.appendInteger(operation.at, to: &buffer)
        CanonicalJSON.append(#","by":"#, to: &buffer)
        CanonicalJSON.appendString(operation.by, to: &buffer)
        if let details = operation.details { appendDetails(details, to: &buffer) }
        if let key = operation.proof.key { appendBase64(#","key":""#, key, to: &buffer) }
        CanonicalJSON.append(#","lamport":"#, to: &buffer)
        CanonicalJSON.appendInteger(operation.lamport, to: &buffer)
        if let definition = operation.listDefinition {
            CanonicalJSON.append(#","list":"#, to: &buffer)
            definition.json.appendCanonical(to: &buffer)
        }
        if let mark = operation.mark { appendMark(mark, to: &buffer) }
        if let member = operation.member {
            CanonicalJSON.append(#","member":"#, to: &buffer)
            member.json.appendCanonical(to: &buffer)
        }
        appendMovie(operation.movie, to: &buffer)
        if let news = operation.news {
            CanonicalJSON.append(#","news":"#, to: &buffer)
            news.json.appendCanonical(to: &buffer)
        }
        precondition(operation.kind != .unknown, "an operation of an unknown kind is written from its verbatim form")
        switch operation.kind {
        case .add: CanonicalJSON.append(#","op":"add""#, to: &buffer)
        case .remove: CanonicalJSON.append(#","op":"remove""#, to: &buffer)
        case .settings: CanonicalJSON.append(#","op":"settings""#, to: &buffer)
        case .mark: CanonicalJSON.append(#","op":"mark""#, to: &buffer)
        case .watch: CanonicalJSON.append(#","op":"watch""#, to: &buffer)
        case .pick: CanonicalJSON.append(#","op":"pick""#, to: &buffer)
        case .member: CanonicalJSON.append(#","op":"member""#, to: &buffer)
        case .list: CanonicalJSON.append(#","op":"list""#, to: &buffer)
        case .news: CanonicalJSON.append(#","op":"news""#, to: &buffer)
        case .relays: CanonicalJSON.append(#","op":"relays""#, to: &buffer)
        case .reach: CanonicalJSON.append(#","op":"reach""#, to: &buffer)
        case .describe, .unknown: CanonicalJSON.append(#","op":"describe""#, to: &buffer)
        }
        CanonicalJSON.append(#","origin":"#, to: &buffer)
        CanonicalJSON.appendString(operation.id.origin.rawValue, to: &buffer)
        if let pick = operation.pick {
            CanonicalJSON.append(#","pick":"#, to: &buffer)
            pick.json.appendCanonical(to: &buffer)
        }
        if let prev = operation.proof.prev { appendBase64(#","prev":""#, prev, to: &buffer) }
        if let reach = operation.reach {
            CanonicalJSON.append(#","reach":"#, to: &buffer)
            reach.json.appendCanonical(to: &buffer)
        }
        if let relays = operation.relays {
            CanonicalJSON.append(#","relays":"#, to: &buffer)
            relays.json.appendCanonical(to: &buffer)
        }
        if operation.kind == .remove || !operation.removes.isEmpty { appendRemoves(operation.removes, to: &buffer) }
        CanonicalJSON.append(#","seq":"#, to: &buffer)
        CanonicalJSON.appendInteger(operation.id.seq, to: &buffer)
        if let settings = operation.settings {
            CanonicalJSON.append(#","settings":"#, to: &buffer)
            settings.json.appendCanonical(to: &buffer)
        }
        if includingSig, let sig = operation.proof.sig { appendBase64(#","sig":""#, sig, to: &buffer) }
        if let watch = operation.watch { appendWatch(watch, to: &buffer) }
        buffer.append(UInt8(ascii: "}"))
    }

    /// `,"mark":{"kind":…,"on":…,"rating":…,"set":…}`, `on` and `rating` only when present.
    private static func appendMark(_ mark: Mark, to buffer: inout [UInt8]) {
        CanonicalJSON.append(#","mark":{"kind":"#, to: &buffer)
        CanonicalJSON.appendString(mark.kind.rawValue, to: &buffer)
        if let on = mark.on {
            CanonicalJSON.append(#","on":"#, to: &buffer)
            CanonicalJSON.appendString(on, to: &buffer)
        }
        if let rating = mark.rating {
            CanonicalJSON.append(#","rating":"#, to: &buffer)
            CanonicalJSON.appendInteger(rating, to: &buffer)
        }
        CanonicalJSON.append(mark.set ? #","set":true}"# : #","set":false}"#, to: &buffer)
    }

    /// `,"watch":{"on":…,"with":[…]}`, `on` only when present.
    private static func appendWatch(_ watch: Watch, to buffer: inout [UInt8]) {
        CanonicalJSON.append(#","watch":{"#, to: &buffer)
        if let on = watch.on {
            CanonicalJSON.append(#""on":"#, to: &buffer)
            CanonicalJSON.appendString(on, to: &buffer)
            buffer.append(UInt8(ascii: ","))
        }
        CanonicalJSON.append(#""with":["#, to: &buffer)
        for (index, member) in watch.with.enumerated() {
            if index > 0 { buffer.append(UInt8(ascii: ",")) }
            CanonicalJSON.appendString(member.rawValue, to: &buffer)
        }
        CanonicalJSON.append("]}", to: &buffer)
    }

    private static func appendMovie(_ movie: Movie, to buffer: inout [UInt8]) {
        CanonicalJSON.append(#","movie":{"id":"#, to: &buffer)
        CanonicalJSON.appendInteger(movie.id.rawValue, to: &buffer)
        if let title = movie.title {
            CanonicalJSON.append(#","title":"#, to: &buffer)
            CanonicalJSON.appendString(title, to: &buffer)
        }
        if let year = movie.year {
            CanonicalJSON.append(#","year":"#, to: &buffer)
            CanonicalJSON.appendInteger(year, to: &buffer)
        }
        buffer.append(UInt8(ascii: "}"))
    }

    /// `,"details":{…}`: the details' canonical JSON, from their one `Codable` form (``MovieDetails``).
    private static func appendDetails(_ details: MovieDetails, to buffer: inout [UInt8]) {
        CanonicalJSON.append(#","details":"#, to: &buffer)
        details.json.appendCanonical(to: &buffer)
    }

    private static func appendRemoves(_ removes: [OperationID], to buffer: inout [UInt8]) {
        CanonicalJSON.append(#","removes":["#, to: &buffer)
        for (index, id) in removes.enumerated() {
            CanonicalJSON.append(index == 0 ? #"{"origin":"# : #",{"origin":"#, to: &buffer)
            CanonicalJSON.appendString(id.origin.rawValue, to: &buffer)
            CanonicalJSON.append(#","seq":"#, to: &buffer)
            CanonicalJSON.appendInteger(id.seq, to: &buffer)
            buffer.append(UInt8(ascii: "}"))
        }
        buffer.append(UInt8(ascii: "]"))
    }

    /// `key` (which opens the quoted value) then `bytes` in base64 and the closing quote.
    private static func appendBase64(_ key: StaticString, _ bytes: ArraySlice<UInt8>, to buffer: inout [UInt8]) {
        CanonicalJSON.append(key, to: &buffer)
        Base64.append(bytes, to: &buffer)
        buffer.append(UInt8(ascii: "\""))
    }
}
