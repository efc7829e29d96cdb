/// One operation of the signed log in words, as `peerctl history` and the page's activity view
/// show it: "alice added The Matrix (1999)", "bob rated Fight Club 8/10". An operation of a kind
/// this version does not know is named as such, never left out.
package enum HistoryLine {
    /// `operation` in words: `name` gives a member's name as the group knows it, `movie` is the
    /// title to show for its movie (``title(_:year:id:)``), and `kindName` the `op` it came with when
    /// this version does not know its kind; `list` names the list it is of, when it is not the group's.
    package static func text(
        of operation: Operation,
        name: (PeerID) -> String,
        movie: String,
        kindName: String?,
        list: String? = nil
    ) -> String {
        let who = name(operation.id.origin)
        switch operation.kind {
        case .add: return "\(who) added \(movie)"
        case .remove: return "\(who) removed \(movie)"
        case .describe: return "\(who) fetched TMDB's details of \(movie)"
        case .settings:
            guard let settings = operation.settings else { return "\(who) set the group's settings" }
            let services =
                settings.services.isEmpty ? "no services" : settings.services.map(\.name).joined(separator: ", ")
            return "\(who) set the group's region to \(settings.region) and its services to \(services)"
        case .mark:
            guard let mark = operation.mark else { return "\(who) marked \(movie)" }
            return text(of: mark, who: who, movie: movie)
        case .watch:
            let on = operation.watch?.on.map { " on \($0)" } ?? ""
            let present = operation.watch?.with.map(name).joined(separator: ", ") ?? ""
            return "\(who) logged a watch of \(movie)\(on) with \(present)"
        case .pick:
            guard let step = operation.pick else { return "\(who) took part in a pick" }
            return text(of: step, who: who, movie: movie)
        case .member:
            guard let step = operation.member else { return "\(who) changed the group's members" }
            return text(of: step, who: who, name: name, list: list)
        case .list:
            guard let definition = operation.listDefinition else { return "\(who) named the list" }
            let ceiling = definition.maxCertification.map { ", for movies up to \($0)" } ?? ""
            let verb = definition.nonce == nil ? "named the list" : "made the list"
            return "\(who) \(verb) \(definition.name)\(ceiling)"
        case .news:
            guard let news = operation.news else { return "\(who) reported where \(movie) streams" }
            return "\(who) reported: " + NewsWords.changes(news, movie: movie)
        case .relays:
            guard let relays = operation.relays else { return "\(who) set the group's relays" }
            guard !relays.urls.isEmpty else { return "\(who) took away the group's relays: it has none now" }
            return "\(who) set the group's relays to \(relays)"
        case .reach:
            guard let reach = operation.reach else { return "\(who) told how to reach their machine" }
            return text(of: reach, who: who)
        case .unknown:
            let name = kindName.map { "“\($0)”" } ?? "an unnamed kind"
            return "\(who) made an operation this peerd doesn't know (\(name)) about \(movie)"
        }
    }

    private static func text(of step: Pick, who: String, movie: String) -> String {
        switch step.action {
        case .open:
            let mode = step.mode?.rawValue ?? "majority"
            return "\(who) opened a \(mode) pick of \(step.deck?.count ?? 0) movies from \(step.source ?? "the list")"
        case .vote:
            let voter = step.guest.map { "\($0.name) (a guest of \(who))" } ?? who
            // Not how: a pick shows nobody's votes before its result (the log holds them, signed).
            return "\(voter) voted on \(movie)"
        case .rank: return "\(who) ranked the finalists"
        case .close: return "\(who) closed the pick"
        }
    }

    private static func text(of step: MemberStep, who: String, name: (PeerID) -> String, list: String?) -> String {
        let member = step.peer.map(name) ?? "someone"
        switch step.action {
        case .admit:
            if step.via == .profile {
                return "\(who) made the profile \(step.name ?? member), who lives on \(who)'s machine"
            }
            let how: String =
                switch step.via {
                case .invite: "with an invite code"
                case .groupSecret: "by the group secret"
                case .introduced: "as introduced by a member"
                case .pinned: "by pinning its key"
                case .list: "to \(list ?? "the list")"
                case .profile, nil: "to the group"
                }
            return "\(who) admitted \(step.name ?? member) \(how)"
        case .remove: return "\(who) removed \(member) from \(list ?? "the group")"
        case .secret: return "\(who) recorded the group secret in use"
        }
    }

    /// "alice's machine can be reached at 192.168.1.20:7601 and through relays as MFZWI3D".
    private static func text(of reach: PeerReach, who: String) -> String {
        let addresses = reach.addresses.map(\.description).joined(separator: ", ")
        let relayed = reach.device.isEmpty ? nil : "through relays as \(reach.shortDevice)"
        switch (addresses.isEmpty, relayed) {
        case (false, let relayed?): return "\(who)'s machine can be reached at \(addresses) and \(relayed)"
        case (false, nil): return "\(who)'s machine can be reached at \(addresses)"
        case (true, let relayed?): return "\(who)'s machine can be reached \(relayed)"
        case (true, nil): return "\(who)'s machine told no way to reach it"
        }
    }

    private static func text(of mark: Mark, who: String, movie: String) -> String {
        switch (mark.kind, mark.set) {
        case (.want, true): "\(who) wants to watch \(movie)"
        case (.want, false): "\(who) no longer wants to watch \(movie)"
        case (.seen, true): "\(who) has seen \(movie)" + (mark.on.map { " (on \($0))" } ?? "")
        case (.seen, false): "\(who) marked \(movie) as not seen"
        case (.rating, true): "\(who) rated \(movie) \(mark.rating ?? 0)/10"
        case (.rating, false): "\(who) cleared their rating of \(movie)"
        case (.veto, true): "\(who) vetoed \(movie)"
        case (.veto, false): "\(who) withdrew their veto of \(movie)"
        }
    }

    /// "The Matrix (1999)", "The Matrix" without a year, "movie 603" without a title.
    package static func title(_ title: String?, year: Int?, id: MovieID) -> String {
        guard let title else { return "movie \(id.rawValue)" }
        return year.map { "\(title) (\($0))" } ?? title
    }
}
