/// Everyone in the group, removed ones too (proto/CONTROL.md, "members").
package struct MembersRequest: ControlRequestBody {
    package static let tag = "members"
    package static let takesList = false
    package init() {}
}

/// Remove a member from the whole group: by id, unique id prefix, or unique name
/// (proto/CONTROL.md, "removeMember"). The page offers it behind a confirmation.
package struct RemoveMemberRequest: ControlRequestBody {
    package static let tag = "removeMember"
    package static let takesList = false
    package var peer: String

    package init(peer: String) { self.peer = peer }
}

/// This machine's own member and the profiles that live on it (proto/CONTROL.md, "Profiles"),
/// answered by `members`. The page's "who's watching" asks it.
package struct ProfilesRequest: ControlRequestBody {
    package static let tag = "profiles"
    package static let takesList = false
    package init() {}
}

/// Make a profile: a member who lives on this machine, with a key of its own that this daemon
/// holds and an admission in the group's log (proto/CONTROL.md, "Profiles"). Answered by
/// `profileAdded`.
package struct AddProfileRequest: ControlRequestBody {
    package static let tag = "addProfile"
    package static let takesList = false
    package static var allowedFromPage: Bool { false }
    package var name: String

    package init(name: String) { self.name = name }
}
