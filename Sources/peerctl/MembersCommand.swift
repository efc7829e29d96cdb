import ArgumentParser
import PeerdModel
import PeerdWire

struct MembersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "members",
        abstract: "Show everyone in the group, or remove a member for the whole group.",
        discussion: """
            Who is in the group is decided by the group: every admission (invite, group secret, a key pinned \
            with `peerctl trust`, a profile made with `peerctl profile add`) and every removal is a signed operation in the shared log, so every peer \
            shows the same members. Removed members are listed too, with who removed them and when.
            """,
        subcommands: [MembersListCommand.self, MembersRemoveCommand.self],
        defaultSubcommand: MembersListCommand.self
    )
}

struct MembersListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Everyone in the group: name, id, who admitted them and how, since when; removed ones too."
    )

    @OptionGroup var options: ControlOptions

    func run() throws {
        let response = try options.request(MembersRequest())
        guard case .members(let group) = response else { throw Output.unexpected() }
        if options.json { return Output.json(response) }
        var table = Output.Table(["NAME", "PEER", "STATUS", "ADMITTED", "SINCE"])
        for member in group.members {
            table.add([
                (member.name ?? "-") + (member.here ? " (this peerd)" : ""), member.peer.short,
                Self.status(of: member), Self.admission(of: member), member.since.map(Output.stamp) ?? "-",
            ])
        }
        table.print()
        if let closed = group.secretClosed { print(closed) }
    }

    static func status(of member: MemberRecord) -> String {
        guard member.state == .removed else { return member.connected ? "member, connected" : "member" }
        let when = member.removedAt.map { " at \(Output.stamp($0))" } ?? ""
        return "removed by \(member.removedByName ?? member.removedBy?.short ?? "?")\(when)"
    }

    static func admission(of member: MemberRecord) -> String {
        guard let via = member.via else { return "founding member, or before admissions were recorded" }
        let admitter = member.admittedByName ?? member.admittedBy?.short ?? "?"
        if via == .profile { return "profile, lives on \(admitter)'s machine" }
        let how =
            switch via {
            case .invite: "invite"
            case .groupSecret: "group secret"
            case .introduced: "introduced"
            case .pinned: "key pinned by hand"
            case .profile: "profile"
            case .list: "to a list"
            }
        return "by \(admitter), \(how)"
    }
}

struct MembersRemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove a member from the whole group: every peer refuses its key from now on.",
        discussion: """
            The removal is a signed operation every peer keeps. It names how far this peerd had seen the \
            member's operations: those stay, with their history; anything its key signs after that counts \
            nowhere, whoever passes it on, and its sessions close. A removed key never comes back; the \
            machine can join again later with a new key. What the member already received stays on its \
            machine. After a removal the group secret admits nobody new until the group sets a new one.
            Also: `peerctl remove NAME` and `peerctl forget NAME`.
            """
    )

    @Argument(help: ArgumentHelp("The member: its name, its id, or the start of its id.", valueName: "member"))
    var member: String

    @OptionGroup var options: ControlOptions

    func run() throws { try Self.remove(member, options: options) }

    static func remove(_ member: String, options: ControlOptions) throws {
        let response = try options.request(RemoveMemberRequest(peer: member))
        guard case .memberRemoved(let removed) = response else { throw Output.unexpected() }
        if options.json { return Output.json(response) }
        let who = removed.name.map { "\($0) (\(removed.peer.short))" } ?? removed.peer.rawValue
        print("removed \(who) from the group: every peer refuses its key from now on")
        let kept = removed.seen == 1 ? "its first operation stays" : "its first \(removed.seen) operations stay"
        print("\(kept); anything it signs after that counts nowhere")
    }
}
