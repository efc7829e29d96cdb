import PeerdModel

/// Operations as a few replicas would make them, in the order they were made.
///
/// Each origin numbers its operations 1, 2, 3… and stamps them with its Lamport clock. Adds draw
/// from a small pool of movies, so several origins add the same movie; a removal names the adds
/// of one movie its origin has seen and not seen removed. Origins learn each other's operations by
/// gossip at random moments, so many operations are concurrent and a removal often misses an add.
struct History: Sendable, CustomStringConvertible {
    static let moviePool = [11, 13, 550, 603, 680]

    var operations: [Operation]

    var description: String {
        operations.map { op in
            switch op.kind {
            case .add:
                "\(op.id) L\(op.lamport) add \(op.movie.id) \(op.movie.title ?? "-") \(op.movie.year.map(String.init) ?? "-")"
            case .remove:
                "\(op.id) L\(op.lamport) remove \(op.movie.id) \(op.removes)"
            case .describe:
                "\(op.id) L\(op.lamport) describe \(op.movie.id) \(op.details?.title ?? "-")"
            case .settings:
                "\(op.id) L\(op.lamport) settings \(op.settings.map(String.init(describing:)) ?? "-")"
            case .mark:
                "\(op.id) L\(op.lamport) mark \(op.movie.id) \(op.mark.map(String.init(describing:)) ?? "-")"
            case .watch:
                "\(op.id) L\(op.lamport) watch \(op.movie.id) \(op.watch.map(String.init(describing:)) ?? "-")"
            case .pick:
                "\(op.id) L\(op.lamport) pick \(op.movie.id) \(op.pick.map(String.init(describing:)) ?? "-")"
            case .member:
                "\(op.id) L\(op.lamport) member \(op.member.map(String.init(describing:)) ?? "-")"
            case .list:
                "\(op.id) L\(op.lamport) list \(op.listDefinition.map(String.init(describing:)) ?? "-")"
            case .news:
                "\(op.id) L\(op.lamport) news \(op.movie.id) \(op.news?.changes.map(\.change.rawValue) ?? [])"
            case .relays:
                "\(op.id) L\(op.lamport) relays \(op.relays.map(String.init(describing:)) ?? "-")"
            case .reach:
                "\(op.id) L\(op.lamport) reach \(op.reach.map(String.init(describing:)) ?? "-")"
            case .unknown:
                "\(op.id) L\(op.lamport) unknown kind"
            }
        }.joined(separator: "\n")
    }

    /// Simulates `origins` replicas taking `steps` turns; a turn is a gossip, an add, a removal, or
    /// one of a describe (new details of a movie, which may be listed or not), new group settings,
    /// a mark or a watch.
    static func simulate(origins: Int, steps: Int, using rng: inout some RandomNumberGenerator) -> History {
        let peers = Array(Peers.all.prefix(origins))
        var made: [Operation] = []
        var seen = [Set<Int>](repeating: [], count: peers.count)
        var clock = [UInt64](repeating: 0, count: peers.count)
        var seq = [UInt64](repeating: 0, count: peers.count)
        var now = epoch

        for _ in 0..<steps {
            let p = Int.random(in: 0..<peers.count, using: &rng)
            let roll = Int.random(in: 0..<10, using: &rng)
            if roll < 3 {
                let q = Int.random(in: 0..<peers.count, using: &rng)
                seen[p].formUnion(seen[q])
                clock[p] = max(clock[p], clock[q])
                continue
            }
            let visible = visibleAdds(in: seen[p].sorted().map { made[$0] })
            let removing = (7...8).contains(roll) && !visible.isEmpty
            let describing = roll == 9
            seq[p] += 1
            clock[p] += 1
            now += Int64.random(in: 0...5_000, using: &rng)
            let operation: Operation
            if describing {
                let id = OperationID(origin: peers[p], seq: seq[p])
                operation = describeOrSettings(id, lamport: clock[p], at: now, using: &rng)
            } else if removing {
                let movie = visible.keys.randomElement(using: &rng)!
                operation = Operation(
                    id: OperationID(origin: peers[p], seq: seq[p]),
                    lamport: clock[p],
                    at: now,
                    by: Peers.name(of: peers[p]),
                    kind: .remove,
                    movie: Movie(id: movie),
                    removes: visible[movie]!.sorted()
                )
            } else {
                let movie = movieID(moviePool.randomElement(using: &rng)!)
                let variant = Int.random(in: 0..<6, using: &rng)
                operation = Operation(
                    id: OperationID(origin: peers[p], seq: seq[p]),
                    lamport: clock[p],
                    at: now,
                    // An origin's name can change between its operations; rows must still agree.
                    by: Peers.name(of: peers[p]) + (variant == 0 ? "-laptop" : ""),
                    kind: .add,
                    movie: Movie(
                        id: movie,
                        title: variant < 2 ? nil : "Movie \(movie) take \(variant)",
                        year: variant % 3 == 0 ? nil : 1990 + variant
                    )
                )
            }
            seen[p].insert(made.count)
            made.append(operation)
        }
        return History(operations: made)
    }

