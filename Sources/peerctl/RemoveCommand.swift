import ArgumentParser
import PeerControl
import PeerdModel
import PeerdTitles
import PeerdWire

struct RemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove a movie from the shared list, for every peer (or a member from the group).",
        discussion: """
            MOVIE is \(MovieWords.accepted); a title names a movie on the list. The removal is itself recorded and shared; adding the \
            movie again later brings it back.

            A member's name or id instead of a movie removes that member from the whole group, as \
            `peerctl members remove` does (see its --help). A word that names both a listed movie and a \
            member removes nothing: use the movie's id, or `peerctl members remove`.
            """
    )

    @Argument(help: MovieWords.help("The movie to remove"))
    var movie: [String]

    @OptionGroup var options: ControlOptions

    func validate() throws { _ = try MovieWords(movie) }

    func run() throws {
        let words = try MovieWords(movie)
        if case .title(let title) = words.wanted, let member = try Self.member(named: words.text, options: options) {
            let listed = try options.everyRow().filter { title.names($0.title, year: $0.year) }
            guard listed.isEmpty else {
                Output.error(
                    "'\(words.text)' names both a movie on the list and a member; nothing was removed. Say which:"
                )
                for row in listed { Output.note("  peerctl remove \(row.movieId)    \(Output.describe(row))") }
                Output.note("  peerctl members remove \(member.peer.rawValue)    the member \(member.name ?? "")")
                throw ExitCode(1)
            }
            return try MembersRemoveCommand.remove(member.peer.rawValue, options: options)
        }
        let named = try words.movie(options, command: "remove", done: "removed", listOnly: true)
        let response = try options.request(RemoveRequest(movie: named.id))
        guard case .removed(let movie, _) = response else { throw Output.unexpected() }
        if options.json {
            Output.json(response)
        } else {
            print("removed \(Output.describe(movie))")
        }
    }

    /// The member of the group (not yet removed) that `text` names exactly: its name, its id, or
    /// 8 or more of its id's first digits; nil when it names none.
    static func member(named text: String, options: ControlOptions) throws -> MemberRecord? {
        guard case .members(let group) = try options.request(MembersRequest()) else { throw Output.unexpected() }
        let wanted = text.lowercased()
        return group.members.first { member in
            guard member.state == .member, !member.here else { return false }
            return member.name?.lowercased() == wanted
                || (wanted.count >= 8 && member.peer.rawValue.hasPrefix(wanted))
        }
    }
}
