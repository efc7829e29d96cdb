/// A pick's deck: which movies it offers and in what order (proto/PEER.md, "The deck").
///
/// The opener works the deck out and writes it, in order, into the opening, so every voter sees
/// the same order whatever their list holds. The order is a seeded shuffle that anyone can redo:
/// Fisher–Yates from the last position down, position `i` swapping with `next() % (i + 1)`, where
/// `next()` is SplitMix64 seeded with the 64-bit FNV-1a hash of `"<origin>/<seq>"` of the opening.
package enum PickDeck {
    /// The list's movies a pick of `voters` may offer: listed; seen or vetoed by none of them; no
    /// longer than `maxRuntime` minutes; of `genre` (TMDB's name, any case); and, with `streaming`,
    /// on one of the group's services. A movie whose details are not known yet stays unless a
    /// genre or streaming is asked for (runtime alone can't rule it out).
    package static func candidates(
        in list: WatchList,
        voters: [PeerID],
        maxRuntime: Int? = nil,
        genre: String? = nil,
        streaming: Bool = false
    ) -> [WatchListRow] {
        list.rows(matching: ListQuery(streaming: streaming)).filter { row in
            if row.marks.contains(where: { voters.contains($0.member) && ($0.seen || $0.vetoes) }) { return false }
            if let maxRuntime, let runtime = row.details?.runtime, runtime > maxRuntime { return false }
            if let genre {
                let wanted = genre.lowercased()
                guard row.details?.genres.contains(where: { $0.lowercased() == wanted }) == true else { return false }
            }
            return true
        }
    }

    /// `movies` in the shuffle the opening `id` seeds.
    package static func shuffled<Element>(_ movies: [Element], seed id: OperationID) -> [Element] {
        var shuffled = movies
        var generator = DeckRandom(seed: fnv1a("\(id.origin.rawValue)/\(id.seq)"))
        for index in stride(from: shuffled.count - 1, to: 0, by: -1) {
            shuffled.swapAt(index, Int(generator.next() % UInt64(index + 1)))
        }
        return shuffled
    }

    /// FNV-1a, 64 bits, of the UTF-8 of `text`.
    static func fnv1a(_ text: String) -> UInt64 {
        text.utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01b3 }
    }
}

/// SplitMix64 (Steele, Lea and Flood, 2014), written out here, not taken from a library, because
/// the deck's order is a documented rule another implementation must redo bit for bit, and the
/// standard library's generators are not specified.
struct DeckRandom {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
