package import PeerdWire

/// Whether a movie may join a list with a ceiling (proto/PEER.md, "Ceilings"), as the machine that makes the add
/// decides it: by the movie's certification in the group's region and that country's order.
package struct CeilingCheck: Sendable, Equatable {
    package enum Verdict: Sendable, Equatable {
        /// Certified at or under the ceiling.
        case allowed
        /// Certified above the ceiling, or with a certification the country's order doesn't rank
        /// (``CertificationOrder/isAbove(_:ceiling:)``): refused.
        case above
        /// TMDB knows no certification of the movie in the region: refused unless a member of the list who is not
        /// a profile adds it with `--allow-unrated`.
        case unrated
        /// The ceiling is no certification of the region (a list made for another country): nothing can be
        /// placed under it, so the add is refused.
        case ceilingUnknown
        /// TMDB could not be asked (the reason says why): nothing is known of the certification, so it is
        /// refused as ``unrated`` is, `--allow-unrated` included.
        case unknown(String)
    }

    package var verdict: Verdict
    /// The movie's certification in ``region``, when TMDB knows one.
    package var certification: String?
    package var region: String
    package var ceiling: String

    package init(verdict: Verdict, certification: String? = nil, region: String, ceiling: String) {
        self.verdict = verdict
        self.certification = certification
        self.region = region
        self.ceiling = ceiling
    }

    /// The verdict on a movie certified `certification` (nil: none) in `region`, under `ceiling` in its `order`.
    package init(certification: String?, region: String, ceiling: String, order: CertificationOrder) {
        let verdict: Verdict
        if !order.contains(ceiling) {
            verdict = .ceilingUnknown
        } else if let certification {
            verdict = order.isAbove(certification, ceiling: ceiling) ? .above : .allowed
        } else {
            verdict = .unrated
        }
        self.init(verdict: verdict, certification: certification, region: region, ceiling: ceiling)
    }

    /// The verdict from a token holder's answer to a `certification` query (a machine without a token asks one).
    package init(_ record: CertificationRecord, ceiling: String) {
        self.init(
            certification: record.certification,
            region: record.region,
            ceiling: ceiling,
            order: CertificationOrder(record.order)
        )
    }

    /// Whether `--allow-unrated` (from a member who may give it) lets the movie in: no certification is known.
    package var isUnrated: Bool {
        switch verdict {
        case .unrated, .unknown: true
        case .allowed, .above, .ceilingUnknown: false
        }
    }

    /// Why the movie titled `title` may not join the list named `list`, in a user's words; nil when it may.
    /// "The Matrix is rated R in US; kids takes up to PG".
    package func refusal(title: String, list: String) -> String? {
        let allowUnrated = "a member of \(list) who is not a profile may add it with --allow-unrated"
        switch verdict {
        case .allowed:
            return nil
        case .above:
            return "\(title) is rated \(certification ?? "?") in \(region); \(list) takes up to \(ceiling)"
        case .unrated:
            return "\(title) has no certification in \(region); \(allowUnrated)"
        case .ceilingUnknown:
            return "\(list) takes up to \(ceiling), which is no certification in \(region), so no movie can be "
                + "checked against it; set the list's ceiling to one of \(region)'s certifications"
        case .unknown(let reason):
            return "could not learn the certification of \(title) in \(region) from TMDB (\(reason)); "
                + "try again in a while, or \(allowUnrated)"
        }
    }
}
