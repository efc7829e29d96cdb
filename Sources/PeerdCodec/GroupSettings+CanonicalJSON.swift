import PeerdModel

/// A settings operation's `settings` as JSON, through its `Codable` form as details are: rare
/// operations, so the cost does not matter and the fields are spelled out once.
extension GroupSettings {
    /// The JSON of these settings.
    var json: JSONTree {
        // Strings and integers always encode; a failure here is a programming error.
        try! JSONTreeEncoder().encode(self)
    }

    /// The settings `value` holds, or nil when it does not hold them.
    static func decoding(_ value: JSONTree) -> GroupSettings? {
        try? JSONTreeDecoder().decode(GroupSettings.self, from: value)
    }
}
