/// Where the group watches: its region and the streaming services it pays for (proto/PEER.md,
/// "Group settings"). A `settings` operation carries it, and the newest one by the list's order wins
/// on every peer. The region picks which of TMDB's where-to-watch offers a describe carries; the
/// services are what `list --streaming` keeps.
///
/// A class, like ``MovieDetails``, so that an operation holds either in one pointer's room
/// (``Operation/Payload``).
package final class GroupSettings: Hashable, Sendable, Codable, CustomStringConvertible {
    package static let maxServices = 50

    /// An ISO 3166-1 country code: `US`, `DE`.
    package let region: String
    /// Sorted by id, each once.
    package let services: [Service]

    /// A streaming service, as TMDB names it (`/3/watch/providers/movie`).
    package struct Service: Hashable, Sendable, Codable, CustomStringConvertible {
        /// TMDB's provider id: the same in every region (8 is Netflix).
        package let id: Int
        package let name: String

        package init(id: Int, name: String) {
            self.id = id
            self.name = name
        }

        package var description: String { name }
    }

    /// Services are kept sorted by id, each once: the one form every peer writes.
    package init(region: String, services: [Service]) {
        self.region = region
        var seen = Set<Int>()
        self.services = services.sorted { $0.id < $1.id }.filter { seen.insert($0.id).inserted }
    }

    /// Why these can't be stored, or nil when they can.
    package var invalidReason: String? {
        guard Self.isRegion(region) else { return "a region is two capital letters" }
        if services.count > Self.maxServices { return "at most \(Self.maxServices) services" }
        if zip(services, services.dropFirst()).contains(where: { $0.id >= $1.id }) {
            return "services are sorted by id, each once"
        }
        let longest = WatchProviders.maxNameLength
        if services.contains(where: { $0.id < 0 || $0.name.isEmpty || $0.name.count > longest }) {
            return "a service has an id of 0 or more and a name of 1 to \(longest) characters"
        }
        return nil
    }

    /// Whether `offers` (a describe's where-to-watch) are for this region and stream on one of the
    /// services; the first such service, in the offers' order.
    package func streamingService(in offers: WatchProviders?) -> WatchProviders.Provider? {
        guard let offers, offers.region == region else { return nil }
        let ids = Set(services.map(\.id))
        return offers.stream.first { ids.contains($0.id) }
    }

    /// `US`, `DE`: two ASCII capital letters.
    package static func isRegion(_ text: String) -> Bool {
        text.utf8.count == 2 && text.utf8.allSatisfy { (0x41...0x5a).contains($0) }
    }

    package var description: String {
        "\(region): " + (services.isEmpty ? "no services" : services.map(\.name).joined(separator: ", "))
    }

    package static func == (lhs: GroupSettings, rhs: GroupSettings) -> Bool {
        lhs === rhs || (lhs.region == rhs.region && lhs.services == rhs.services)
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(region)
        hasher.combine(services)
    }
}
