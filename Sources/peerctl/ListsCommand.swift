import ArgumentParser
import PeerdModel
import PeerdWire

struct ListsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lists",
        abstract: "The group's lists: the group's own, which everyone holds, and lists of some members only.",
        discussion: """
            Besides the group's list, which every member holds, the group can keep lists of some of its \
            members: the friends', the kids'. A list's movies, marks, picks and history go only to the \
            machines its members live on (a member's machine, or the one a profile lives on); a machine \
            none of whose members is on it never receives them. Marks are a movie's, not a list's: seen \
            on one list is seen on every list.

            Every command that reads or writes the list takes --list NAME (or PEERCTL_LIST=NAME for a \
            shell); without it, a command acts on the group's list. A list with --max-certification takes \
            no movie certified above it in the group's region.

            Examples:
              peerctl lists
              peerctl lists create friends --members alice,carol
              peerctl lists create kids --members alice,bob,sam --max-certification PG
              peerctl add 603 --list friends
              peerctl list --list kids --unseen
              peerctl --list kids pick
              peerctl lists add-member friends bob
              peerctl lists remove-member friends bob
            """,
        subcommands: [
            ListsShowCommand.self, ListsCreateCommand.self, ListsAddMemberCommand.self, ListsRemoveMemberCommand.self,
        ],
        defaultSubcommand: ListsShowCommand.self
    )

    /// A list's name as `peerctl lists` shows it: the group's own says so.
    static func name(of list: ListRecord) -> String {
        list.isDefault ? "\(list.name) (default)" : list.name
    }

    /// Its members' names, comma-separated.
    static func members(of list: ListRecord) -> String {
        list.members.map { $0.name ?? $0.peer.short }.joined(separator: ", ")
    }
}

struct ListsShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Each list this machine holds: its name, id, members, movies and ceiling."
    )

    @OptionGroup var options: ControlOptions

    func run() throws {
        let response = try options.request(ListsRequest())
        guard case .lists(let lists) = response else { throw Output.unexpected() }
        if options.json { return Output.json(response) }
        var table = Output.Table(["NAME", "ID", "MOVIES", "CEILING", "MEMBERS"])
        for list in lists {
            let name = ListsCommand.name(of: list) + (list.held ? "" : " (no member here: receives nothing)")
            table.add([
                name, list.id?.short ?? "-", "\(list.movies)", list.maxCertification ?? "-",
                ListsCommand.members(of: list),
            ])
        }
        table.print()
        if lists.count <= 1 { print("no other lists yet: `peerctl lists create NAME --members alice,carol` makes one") }
    }
}

struct ListsCreateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Make a list of some of the group's members; you are on it too.",
        discussion: """
            The list's operations go only to the machines its members live on. A member is named as \
            `peerctl members` shows them: a name, an id or the start of one; a profile is a member too.
            """
    )

    @Argument(help: ArgumentHelp("Its name (1 to 64 characters).", valueName: "name"))
    var name: String

    @Option(help: ArgumentHelp("Who is on it besides you, comma-separated.", valueName: "members"))
    var members: String = ""

    @Option(
        help: ArgumentHelp(
            "Take no movie certified above this in the group's region (PG, 12, …).",
            valueName: "certification"
        )
    )
    var maxCertification: String?

    @OptionGroup var options: ControlOptions

    /// `--members`, without blanks (the daemon reads a name with spaces around it as the name).
    var memberNames: [String] {
        members.split(separator: ",").map(String.init).filter { !$0.allSatisfy(\.isWhitespace) }
    }

    func validate() throws {
        guard (1...64).contains(name.count) else { throw ValidationError("a list's name is 1 to 64 characters") }
        if let maxCertification, !(1...16).contains(maxCertification.count) {
            throw ValidationError("--max-certification is 1 to 16 characters, as TMDB writes it: PG, 12, R")
        }
    }

    func run() throws {
        let request = ListCreateRequest(name: name, members: memberNames, maxCertification: maxCertification)
        let response = try options.request(request)
        guard case .listCreated(let list) = response else { throw Output.unexpected() }
        if options.json { return Output.json(response) }
        let ceiling = list.maxCertification.map { ", nothing above \($0)" } ?? ""
        print(
            "\(list.name) is made: \(ListsCommand.members(of: list))\(ceiling). "
                + "Add to it with `peerctl add 603 --list \(Output.shellWord(list.name))`."
        )
    }
}

struct ListsAddMemberCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add-member",
        abstract: "Put a member of the group on a list: their machine receives it from now on."
    )

    @Argument(help: ArgumentHelp("The list's name or id.", valueName: "list")) var list: String
    @Argument(help: ArgumentHelp("The member's name or id.", valueName: "member")) var member: String
    @OptionGroup var options: ControlOptions

    func run() throws { try ListsCommand.change(list, member: member, action: .add, options: options) }
}

struct ListsRemoveMemberCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove-member",
        abstract: "Take a member off a list.",
        discussion: """
            What they write to it from now on counts nowhere. A machine none of whose members is on the \
            list any more stops receiving it; what it held stays there.
            """
    )

    @Argument(help: ArgumentHelp("The list's name or id.", valueName: "list")) var list: String
    @Argument(help: ArgumentHelp("The member's name or id.", valueName: "member")) var member: String
    @OptionGroup var options: ControlOptions

    func run() throws { try ListsCommand.change(list, member: member, action: .remove, options: options) }
}

extension ListsCommand {
    /// Puts `member` on `list` or takes them off it, and says who is on it now.
    static func change(
        _ list: String,
        member: String,
        action: ListMemberRequest.Action,
        options: ControlOptions
    ) throws {
        let response = try options.request(ListMemberRequest(list: list, member: member, action: action))
        guard case .listChanged(let changed) = response else { throw Output.unexpected() }
        if options.json { return Output.json(response) }
        let done = action == .add ? "is on" : "is off"
        print("\(member) \(done) \(changed.name): \(members(of: changed))")
    }
}
