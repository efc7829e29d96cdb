import Logging
import PeerControl
import PeerdModel
package import PeerdStore
import PeerdSync
import SystemPackage

extension DaemonConfiguration {
    /// Resolves every setting from its sources; for each, the first that is set wins:
    ///
    /// 1. the flag (``DaemonFlags``);
    /// 2. the config file's key (``ConfigFile``); both are ``DaemonSettings``, merged by
    ///    ``DaemonSettings/overriding(_:)``;
    /// 3. the default, some of them from the environment: the host name, `$XDG_STATE_HOME` (else
    ///    `$HOME`) for the state directory, `$XDG_RUNTIME_DIR` for the socket.
    ///
    /// Two settings don't just pick one: the file's `peers` add to `--peer`; and `$PEERD_SOCKET`
    /// comes between `--socket` and the file's `socket`, because `peerctl`, which reads no config
    /// file, finds the socket through it (proto/CONTROL.md). The TMDB token's own order, after the
    /// flag and the file, is ``TMDBCredential/load(file:environment:)``'s. Pure: nothing is read
    /// here, so every order is tested in-process (`DaemonConfigurationTests`).
    ///
    /// Not built on apple/swift-configuration 1.4.0, which was tried for this (this merge written on it,
    /// and a small reader built for release with `--static-swift-stdlib`, with and without its traits):
    /// - Its providers without traits (in memory, environment) are linked into peerd already, through
    ///   async-http-client, so they would cost nothing. Its JSON file provider needs the `JSON` trait,
    ///   which imports all of Foundation for `JSONSerialization`: the reader grew from 26.6 to 76.2 MB
    ///   and its idle RSS from 11.6 to 15.9 MB. So the config file would still be parsed here.
    /// - A provider answers for the keys it is asked about. It can't tell that the file holds an
    ///   unknown key (peerd refuses a typo rather than ignore it), reads a JSON `1` as `true`, and meets
    ///   a value of the wrong type with a generic error or the default: ``ConfigFile``'s messages
    ///   (`port must be a whole number`, the list of known keys) would stay ours.
    /// - The merge was longer on it, not shorter (52 lines against these 36): each source copied into
    ///   an `InMemoryProvider` by string key and read back by string key, where a misspelt key is a
    ///   silent default rather than a compile error; `peers` still added up by hand, and `$PEERD_SOCKET`
    ///   needed a key-mapping provider of its own. Its guide, too, keeps swift-argument-parser for
    ///   options known at compile time.
    /// - Its reloading provider polls the file (every 15 s by default) besides SIGHUP: a wakeup a quiet
    ///   daemon doesn't want, and no answer to which keys need a restart (``ConfigChange``).
    package init(
        flags: DaemonFlags,
        file: DaemonSettings,
        environment: [String: String],
        hostName: String
    ) throws(StoreError) {
        let variables = PeerdEnvironment(variables: environment)
        let set = flags.settings.overriding(file)
        name = set.name ?? hostName
        port = set.port ?? PeerAddress.defaultPort
        listenAddress = set.listenAddress ?? "::"
        if let named = set.stateDir {
            stateDirectory = named
        } else {
            stateDirectory = try StateDirectory.defaultPath(environment: environment).string
        }
        let namedSocket = flags.socket ?? variables.socketVariable ?? file.socket
        socketPath = namedSocket ?? variables.runtimeSocketPath
        socketIsDefault = namedSocket == nil
        mdns = set.mdns ?? true
        staticPeers = set.peers
        groupSecretFile = flags.groupSecretFile
        configPath = ConfigFile.path(given: flags.config, environment: environment)
        config = file
        logLevel = set.logLevel ?? .info
        self.environment = environment
        if let keepalive = flags.keepaliveInterval { session.keepaliveInterval = keepalive }
        session.relayTree = !flags.flood
        tmdb.tokenFile = set.tmdbTokenFile
        tmdb.url = set.tmdbURL ?? tmdb.url
        tmdb.language = set.tmdbLanguage ?? tmdb.language
        tmdb.disabled = flags.noTmdb
        web.enabled = set.web ?? true
        web.addresses = set.webAddresses ?? web.addresses
        web.port = set.webPort ?? web.port
        guests.enabled = set.guests ?? true
        guests.address = set.guestAddress
        guests.port = set.guestPort ?? guests.port
        devices.enabled = set.devices ?? true
        devices.address = set.deviceAddress
        devices.port = set.devicePort ?? devices.port
        newsInterval = set.newsInterval.flatMap(NewsInterval.init)?.duration ?? newsInterval
        notifications = set.notifications ?? true
    }
}
