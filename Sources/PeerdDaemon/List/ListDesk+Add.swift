import PeerdCatalog
import PeerdModel
import PeerdWire

/// `add` and `remove` (proto/CONTROL.md): on a token holder, TMDB is asked first, briefly, so a
/// movie it doesn't have is refused before anything is written and a new row carries TMDB's title
/// at once.
extension ListDesk {
    func add(_ asked: Movie, allowUnrated: Bool = false) async -> ControlResponse {
        var movie = asked
        let snapshot = await replica.snapshot
        if let catalog, snapshot.isUnknown(movie.id) {
            switch await catalog.checkBeforeAdd(movie.id) {
            case .missing: return .error(WireError(.badRequest, Self.noSuchMovie(movie.id)))
            case .found(let details): movie = movie.titled(by: details)
            case .unknown: break
            }
        }
        if let refusal = await ceilingRefusal(of: movie, in: snapshot, allowUnrated: allowUnrated) {
            return .error(WireError(.badRequest, refusal))
        }
        do {
            let written = try await replica.write([.add(movie)], at: Wallclock.millis())
            let settings = written.after.list.settings
            switch written.made[0] {
            case .added(let op, let row): return .added(movie: MovieRecord(row, settings: settings), operation: op.id)
            case .alreadyListed(let row): return .added(movie: MovieRecord(row, settings: settings), operation: nil)
            case .removed(let op), .described(let op), .settingsSet(let op), .marked(let op), .picked(let op),
                .membersChanged(let op), .listDefined(let op), .reported(let op):
                return .error(WireError(.internal, "an add made operation \(op.id) of another kind"))
            case .alreadyMarked: return .error(WireError(.internal, "an add made a mark"))
            }
        } catch {
            return .error(ReplicaService.wireError(error))
        }
    }

    /// Why `movie` may not join the list `snapshot` is, by its ceiling, or nil (proto/PEER.md,
    /// "Ceilings"): one certified above it is refused, and one whose certification is not known unless
    /// `allowUnrated` comes from a member who is not a profile.
    func ceilingRefusal(of movie: Movie, in snapshot: Replica, allowUnrated: Bool) async -> String? {
        await ceilingCheck(of: movie, in: snapshot, allowUnrated: allowUnrated)?.refusal
    }

    /// ``ceilingRefusal(of:in:allowUnrated:)``, and whether asking again later may answer otherwise
    /// (TMDB could not be asked now).
    func ceilingCheck(of movie: Movie, in snapshot: Replica, allowUnrated: Bool) async
        -> (refusal: String, passing: Bool)?
    {
        guard let definition = snapshot.listDefinition, let ceiling = definition.maxCertification else { return nil }
        guard let ceilings else { return ("\(definition.name) has a ceiling, and this peerd can't check one", false) }
        let check = await ceilings.checkCeiling(movie.id, ceiling: ceiling)
        let title = snapshot.list.row(for: movie.id)?.movie.title ?? movie.title ?? "movie \(movie.id.rawValue)"
        guard let refusal = check.refusal(title: title, list: definition.name) else { return nil }
        let isProfile = ActingMember.current.map { $0.id != roster.machine } ?? false
        if check.isUnrated && allowUnrated && !isProfile { return nil }
        if case .unknown = check.verdict { return (refusal, true) }
        return (refusal, false)
    }

    func remove(_ movieID: MovieID) async -> ControlResponse {
        do {
            let submitted = try await replica.submit(.remove(movieID), at: Wallclock.millis())
            guard case .removed(let op) = submitted else {
                return .error(WireError(.internal, "a removal made \(submitted)"))
            }
            return .removed(movie: op.movie, operation: op.id)
        } catch {
            return .error(ReplicaService.wireError(error))
        }
    }

    static func noSuchMovie(_ movie: MovieID) -> String {
        "TMDB has no movie \(movie), so nothing was added; check the id (peerctl search TITLE finds a movie's id)"
    }
}

extension Replica {
    /// Whether this replica knows nothing of `movie`: not listed, never described.
    func isUnknown(_ movie: MovieID) -> Bool { list.row(for: movie) == nil && list.description(of: movie) == nil }
}
