import PeerdWire

/// Which of TMDB's search results a row that names a movie only by title (and year) means: the one
/// whose title or original title is the row's, compared without case, punctuation or spacing (accents
/// count: "Amélie" is not "Amelie"), and whose release year is the row's. A row without a year matches only when exactly one
/// result has its title. Anything else is unresolved, with the reason: a title is never guessed.
enum TitleMatch {
    enum Verdict: Equatable {
        case movie(SearchResultRecord)
        case unresolved(String)
    }

    static func choose(_ results: [SearchResultRecord], title: String, year: Int?) -> Verdict {
        let wanted = key(title)
        let titled = results.filter { key($0.title) == wanted || $0.originalTitle.map(key) == wanted }
        let named = year.map { "'\(title)' (\($0))" } ?? "'\(title)'"
        guard let year else {
            switch titled.count {
            case 1: return .movie(titled[0])
            case 0: return .unresolved("TMDB has no movie titled \(named)")
            default:
                let years = titled.compactMap(\.year).map(String.init).joined(separator: ", ")
                return .unresolved(
                    "\(titled.count) movies are titled \(named) (\(years)); the row has no year to choose by"
                )
            }
        }
        let dated = titled.filter { $0.year == year }
        switch dated.count {
        case 1: return .movie(dated[0])
        case 0:
            let others = titled.compactMap(\.year).map(String.init)
            let near = others.isEmpty ? "" : "; TMDB has it from \(others.joined(separator: ", "))"
            return .unresolved("TMDB has no movie titled \(named)\(near)")
        default: return .unresolved("\(dated.count) movies are titled \(named)")
        }
    }

    /// A title as compared: lowercased, `&` read as "and", letters and digits kept, runs of
    /// anything else one space.
    static func key(_ title: String) -> String {
        var words: [String] = []
        var word = ""
        for character in title.lowercased() {
            if character == "&" {
                if !word.isEmpty { words.append(word) }
                (words, word) = (words + ["and"], "")
            } else if character.isLetter || character.isNumber {
                word.append(character)
            } else if !word.isEmpty {
                words.append(word)
                word = ""
            }
        }
        if !word.isEmpty { words.append(word) }
        return words.joined(separator: " ")
    }
}
