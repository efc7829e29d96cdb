import PeerdCatalog
import PeerdModel
import PeerdWire

/// `add` (proto/CONTROL.md): on a token holder, TMDB is asked first, briefly, so a movie it doesn't
/// have is refused before anything is written and a new row carries TMDB's title at once.
extension ControlResponder {
    func add(_ asked: Movie) async -> ControlResponse {
        var movie = asked
        if let catalog, await replica.row(for: movie.id) == nil, await replica.description(of: movie.id) == nil {
            switch await catalog.checkBeforeAdd(movie.id) {
            case .missing: return .error(WireError(.badRequest, Self.noSuchMovie(movie.id)))
            case .found(let details): movie = movie.titled(by: details)
            case .unknown: break
            }
        }
        do {
            let submitted = try await replica.submit(.add(movie), at: Wallclock.millis())
            let settings = await replica.settings
            switch submitted {
            case .added(let op, let row): return .added(movie: MovieRecord(row, settings: settings), operation: op.id)
            case .alreadyListed(let row): return .added(movie: MovieRecord(row, settings: settings), operation: nil)
            case .removed(let op), .described(let op), .settingsSet(let op), .marked(let op), .picked(let op):
                return .error(WireError(.internal, "an add made operation \(op.id) of another kind"))
            case .alreadyMarked: return .error(WireError(.internal, "an add made a mark"))
            }
        } catch {
            return .error(Self.wireError(error))
        }
    }

    static func noSuchMovie(_ movie: MovieID) -> String {
        "TMDB has no movie \(movie), so nothing was added; check the id (peerctl search TITLE finds a movie's id)"
    }
}
