extension MemberNames {
    /// Why a name given for a member names none, or more than one.
    package struct Refusal: Error, Hashable, Sendable {
        package let message: String
    }

    /// The member `text` names: `me` (this replica, `me`), a member's whole id, a unique id prefix
    /// of 4 or more digits, or a name (ignoring case) only one member goes by.
    package func resolve(_ text: String, me: PeerID) -> Result<PeerID, Refusal> {
        let trimmed = text.drop(while: \.isWhitespace)
        let wanted = String(trimmed.reversed().drop(while: \.isWhitespace).reversed()).lowercased()
        if wanted == "me" { return .success(me) }
        let everyone = Set(members + [me]).sorted()
        if let id = PeerID(wanted), everyone.contains(id) { return .success(id) }
        let named = everyone.filter { plainName(of: $0)?.lowercased() == wanted }
        if named.count == 1 { return .success(named[0]) }
        if named.count > 1 {
            let choices = named.map { name(of: $0) }.joined(separator: ", ")
            return .failure(
                Refusal(message: "'\(text)' is the name of \(named.count) members (\(choices)); give the id")
            )
        }
        let prefixed = wanted.utf8.count >= 4 ? everyone.filter { $0.rawValue.hasPrefix(wanted) } : []
        if prefixed.count == 1 { return .success(prefixed[0]) }
        let list = everyone.map { name(of: $0) }.joined(separator: ", ")
        return .failure(Refusal(message: "no member of the group is called '\(text)'; its members: \(list)"))
    }
}
