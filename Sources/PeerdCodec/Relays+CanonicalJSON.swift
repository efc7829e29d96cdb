import PeerdModel

/// A relays operation's `relays` as JSON, through its `Codable` form as the group's settings are:
/// a group sets its relays now and then, so the cost does not matter and the form is spelled out once.
extension GroupRelays {
    var json: JSONTree {
        // Strings always encode; a failure here is a programming error.
        try! JSONTreeEncoder().encode(self)
    }
}

/// A reach operation's `reach` as JSON, through its `Codable` form as a relays operation's is: a
/// peer tells how to reach it when its addresses change, which is seldom.
extension PeerReach {
    var json: JSONTree {
        // Strings always encode; a failure here is a programming error.
        try! JSONTreeEncoder().encode(self)
    }
}
