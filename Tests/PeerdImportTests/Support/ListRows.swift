import Foundation
import PeerdModel
import PeerdWire

/// List rows as the daemon gives `peerctl export`, made from their JSON (a ``MovieRecord`` is only
/// ever made from the model's rows).
enum ListRows {
    static let alice = PeerID("a11ce000a11ce000")!
    static let bob = PeerID("b0b00000b0b00000")!

    struct Marks {
        var peer: PeerID
        var name: String
        var want = false
        var seen = false
        var seenOn: String?
        var rating: Int?
        var veto = false
    }

    static func movie(
        _ id: Int,
        _ title: String?,
        _ year: Int?,
        addedBy: [(PeerID, String)] = [(alice, "alice")],
        addedAt: Int64 = 1_714_567_890_123,
        marks: [Marks] = []
    ) throws -> MovieRecord {
        var object: [String: Any] = [
            "movieId": id, "addedBy": addedBy.map(\.1), "addedByPeers": addedBy.map(\.0.rawValue),
            "addedAt": addedAt, "cursor": "c\(id)", "posterPath": "/p\(id).jpg",
        ]
        object["title"] = title
        object["year"] = year
        object["marks"] = marks.map { marks -> [String: Any] in
            var mark: [String: Any] = [
                "peer": marks.peer.rawValue, "name": marks.name, "want": marks.want, "seen": marks.seen,
                "veto": marks.veto,
            ]
            mark["seenOn"] = marks.seenOn
            mark["rating"] = marks.rating
            return mark
        }
        return try JSONDecoder().decode(MovieRecord.self, from: JSONSerialization.data(withJSONObject: object))
    }

    /// A list of four: alice's marks of every kind, a title to quote, bob's marks, a movie only bob added.
    static func sample() throws -> [MovieRecord] {
        [
            try movie(
                603,
                "The Matrix",
                1999,
                marks: [
                    Marks(peer: alice, name: "alice", seen: true, seenOn: "2023-01-31", rating: 10),
                    Marks(peer: bob, name: "bob", want: true),
                ]
            ),
            try movie(
                146,
                "Crouching Tiger, Hidden Dragon",
                2000,
                addedBy: [(bob, "bob"), (alice, "alice")],
                marks: [Marks(peer: alice, name: "alice", want: true, veto: true)]
            ),
            try movie(
                12345,
                "The \"Burbs\"",
                nil,
                addedBy: [(bob, "bob")],
                marks: [Marks(peer: bob, name: "bob", seen: true)]
            ),
            try movie(129, "千と千尋の神隠し", 2001, addedBy: [(bob, "bob")]),
        ]
    }
}
