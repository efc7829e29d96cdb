/// Pure: the services a person names (`netflix`, `mubi`, `337`), found among those TMDB lists in a
/// region. A name is matched ignoring case, spaces and punctuation: first exactly (`netflix` is
/// Netflix, not "Netflix basic with Ads"), else as the start of exactly one service's name
/// (`disney` is Disney Plus); a number is TMDB's provider id. Anything else is refused with the
/// names it could have meant: a wrong guess would filter the list by a service nobody pays for.
package enum ServiceNames {
    package enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// Nothing in the region is called that; `known` are the region's first services.
        case unknown(String, region: String, known: [String])
        /// The name starts several services' names.
        case ambiguous(String, candidates: [String])

        package var description: String {
            switch self {
            case .unknown(let name, let region, let known):
                "no streaming service called '\(name)' in \(region)"
                    + (known.isEmpty ? "" : "; services there include \(known.joined(separator: ", "))")
            case .ambiguous(let name, let candidates):
                "'\(name)' could be \(candidates.joined(separator: ", ")): name one of them"
            }
        }
    }

    /// How many names an unknown name's error lists.
    static let hints = 12

    /// The services `names` name among `available` (a region's, in TMDB's display order).
    package static func resolve(
        _ names: [String],
        among available: [WatchProviders.Provider],
        region: String
    ) -> Result<[GroupSettings.Service], Failure> {
        var found: [GroupSettings.Service] = []
        for name in names {
            switch resolve(name, among: available, region: region) {
            case .success(let provider): found.append(GroupSettings.Service(id: provider.id, name: provider.name))
            case .failure(let failure): return .failure(failure)
            }
        }
        return .success(found)
    }

    private static func resolve(
        _ name: String,
        among available: [WatchProviders.Provider],
        region: String
    ) -> Result<WatchProviders.Provider, Failure> {
        let wanted = folded(name)
        if let id = Int(wanted), let provider = available.first(where: { $0.id == id }) {
            return .success(provider)
        }
        if let exact = available.first(where: { folded($0.name) == wanted }) { return .success(exact) }
        let starting = wanted.isEmpty ? [] : available.filter { folded($0.name).hasPrefix(wanted) }
        switch starting.count {
        case 1: return .success(starting[0])
        case 0: return .failure(.unknown(name, region: region, known: available.prefix(hints).map(\.name)))
        default: return .failure(.ambiguous(name, candidates: starting.prefix(hints).map(\.name)))
        }
    }

    /// Lowercased letters and digits only: `Disney+ ` and `disney` compare alike.
    static func folded(_ name: String) -> String {
        String(
            name.lowercased().unicodeScalars.filter { $0.properties.isAlphabetic || $0.properties.numericType != nil }
        )
    }
}
