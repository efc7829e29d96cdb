package import PeerdWire

/// A movie named by its title, as people type it (`the matrix`, `the matrix 1999`,
/// `The Matrix (1999)`), and the one search result it clearly means, if one does.
package struct TitleQuery: Hashable, Sendable {
    package var title: String
    package var year: Int?

    /// Nil for text with no letter or digit in it: nothing to search for.
    package init?(_ text: String) {
        var words = text.split(whereSeparator: \.isWhitespace).map(String.init)
        if let last = words.last, words.count > 1 {
            let digits = last.trimmingPrefix("(").prefix { $0 != ")" }
            if digits.count == 4, let year = Int(digits), (1870...9999).contains(year) {
                self.year = year
                words.removeLast()
            }
        }
        title = words.joined(separator: " ")
        guard title.contains(where: { $0.isLetter || $0.isNumber }) else { return nil }
    }

    /// Whether `title` (in `year`, when the query has one) is the query's, ignoring case, accents,
    /// punctuation and a leading "the": how a title finds its movie on the list.
    package func names(_ title: String?, year: Int?) -> Bool {
        guard let title, self.year == nil || self.year == year else { return false }
        return Self.normalized(title) == Self.normalized(self.title)
    }

    /// The result the query clearly means: the only one whose title (or original title) is the
    /// query's, ignoring case, accents, punctuation and a leading "the", in the query's year when it
    /// has one; or the only result at all when its title contains the query. Nil when no one result
    /// stands out: the caller shows the candidates instead of guessing.
    package func bestMatch(in results: [SearchResultRecord]) -> SearchResultRecord? {
        let wanted = Self.normalized(title)
        let inYear = results.filter { year == nil || $0.year == year }
        let exact = inYear.filter { result in
            Self.normalized(result.title) == wanted || result.originalTitle.map(Self.normalized) == wanted
        }
        if exact.count == 1 { return exact[0] }
        if exact.isEmpty, inYear.count == 1, Self.normalized(inYear[0].title).contains(wanted) { return inYear[0] }
        return nil
    }

    /// Lower case without accents, letters and digits only, single spaces, without a leading "the".
    static func normalized(_ text: String) -> String {
        let kept: [Character] = text.foldedForSearch.map { $0.isLetter || $0.isNumber ? $0 : " " }
        var words: [String] = String(kept).split(separator: " ").map(String.init)
        if words.first == "the" { words.removeFirst() }
        return words.joined(separator: " ")
    }
}
