/// The group's lists this machine holds, the group's own first (proto/CONTROL.md, "lists"),
/// answered by `lists`. The page's list switcher asks it.
package struct ListsRequest: ControlRequestBody {
    package static let tag = "lists"
    package static let takesList = false
    package init() {}
}

/// Make a list of some of the group's members (proto/CONTROL.md, "listCreate"): its operations go
/// only to the machines they live on. Answered by `listCreated`.
package struct ListCreateRequest: ControlRequestBody {
    package static let tag = "listCreate"
    package static let takesList = false
    package static var allowedFromPage: Bool { false }
    /// Its name, 1 to 64 characters.
    package var name: String
    /// Who is on it besides its maker: names, ids or unique id prefixes, as `watch`'s `with`.
    package var members: [String]
    /// The highest certification a movie on it may have in the group's region (`PG`, `12`).
    package var maxCertification: String?

    package init(name: String, members: [String], maxCertification: String? = nil) {
        self.name = name
        self.members = members
        self.maxCertification = maxCertification
    }
}

/// Put a member on a list or take them off it (proto/CONTROL.md, "listMember"). Answered by
/// `listChanged`.
package struct ListMemberRequest: ControlRequestBody {
    package static let tag = "listMember"
    package static let takesList = false
    package static var allowedFromPage: Bool { false }

    package enum Action: String, Hashable, Sendable, Codable {
        case add, remove
    }

    /// The list: its name, its id or the id's first 8 digits.
    package var list: String
    /// The member: a name, an id or a unique id prefix.
    package var member: String
    package var action: Action

    package init(list: String, member: String, action: Action) {
        self.list = list
        self.member = member
        self.action = action
    }
}
