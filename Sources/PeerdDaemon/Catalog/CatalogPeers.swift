import PeerdCatalog
import PeerdModel
import PeerdWire

/// The two ends of catalog queries that every peer connection reaches (proto/PEER.md, "Catalog
/// queries"): the asker, for this peer's own queries, and the desk that answers peers' queries,
/// present only when this peer holds a TMDB token.
struct CatalogPeers: Sendable {
    let asker: CatalogAsker
    let desk: QueryDesk?

    /// Whether hello says `catalog`: peers then send their queries here.
    var answers: Bool { desk != nil }

    /// A peer's `query`: answered by the desk, or at once with `unavailable` without a token (a
    /// peer asks only those whose hello says `catalog`, so this is a peer that broke that rule).
    func take(_ query: CatalogQuery, from asker: PeerID, reply: @escaping @Sendable (CatalogAnswer) -> Void) async {
        guard let desk else {
            return reply(
                CatalogAnswer(id: query.id, outcome: .failure(WireError(.unavailable, "this peer holds no TMDB token")))
            )
        }
        await desk.take(query, from: asker, reply: reply)
    }
}
