import PeerdDesktop
import PeerdModel
import PeerdWire

/// Pure: which reports this machine shows on its desktop, and in what words (proto/PEER.md,
/// "News"). A report is shown once, when it first reaches this machine, and only when a member
/// who lives here (the machine's own, or a profile) wants its movie then.
struct NewsNotices: Sendable {
    /// The reports already shown or passed over (``NewsDesktop`` keeps them across restarts).
    private(set) var known: Set<OperationID>
    /// More new reports than this at once (a machine back from a week away) make one notice.
    static let most = 3

    init(known: Set<OperationID>) {
        self.known = known
    }

    /// The notices for the reports of `replica` not known before: those of movies a member of
    /// `locals` wants; opened at `page` (the page's address with its token), when served.
    mutating func notices(in replica: Replica, locals: Set<PeerID>, page: String?) -> [DesktopNotice] {
        let fresh = replica.list.news.reports.filter { known.insert($0.id).inserted }
        let wanted = fresh.filter { report in
            replica.list.wanters(of: report.movie.id).contains { locals.contains($0.member) }
        }
        guard wanted.count <= Self.most else {
            return [
                DesktopNotice(
                    summary: "\(wanted.count) movies you want changed where they stream",
                    body: "Open peerd's News to see which. " + NewsWords.attribution + ".",
                    openURL: page.map { $0 + "&view=news" }
                )
            ]
        }
        return wanted.map { notice(for: replica.newsItem($0, looked: nil), page: page) }
    }

    /// "Arrival is now on Netflix" over "Arrival (2016) is now on Netflix (DE), wanted by alice.
    /// Where to watch: data by JustWatch, through TMDB, read 6 Dec 2026 14:02."
    private func notice(for item: NewsItemRecord, page: String?) -> DesktopNotice {
        let offersOnly = item.changes.allSatisfy { $0.change == "rent" || $0.change == "buy" }
        let read = LocalTime.at(millis: item.read).stamp
        return DesktopNotice(
            summary: item.lines.first.map(Self.withoutRegion) ?? "News of a movie you want",
            body: item.lines.joined(separator: "; ") + ", " + NewsWords.wanted(by: item.wantedBy) + ".\n"
                + NewsWords.attribution + ", read " + read + ".",
            urgency: offersOnly ? .low : .normal,
            openURL: page.map { $0 + "&movie=\(item.movieId)" }
        )
    }

    /// A line without its region and year, short enough for a summary: "Arrival is now on Netflix".
    private static func withoutRegion(_ line: String) -> String {
        guard line.hasSuffix(")"), let open = line.lastIndex(of: "(") else { return line }
        return String(line[..<open]).trimmingSuffix(" ")
    }
}

extension String {
    fileprivate func trimmingSuffix(_ character: Character) -> String {
        var text = self
        while text.last == character { text.removeLast() }
        return text
    }
}
