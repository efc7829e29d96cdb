package import PeerdModel

/// A `services` response (proto/CONTROL.md, "services"): where the group watches, and who said so.
package struct ServicesRecord: Hashable, Sendable, Codable {
    /// The region where-to-watch is told for: the group's, or until a member sets one, this peer's
    /// TMDB language's (`en-US`: `US`).
    package var region: String
    /// `group` once a member set the settings, else `language`.
    package var regionFrom: Source
    /// The services the group pays for, by TMDB's ids and names.
    package var services: [GroupSettings.Service]
    /// Who set them, and when (ms since 1970); absent until someone did.
    package var setBy: String?
    package var setByPeer: PeerID?
    package var setAt: Int64?

    package enum Source: String, Hashable, Sendable, Codable {
        case group, language
    }

    package init(settings operation: Operation?, languageRegion: String) {
        if let operation, let settings = operation.settings {
            region = settings.region
            regionFrom = .group
            services = settings.services
            setBy = operation.by
            setByPeer = operation.id.origin
            setAt = operation.at
        } else {
            region = languageRegion
            regionFrom = .language
            services = []
        }
    }
}
