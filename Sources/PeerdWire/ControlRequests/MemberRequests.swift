/// Everyone in the group, removed ones too (proto/CONTROL.md, "members").
package struct MembersRequest: ControlRequestBody {
    package static let tag = "members"
    package init() {}
}

/// Remove a member from the whole group: by id, unique id prefix, or unique name
/// (proto/CONTROL.md, "removeMember"). The page offers it behind a confirmation.
package struct RemoveMemberRequest: ControlRequestBody {
    package static let tag = "removeMember"
    package var peer: String

    package init(peer: String) { self.peer = peer }
}
