/// What a `list` operation carries (proto/PEER.md, "Lists"): the list's name, its ceiling, and on
/// its creator's first operation the nonce that with the creator's id makes the list's id.
///
/// A class, like ``MemberStep``, so that an operation holds it in one pointer's room.
package final class ListDefinition: Hashable, Sendable, Codable, CustomStringConvertible {
    package let name: String
    /// On the creator's first operation in the list only: 32 lowercase hex digits.
    package let nonce: String?
    /// The highest certification a movie on the list may have in the group's region (`PG`, `12`).
    package let maxCertification: String?

    package init(name: String, nonce: String? = nil, maxCertification: String? = nil) {
        self.name = name
        self.nonce = nonce
        self.maxCertification = maxCertification
    }

    /// Why an operation can't carry this definition, or nil when it can.
    package var invalidReason: String? {
        if name.isEmpty || name.unicodeScalars.count > 64 { return "a list's name is 1 to 64 characters" }
        if let nonce, ListID(nonce) == nil { return "a list's nonce is 32 lowercase hex digits" }
        if let maxCertification, maxCertification.isEmpty || maxCertification.unicodeScalars.count > 16 {
            return "a list's ceiling is 1 to 16 characters"
        }
        return nil
    }

    package var description: String {
        "list \(name)" + (maxCertification.map { " up to \($0)" } ?? "")
    }

    package static func == (lhs: ListDefinition, rhs: ListDefinition) -> Bool {
        lhs === rhs
            || (lhs.name == rhs.name && lhs.nonce == rhs.nonce && lhs.maxCertification == rhs.maxCertification)
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(nonce)
    }
}
