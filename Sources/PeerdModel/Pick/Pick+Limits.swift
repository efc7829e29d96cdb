extension Pick {
    /// Why this step can't be stored, or nil when it can; `movie` is its operation's movie.
    package func invalidReason(movie: Movie) -> String? {
        switch action {
        case .open: openReason(movie: movie)
        case .vote:
            stepReason(movie: movie, allowed: [\.yes, \.guest], needsMovie: true)
                ?? (yes == nil ? "a vote says yes or no" : nil) ?? guest.flatMap(Self.guestReason)
        case .rank:
            stepReason(movie: movie, allowed: [\.ranking], needsMovie: false)
                ?? rankingReason
        case .close: stepReason(movie: movie, allowed: [], needsMovie: false)
        }
    }

    private func openReason(movie: Movie) -> String? {
        guard pick == nil, yes == nil, guest == nil, ranking == nil else {
            return "an opening carries mode, deck, voters and source only"
        }
        guard movie.id == Operation.groupMovie.id else { return "an opening is about the group: its movie is 1" }
        guard mode != nil else { return "an opening has a mode" }
        guard let deck, (1...Self.maxDeck).contains(deck.count) else { return "a deck has 1 to \(Self.maxDeck) movies" }
        if mode == .ranked, deck.count > Self.maxFinalists {
            return "a ranked pick has 1 to \(Self.maxFinalists) finalists"
        }
        if Set(deck.map(\.id)).count != deck.count { return "a deck names each movie once" }
        if let reason = deck.lazy.compactMap(\.invalidReason).first { return reason }
        guard let voters, (1...Self.maxVoters).contains(voters.count) else {
            return "a pick has 1 to \(Self.maxVoters) voters"
        }
        if zip(voters, voters.dropFirst()).contains(where: { $0 >= $1 }) { return "voters are sorted, each once" }
        guard let source, (1...40).contains(source.unicodeScalars.count) else {
            return "a deck's source is 1 to 40 characters"
        }
        return nil
    }

    /// The rules every step after the opening shares: it names its pick, carries only its own
    /// fields, and is about a movie (a vote) or the group (the rest).
    private func stepReason(movie: Movie, allowed: [PartialKeyPath<Pick>], needsMovie: Bool) -> String? {
        guard pick != nil else { return "a \(action.rawValue) names its pick" }
        guard mode == nil, deck == nil, voters == nil, source == nil else {
            return "only an opening carries mode, deck, voters and source"
        }
        if yes != nil, !allowed.contains(\Pick.yes) { return "only a vote carries yes" }
        if guest != nil, !allowed.contains(\Pick.guest) { return "only a vote carries a guest" }
        if ranking != nil, !allowed.contains(\Pick.ranking) { return "only a ranking carries one" }
        if !needsMovie, movie.id != Operation.groupMovie.id {
            return "a \(action.rawValue) is about the group: its movie is 1"
        }
        return nil
    }

    private var rankingReason: String? {
        guard let ranking, (1...Self.maxDeck).contains(ranking.count) else { return "a ranking names 1 or more movies" }
        return Set(ranking).count == ranking.count ? nil : "a ranking names each movie once"
    }

    private static func guestReason(_ guest: Guest) -> String? {
        guard guest.id.utf8.count == 16,
            guest.id.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
        else { return "a guest's id is 16 hex digits" }
        return (1...40).contains(guest.name.unicodeScalars.count) ? nil : "a guest's name is 1 to 40 characters"
    }
}
