import PeerdModel

/// A member operation's `member` as JSON, through its `Codable` form as a pick's step is: a group
/// makes a handful, so the cost does not matter and the fields are spelled out once.
extension MemberStep {
    var json: JSONTree {
        // Strings and integers always encode; a failure here is a programming error.
        try! JSONTreeEncoder().encode(self)
    }
}

/// A list operation's `list` as JSON, through its `Codable` form as a member step's is.
extension ListDefinition {
    var json: JSONTree {
        // Strings always encode; a failure here is a programming error.
        try! JSONTreeEncoder().encode(self)
    }
}

/// A news operation's `news` as JSON, through its `Codable` form as a list definition's is: news
/// is rare, so the cost does not matter and the fields are spelled out once.
extension ProviderNews {
    var json: JSONTree {
        // Strings and integers always encode; a failure here is a programming error.
        try! JSONTreeEncoder().encode(self)
    }
}
