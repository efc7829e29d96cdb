import PeerdModel

/// A pick operation's `pick` as JSON, through its `Codable` form as settings are: a pick is a
/// handful of operations an evening, so the cost does not matter and the fields are spelled out once.
extension Pick {
    var json: JSONTree {
        // Strings, integers and booleans always encode; a failure here is a programming error.
        try! JSONTreeEncoder().encode(self)
    }
}
