import ArgumentParser
import PeerdModel
import PeerdWire

struct ProfileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile",
        abstract: "Members who live on this machine: a kid, a housemate without a computer.",
        discussion: """
            A profile is a member of the group like any other: its marks, votes and history are its own and \
            show with its name on every peer. It has a key of its own, which this peerd keeps and signs with, \
            and the group can remove it alone (`peerctl members remove NAME`). `peerctl members` shows where \
            each profile lives.

            Act as a profile with `peerctl --profile sam want 550`, or set PEERCTL_PROFILE=sam for a shell. \
            The page's "who's watching" switch does the same.

            Examples:
              peerctl profile add sam
              peerctl --profile sam want 550
              peerctl watched 550 --with sam
              peerctl profile list
            """,
        subcommands: [ProfileListCommand.self, ProfileAddCommand.self, ProfileRemoveCommand.self],
        defaultSubcommand: ProfileListCommand.self
    )
}

struct ProfileListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "This machine's own member and the profiles that live on it."
    )

    @OptionGroup var options: ControlOptions

    func run() throws {
        let response = try options.request(ProfilesRequest())
        guard case .members(let here) = response else { throw Output.unexpected() }
        if options.json { return Output.json(response) }
        var table = Output.Table(["NAME", "PEER", "STATUS", "SINCE"])
        for member in here.members {
            let role = member.here ? " (this machine's own)" : ""
            table.add([
                (member.name ?? "-") + role, member.peer.short, MembersListCommand.status(of: member),
                member.since.map(Output.stamp) ?? "-",
            ])
        }
        table.print()
        if here.members.count == 1 { print("no profiles yet: `peerctl profile add NAME` makes one") }
    }
}

struct ProfileAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Make a profile: a member who lives on this machine.",
        discussion: """
            This peerd makes a key for it, keeps it in its state directory, and records in the group's log \
            that this machine admitted it, so every peer knows the new member and where it lives.
            """
    )

    @Argument(help: ArgumentHelp("Its name, as the group will see it (1 to 64 characters).", valueName: "name"))
    var name: String

    @OptionGroup var options: ControlOptions

    func run() throws {
        let response = try options.request(AddProfileRequest(name: name))
        guard case .profileAdded(let profile) = response else { throw Output.unexpected() }
        if options.json { return Output.json(response) }
        print("\(profile.name ?? name) (\(profile.peer.short)) now lives on this machine and is a member of the group")
        let word = profile.name ?? name
        print("act as \(word): peerctl --profile \(Output.shellWord(word)) want 550")
    }
}

struct ProfileRemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove a profile from the whole group (the same as `peerctl members remove NAME`)."
    )

    @Argument(help: ArgumentHelp("The profile's name or id.", valueName: "name"))
    var name: String

    @OptionGroup var options: ControlOptions

    func run() throws { try MembersRemoveCommand.remove(name, options: options) }
}