    /// A describe (new details of a movie, which may be listed or not), new group settings, a mark
    /// or a watch, a step of a pick, news of where a movie streams, the group's relays or how to
    /// reach the origin, each an eighth of the time.
    static func describeOrSettings(
        _ id: OperationID,
        lamport: UInt64,
        at now: Int64,
        using rng: inout some RandomNumberGenerator
    ) -> Operation {
        let by = Peers.name(of: id.origin)
        let movie = movieID(moviePool.randomElement(using: &rng)!)
        switch Int.random(in: 0..<8, using: &rng) {
        case 6, 7:
            return Operation(
                id: id,
                lamport: lamport,
                at: now,
                by: by,
                kind: lamport % 2 == 0 ? .relays : .reach,
                movie: Operation.groupMovie,
                payload: relaysOrReach(lamport: lamport, using: &rng)
            )
        case 5:
            // Two reports often say the same (holders that checked apart): the fold counts them once.
            let stream = Bool.random(using: &rng) ? [WatchProviders.Provider(id: 8, name: "Netflix")] : []
            let news = ProviderNews(
                read: now,
                providers: WatchProviders(region: "DE", stream: stream),
                changes: [ProviderChange(stream.isEmpty ? .left : .arrived, .init(id: 8, name: "Netflix"))]
            )
            return Operation(
                id: id,
                lamport: lamport,
                at: now,
                by: by,
                kind: .news,
                movie: Movie(id: movie),
                payload: .news(news)
            )
        case 4:
            let (movie, step) = pickStep(using: &rng)
            return Operation(id: id, lamport: lamport, at: now, by: by, kind: .pick, movie: movie, payload: .pick(step))
        case 0:
            let payload = markOrWatch(by: id.origin, lamport: lamport, using: &rng)
            let kind: Operation.Kind = payload.mark != nil ? .mark : .watch
            return Operation(
                id: id,
                lamport: lamport,
                at: now,
                by: by,
                kind: kind,
                movie: Movie(id: movie),
                payload: payload.payload
            )
        case 1:
            let details = MovieDetails(
                .init(title: "Movie \(movie) by \(by) at \(lamport)", language: "en-US", fetchedAt: now)
            )
            return Operation(
                id: id,
                lamport: lamport,
                at: now,
                by: by,
                kind: .describe,
                movie: Movie(id: movie),
                details: details
            )
        default: break
        }
        let settings = GroupSettings(
            region: ["US", "DE", "FR"].randomElement(using: &rng)!,
            services: [GroupSettings.Service(id: Int(id.seq % 3), name: "Service of \(by) at \(lamport)")]
        )
        return Operation(
            id: id,
            lamport: lamport,
            at: now,
            by: by,
            kind: .settings,
            movie: Operation.groupMovie,
            settings: settings
        )
    }

    /// Some relays of a few (none, at times), or some addresses and a device id: which by the parity of
    /// `lamport`, so concurrent ones of both kinds come up.
    static func relaysOrReach(lamport: UInt64, using rng: inout some RandomNumberGenerator) -> Operation.Payload {
        let some = (0..<Int.random(in: 0...3, using: &rng)).map { _ in Int.random(in: 1...4, using: &rng) }
        guard lamport % 2 == 1 else {
            return .relays(GroupRelays(urls: some.map { "relay://198.51.100.\($0):22067/?id=RELAY\($0)" }))
        }
        let addresses = Set(some).sorted().map { PeerAddress(host: "192.168.1.\($0)", port: 7601) }
        return .reach(PeerReach(addresses: addresses, device: Bool.random(using: &rng) ? "DEVICE-\(lamport)" : ""))
    }

    /// A mark of `member`'s (any kind, set or cleared) or, a third of the time, a watch naming some
    /// of the peers.
    static func markOrWatch(
        by member: PeerID,
        lamport: UInt64,
        using rng: inout some RandomNumberGenerator
    ) -> (payload: Operation.Payload, mark: Mark?) {
        if Int.random(in: 0..<3, using: &rng) == 0 {
            let present = Peers.all.prefix(4).filter { _ in Bool.random(using: &rng) }
            let on = Bool.random(using: &rng) ? "2026-11-\(10 + lamport % 19)" : nil
            return (.watch(Watch(with: present.isEmpty ? [member] : Array(present), on: on)), nil)
        }
        let kind = Mark.Kind.allCases.randomElement(using: &rng)!
        let set = Int.random(in: 0..<4, using: &rng) > 0
        let mark = Mark(
            kind: kind,
            set: set,
            on: kind == .seen && set && Bool.random(using: &rng) ? "2026-10-\(10 + lamport % 19)" : nil,
            rating: kind == .rating && set ? Int.random(in: 1...10, using: &rng) : nil
        )
        return (.mark(mark), mark)
    }

    /// A step of a pick: an opening, or a vote, ranking or close naming one of the first few
    /// operations of some origin (an opening or not: a step may name a pick that never comes).
    static func pickStep(using rng: inout some RandomNumberGenerator) -> (Movie, Pick) {
        let named = OperationID(
            origin: Peers.all.randomElement(using: &rng)!,
            seq: UInt64.random(in: 1...4, using: &rng)
        )
        let deck = moviePool.map { Movie(id: movieID($0)) }
        switch Int.random(in: 0..<5, using: &rng) {
        case 0:
            let mode = Pick.Mode.allCases.randomElement(using: &rng)!
            return (
                Operation.groupMovie,
                Pick.open(mode: mode, deck: deck, voters: Array(Peers.all.prefix(2)), source: "list")
            )
        case 1: return (Operation.groupMovie, Pick(action: .close, pick: named))
        case 2:
            return (
                Operation.groupMovie, Pick(action: .rank, pick: named, ranking: deck.map(\.id).shuffled(using: &rng))
            )
        default:
            return (deck.randomElement(using: &rng)!, Pick(action: .vote, pick: named, yes: Bool.random(using: &rng)))
        }
    }

    /// Per movie, the adds among `operations` that no removal among them names.
    static func visibleAdds(in operations: [Operation]) -> [MovieID: Set<OperationID>] {
        let removed = Set(operations.flatMap(\.removes))
        var visible: [MovieID: Set<OperationID>] = [:]
        for op in operations where op.kind == .add && !removed.contains(op.id) {
            visible[op.movie.id, default: []].insert(op.id)
        }
        return visible
    }
}
