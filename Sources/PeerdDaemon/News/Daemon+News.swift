import Logging
import PeerdCatalog
import PeerdSecurity
import PeerdWeb
import ServiceLifecycle
import SystemPackage

/// The news's parts of a daemon (proto/PEER.md, "News"): its checks, on a token holder, and its
/// notifications on this machine's desktop.
extension Daemon {
    /// The news checks (proto/PEER.md, "News"), when this daemon holds a token.
    static func news(
        _ client: TMDBClient?,
        peers: PeerSide,
        configuration: DaemonConfiguration,
        logger: Logger
    ) -> NewsService? {
        guard let client else { return nil }
        return NewsService(
            client: client,
            replica: ReplicaNews(replica: peers.replica, directory: peers.directory),
            peer: peers.identity.peer,
            interval: configuration.newsInterval,
            checks: NewsChecks(directory: client.settings.cacheDirectory),
            logger: logger
        )
    }
}

extension Daemon.LocalSide {
    /// News on the desktop, when notifications are on and a session bus answers.
    static func desktop(
        _ configuration: DaemonConfiguration,
        peers: Daemon.PeerSide,
        page: WebPage?,
        logger: Logger
    ) -> [any Service] {
        guard configuration.notifications,
            let notifier = NewsDesktop.connect(environment: configuration.environment, logger: logger)
        else { return [] }
        return [
            NewsDesktop(
                notifier: notifier,
                replica: peers.replica,
                profiles: peers.profiles,
                machine: peers.identity.peer,
                page: page,
                shown: NewsShown(stateDirectory: FilePath(configuration.stateDirectory), logger: logger)
            )
        ]
    }
}
