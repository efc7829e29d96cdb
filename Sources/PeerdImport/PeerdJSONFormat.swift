import PeerdModel
import PeerdWire

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// peerd's own JSON (``PeerdExport``), read back: every movie is listed, with the exporting member's
/// marks (want, seen and its day, rating, veto) as the importing member's.
///
/// Other members' marks are not imported: only a member can set their own (each mark is signed by its
/// member). They are counted in one skipped row about the whole file (line 0), not one per movie: "the
/// marks of bob and carol on 12 movies are theirs: …". A movie's line is its 1-based place in `movies`.
enum PeerdJSONFormat {
    /// Only what tells a peerd export from other JSON, decoded before the whole.
    private struct Probe: Decodable {
        var peerd: String?
        var version: Int?
    }

    /// Whether `text` (a JSON object) is a peerd export.
    static func isExport(_ text: String) -> Bool {
        (try? JSONDecoder().decode(Probe.self, from: Data(text.utf8)))?.peerd == "export"
    }

    static func read(_ text: String, place: String, into tally: inout RowTally) throws(ImportError) {
        let data = Data(text.utf8)
        let document: PeerdExport
        do {
            let probe = try JSONDecoder().decode(Probe.self, from: data)
            if let version = probe.version, version > PeerdExport.currentVersion {
                throw ImportError.newerExport(place: place, version: version)
            }
            document = try JSONDecoder().decode(PeerdExport.self, from: data)
        } catch let error as ImportError {
            throw error
        } catch {
            throw .unreadableJSON(place: place, format: .peerdJSON, reason: JSONReason.of(error))
        }
        add(document, into: &tally)
    }

    private static func add(_ document: PeerdExport, into tally: inout RowTally) {
        let me = document.member.peer
        var others: [String] = []
        var moviesWithOthers = 0
        for (index, movie) in document.movies.prefix(tally.budget).enumerated() {
            tally.add(file: nil, line: index + 1, title: movie.title) { () throws(Unusable) in
                try row(movie, marks: movie.marks.first { $0.peer == me })
            }
            let theirs = movie.marks.filter { $0.peer != me && $0.marksSomething }
            if !theirs.isEmpty { moviesWithOthers += 1 }
            for mark in theirs where !others.contains(mark.name) { others.append(mark.name) }
        }
        tally.count(document.movies.count)
        guard moviesWithOthers > 0 else { return }
        let names = others.count == 1 ? others[0] : others.dropLast().joined(separator: ", ") + " and " + others.last!
        tally.skip(
            SkippedRow(
                line: 0,
                reason: "the marks of \(names) on \(moviesWithOthers) movie\(moviesWithOthers == 1 ? "" : "s") "
                    + "are theirs: only a member can set their own marks, so they were not imported"
            )
        )
    }

    private static func row(_ movie: MovieRecord, marks: MarkRecord?) throws(Unusable) -> ImportRow {
        guard movie.movieId > 0 else { throw Unusable("movieId \(movie.movieId) is not a TMDB id") }
        if let seenOn = marks?.seenOn { _ = try RowValues.day(seenOn, column: "seenOn") }
        if let rating = marks?.rating { _ = try RowValues.rating10(String(rating), column: "rating") }
        return ImportRow(
            line: 0,
            tmdb: movie.movieId,
            title: try RowValues.title(movie.title),
            year: movie.year.flatMap { RowValues.year(String($0)) },
            list: true,
            want: marks?.want ?? false,
            seen: marks?.seen ?? false,
            seenOn: marks?.seenOn,
            rating: marks?.rating,
            veto: marks?.veto ?? false
        )
    }
}

extension MarkRecord {
    /// Whether any of the marks is set.
    var marksSomething: Bool { want || seen || rating != nil || veto }
}
