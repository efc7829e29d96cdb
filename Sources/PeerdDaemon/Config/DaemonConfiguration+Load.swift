package import PeerControl
import PeerdSecurity
import SystemPackage

extension DaemonConfiguration {
    /// The configuration `peerd` starts with: reads the config file, resolves every setting
    /// (``init(flags:file:environment:hostName:)``), then reads the TMDB token and the group secret.
    /// `levels` is the override every log handler shares: it takes the resolved level now, and a
    /// reloaded one later unless `--log-level` fixed it.
    ///
    /// - Throws: what to fix, for a start that must not go on: a broken config file
    ///   (``ConfigFileError``), no state directory, a bad TMDB setting or token, an unusable group
    ///   secret file.
    package static func load(
        _ flags: DaemonFlags,
        environment: PeerdEnvironment,
        levels: LogLevelOverride
    ) throws -> DaemonConfiguration {
        let file = try ConfigFile.load(given: flags.config, environment: environment.variables)
        var configuration = try DaemonConfiguration(
            flags: flags,
            file: file,
            environment: environment.variables,
            hostName: environment.hostName
        )
        configuration.tmdb.settings = try configuration.tmdb.loadSettings(
            cacheDirectory: configuration.tmdbCacheDirectory,
            environment: environment.variables
        )
        let secret = try configuration.groupSecretFile.map { try GroupSecret.secret(in: FilePath($0)) }
        configuration.groupKey = secret.map(GroupSecret.key)
        configuration.groupFingerprint = secret.map(GroupSecret.fingerprint(of:))
        levels.level = configuration.logLevel
        configuration.logLevels = flags.logLevel == nil ? levels : nil
        return configuration
    }

    /// Where what TMDB said is kept, token or not: details, genres and list pages.
    var tmdbCacheDirectory: FilePath { FilePath(stateDirectory).appending("tmdb") }
}
