import PeerdModel
import PeerdWire

extension Replica {
    /// The news as `news` shows it (proto/CONTROL.md): reports newest first, at most `limit`,
    /// those after `looked` unread; the unread count counts only movies someone wants now.
    func newsRecord(limit: Int, looked: OrderKey?) -> NewsRecord {
        let reports = list.news.reports
        let unread = reports.filter { op in
            looked.map { op.orderKey > $0 } ?? true
        }
        let wantedUnread = unread.filter { !list.wanters(of: $0.movie.id).isEmpty }.count
        let items = reports.reversed().prefix(limit).map { newsItem($0, looked: looked) }
        return NewsRecord(items: Array(items), unread: wantedUnread, total: reports.count)
    }

    /// One report as a record: the movie as its details name it, who wants it now.
    func newsItem(_ report: Operation, looked: OrderKey?) -> NewsItemRecord {
        let details = list.description(of: report.movie.id)?.details
        return NewsItemRecord(
            report: report,
            news: report.news!,
            title: details?.title ?? report.movie.title,
            year: details?.year ?? report.movie.year,
            posterPath: details?.posterPath,
            wantedBy: list.wanters(of: report.movie.id).map(\.name).sorted(),
            reportedBy: list.names.name(of: report.id.origin),
            unread: looked.map { report.orderKey > $0 } ?? true
        )
    }
}
