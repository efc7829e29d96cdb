import PeerdCodec
import PeerdModel
import PeerdWire

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The signed log in words, and what a snapshot says of movies off the list.
extension Replica {
    /// Up to `limit` operations of the signed log before `cursor`, newest first, in words: of
    /// `movie` only when given, and none older than `since` (by their origins' clocks).
    func historyRecords(movie: MovieID?, since: Int64?, before cursor: OrderKey?, limit: Int) -> [HistoryEntryRecord] {
        let operations = history(before: cursor, limit: limit) { gist in
            // What is about the group (settings, a pick's opening and close) carries movie 1: never
            // one movie's history.
            (movie == nil || (gist.movie == movie && !gist.isAboutGroup)) && (since.map { gist.at >= $0 } ?? true)
        }
        let unnamed = operations.lazy.map(\.movie.id).filter { list.row(for: $0)?.title == nil }
        let named = lastNamed(Set(unnamed.filter { list.description(of: $0) == nil }))
        return operations.map { op in
            let aboutGroup = op.isAboutGroup
            let row = list.row(for: op.movie.id)
            let details = list.description(of: op.movie.id)?.details
            let title = row?.title ?? details?.title ?? op.movie.title ?? named[op.movie.id]?.title
            let year = row?.year ?? details?.year ?? op.movie.year ?? named[op.movie.id]?.year
            let kindName = op.kind.name ?? Self.kindName(of: op)
            return HistoryEntryRecord(
                cursor: op.orderKey.cursor,
                at: op.at,
                peer: op.id.origin,
                by: list.names.name(of: op.id.origin),
                op: kindName ?? "?",
                known: op.kind != .unknown,
                movieId: aboutGroup ? nil : op.movie.id.rawValue,
                title: aboutGroup ? nil : title,
                year: aboutGroup ? nil : year,
                text: HistoryLine.text(
                    of: op,
                    name: list.names.name(of:),
                    movie: HistoryLine.title(title, year: year, id: op.movie.id),
                    kindName: kindName,
                    list: listDefinition?.name
                )
            )
        }
    }

    /// A movie not on the list that someone marked: its last title and year, and the marks; nil
    /// when nobody has a mark set on it.
    func offList(_ movie: MovieID) -> OffListRecord? {
        let marks = list.marks.marks(of: movie, names: list.names)
        guard !marks.isEmpty else { return nil }
        let named = lastNamed([movie])[movie]
        return OffListRecord(title: named?.title, year: named?.year, marks: marks)
    }

    /// `movie` with the title and year the group last gave it, when `movie` has none: a `want` of
    /// a removed movie adds it back by its name.
    func named(_ movie: Movie) -> Movie {
        guard movie.title == nil, list.row(for: movie.id) == nil else { return movie }
        return lastNamed([movie.id])[movie.id] ?? movie
    }

    /// The `op` an operation of a kind this version does not know came with, from its verbatim JSON.
    private static func kindName(of op: Operation) -> String? {
        guard let verbatim = op.verbatim,
            case .object(let fields) = try? JSONDecoder().decode(JSONValue.self, from: Data(verbatim.bytes)),
            case .string(let name) = fields["op"]
        else { return nil }
        // A mark of a later kind: say which ("mark skip").
        if case .object(let mark) = fields["mark"], case .string(let kind) = mark["kind"] {
            return String("\(name) \(kind)".prefix(64))
        }
        return String(name.prefix(64))
    }
}
