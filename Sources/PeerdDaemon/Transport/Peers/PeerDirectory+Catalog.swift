import PeerdCatalog
import PeerdModel
import PeerdWire

/// Which connected peers answer catalog queries (their hello says `catalog`), and, when none
/// does, who did and when it was last connected.
extension PeerDirectory {
    struct CatalogHolder: Sendable {
        let connection: Int
        let peer: PeerID
        let name: String
        let send: @Sendable (PeerMessage) -> Void
    }

    /// The established sessions with token holders, longest connected first.
    func catalogHolders() -> [CatalogHolder] {
        connections.filter { $0.value.established && $0.value.catalog }
            .sorted { ($0.value.connectedSince ?? 0, $0.key) < ($1.value.connectedSince ?? 0, $1.key) }
            .compactMap { id, connection in
                connection.peer.map {
                    CatalogHolder(connection: id, peer: $0, name: connection.name ?? "?", send: connection.send)
                }
            }
    }

    /// The connected token holders that check wanted movies for news (their hello says `news`):
    /// those whose turn a movie's check may be (proto/PEER.md, "News").
    func newsHolders() -> [PeerID] {
        connections.values.filter { $0.established && $0.news }.compactMap(\.peer)
    }

    /// Why no peer can answer a catalog query, in words: "no connected peer holds a TMDB token;
    /// alice holds one and was last seen 2 h ago".
    func noCatalogHolder(now: Int64 = Wallclock.millis()) -> String {
        let none = "no connected peer holds a TMDB token"
        let seen = tokenHolders.sorted { $0.value.lastSeen > $1.value.lastSeen }.prefix(3)
        guard !seen.isEmpty else {
            return none + ", and none has been connected since this peerd started; "
                + "put a token on one machine of the group (peerd --help, TMDB)"
        }
        let who = seen.map {
            "\($0.value.name) holds one and was last seen \(FetchWait.text(.milliseconds(now - $0.value.lastSeen))) ago"
        }
        return none + "; " + who.joined(separator: ", ")
    }
}
