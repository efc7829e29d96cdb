/// What a `news` operation carries (proto/PEER.md, "News"): where a wanted movie can be watched in
/// the group's region as TMDB answered at ``read`` (JustWatch's data), and what changed for the
/// group since the group last knew (``ProviderChange``). A token holder makes it after a check
/// found a change (``changes(from:to:services:)``); every peer folds it the same way (``NewsFeed``).
///
/// A class, like ``MovieDetails``, so that an operation holds it in one pointer's room.
package final class ProviderNews: Hashable, Sendable, Codable {
    package static let maxChanges = 40

    /// When TMDB answered, milliseconds since 1970: the date its data was read.
    package let read: Int64
    /// TMDB's where-to-watch of the movie in the group's region, as read: what the next check
    /// compares with.
    package let providers: WatchProviders
    /// What changed for the group, most newsworthy first (``ProviderChange/Kind``).
    package let changes: [ProviderChange]

    package init(read: Int64, providers: WatchProviders, changes: [ProviderChange]) {
        self.read = read
        self.providers = providers
        self.changes = changes
    }

    /// Why this can't be stored in a news operation, or nil when it can.
    package var invalidReason: String? {
        if read <= 0 { return "news says when TMDB's data was read" }
        if let reason = providers.invalidReason { return reason }
        guard (1...Self.maxChanges).contains(changes.count) else {
            return "news names 1 to \(Self.maxChanges) changes"
        }
        return changes.lazy.compactMap(\.invalidReason).first
    }

    package static func == (lhs: ProviderNews, rhs: ProviderNews) -> Bool {
        lhs.read == rhs.read && lhs.providers == rhs.providers && lhs.changes == rhs.changes
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(read)
        hasher.combine(providers)
        hasher.combine(changes)
    }
}

/// One change of where a movie can be watched, as news names it.
package struct ProviderChange: Hashable, Sendable, Codable {
    package enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        /// It streams now on one of the group's services.
        case arrived
        /// It no longer streams on one of the group's services.
        case left
        /// Someone offers it to rent, where nobody did: news of a lower kind.
        case rent
        /// Someone offers it to buy, where nobody did: news of a lower kind.
        case buy

        /// Whether it is news of the lower kind (an offer to rent or buy).
        package var isOffer: Bool { self == .rent || self == .buy }
    }

    package let change: Kind
    /// The service (for an offer, the first provider TMDB lists).
    package let service: GroupSettings.Service

    package init(_ change: Kind, _ service: GroupSettings.Service) {
        self.change = change
        self.service = service
    }

    var invalidReason: String? {
        let longest = WatchProviders.maxNameLength
        guard service.id >= 0, !service.name.isEmpty, service.name.count <= longest else {
            return "a change names a service with an id of 0 or more and a name of 1 to \(longest) characters"
        }
        return nil
    }
}

extension ProviderNews {
    /// What changed for a group that pays for `services` between `before` (what the group knew;
    /// nil when it knew nothing of the region) and `after` (TMDB's answer now): services of the
    /// group a movie arrived on or left, then a first offer to rent or to buy. Empty when nothing
    /// the group cares about changed, which is most checks.
    package static func changes(
        from before: WatchProviders?,
        to after: WatchProviders,
        services: [GroupSettings.Service]
    ) -> [ProviderChange] {
        let ours = Set(services.map(\.id))
        let had = Set((before?.stream ?? []).map(\.id)).intersection(ours)
        let has = Set(after.stream.map(\.id)).intersection(ours)
        var changes: [ProviderChange] = []
        for service in services where has.contains(service.id) && !had.contains(service.id) {
            changes.append(ProviderChange(.arrived, service))
        }
        for service in services where had.contains(service.id) && !has.contains(service.id) {
            changes.append(ProviderChange(.left, service))
        }
        if before?.rent.isEmpty ?? true, let first = after.rent.first {
            changes.append(ProviderChange(.rent, GroupSettings.Service(id: first.id, name: first.name)))
        }
        if before?.buy.isEmpty ?? true, let first = after.buy.first {
            changes.append(ProviderChange(.buy, GroupSettings.Service(id: first.id, name: first.name)))
        }
        return Array(changes.prefix(maxChanges))
    }
}
