import ArgumentParser
import PeerdWire

@main
struct Peerctl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "peerctl",
        abstract: "Add, remove and list movies on the watch list you share with nearby peerd daemons.",
        discussion: """
            peerctl talks to the local peerd over its control socket. Changes are saved on disk before \
            peerctl reports them, and reach every connected peer right away.

            Examples:
              peerctl add 603
              peerctl add https://www.themoviedb.org/movie/550-fight-club
              peerctl add "the matrix 1999"          (a title: needs a TMDB token on the daemon)
              peerctl search matrix
              peerctl discover --trending week
              peerctl similar 603
              peerctl show 603
              peerctl want 603                        (your marks: want, seen, rate, veto, unmark)
              peerctl watched 603 --with alice,bob
              peerctl list --unseen --sort wants
              peerctl history
              peerctl pick                            (choose tonight's movie together; vote yes|no)
              peerctl import letterboxd-export.zip    (or IMDb, TMDB, Trakt files; export writes them)
              peerctl list
              peerctl list --follow
              peerctl peers
              peerctl members                         (everyone in the group; removed ones too)
              peerctl profile add sam                 (a member who lives on this machine)
              peerctl --profile sam want 550          (act as sam; or PEERCTL_PROFILE=sam)
              peerctl lists create kids --members alice,sam --max-certification PG
              peerctl add 603 --list kids             (or PEERCTL_LIST=kids for a shell)
              peerctl remove 550                      (a movie; peerctl remove carol removes a member)
              peerctl open                            (the list as a page in your browser)
              peerctl device link                     (the list on your phone: a link and a QR code)
              peerctl doctor                          (why peers don't find each other)
              peerctl relay add relay://203.0.113.7:22067/?id=…   (friends in another house)

            Exit status: 0 on success, 1 when peerd refuses a request, 64 for bad arguments, \
            65 for a file import can't read, 69 when no peerd answers on the socket, 73 when a file \
            can't be written.
            """,
        version: PeerdVersion.current,
        subcommands: [
            AddCommand.self, RemoveCommand.self, ListCommand.self, PeersCommand.self, StatusCommand.self,
            ConnectCommand.self, IdCommand.self, InviteCommand.self, JoinCommand.self, MembersCommand.self,
            ProfileCommand.self, ListsCommand.self, ForgetCommand.self,
            TrustCommand.self, SearchCommand.self, DiscoverCommand.self, GenresCommand.self, SimilarCommand.self,
            ShowCommand.self, ServicesCommand.self, RefreshCommand.self, WantCommand.self, SeenCommand.self,
            RateCommand.self, VetoCommand.self, UnmarkCommand.self, WatchedCommand.self, HistoryCommand.self,
            PickCommand.self, VoteCommand.self, NewsCommand.self, ImportCommand.self, ExportCommand.self,
            RelayCommand.self,
            DeviceCommand.self, OpenCommand.self, DoctorCommand.self,
        ]
    )

    /// Accepted before the subcommand too (`peerctl --socket /tmp/a.sock list`); shared with it.
    @OptionGroup var options: ControlOptions
}
