import ArgumentParser
import PeerControl
import PeerdWire

/// Options every subcommand shares: where the daemon is, and how to print.
struct ControlOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The daemon's control socket.",
            discussion: "Default: $PEERD_SOCKET, else $XDG_RUNTIME_DIR/peerd/control.sock.",
            valueName: "path"
        )
    )
    var socket: String?

    @Option(
        help: ArgumentHelp(
            "Act as this profile: a member who lives on this machine (`peerctl profile list`).",
            discussion: "Default: $PEERCTL_PROFILE, else this machine's own member.",
            valueName: "name"
        )
    )
    var profile: String?

    @Option(
        help: ArgumentHelp(
            "Read and write this list: its name, or its id (`peerctl lists`).",
            discussion: "Default: $PEERCTL_LIST, else the group's list, which every member holds.",
            valueName: "name"
        )
    )
    var list: String?

    @Flag(help: "Print JSON instead of text, for scripts.")
    var json = false

    var socketPath: String { socket ?? PeerdEnvironment.current.defaultSocketPath }

    /// `--profile`, else `$PEERCTL_PROFILE` when set and not empty.
    var actingProfile: String? { profile ?? Self.variable("PEERCTL_PROFILE") }

    /// `--list`, else `$PEERCTL_LIST` when set and not empty.
    var actingList: String? { list ?? Self.variable("PEERCTL_LIST") }

    /// `--list` as a next page's command repeats it (a cursor is its list's); empty without one.
    var listArgument: String { list.map { " --list \(Output.shellWord($0))" } ?? "" }

    /// The environment variable `name`, when set and not empty.
    private static func variable(_ name: String) -> String? {
        PeerdEnvironment.current.variables[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Connects, or exits 69 (EX_UNAVAILABLE) with a message that says how to start the daemon.
    func connect() throws -> ControlClient {
        do {
            let client = try ControlClient(socketPath: socketPath)
            client.profile = actingProfile
            client.list = actingList
            return client
        } catch {
            Output.error(error.description)
            throw ExitCode(69)
        }
    }

    /// Sends one request; a refusal from the daemon is printed and exits 1.
    func request(_ body: some ControlRequestBody) throws -> ControlResponse { try request(ControlRequest(body)) }

    /// Sends one request; a refusal from the daemon is printed and exits 1.
    func request(_ request: ControlRequest) throws -> ControlResponse {
        let client = try connect()
        let response: ControlResponse
        do {
            response = try client.request(request)
        } catch {
            Output.error(error.description)
            throw ExitCode(69)
        }
        if case .error(let error) = response {
            if json { Output.json(response) } else { Output.error(error.message) }
            throw ExitCode(1)
        }
        return response
    }

    /// Every row of the list, page by page (the daemon keeps each page under the frame limit).
    func everyRow() throws -> [MovieRecord] {
        var rows: [MovieRecord] = []
        var cursor: String?
        repeat {
            guard case .list(let page, _, let next) = try request(ListRequest(limit: nil, after: cursor)) else {
                throw Output.unexpected()
            }
            rows += page
            cursor = next
        } while cursor != nil
        return rows
    }
}
