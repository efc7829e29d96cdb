import ArgumentParser
import PeerdModel
import PeerdWire

struct ConnectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "connect",
        abstract: "Dial a peer by address and keep dialing it, also after restarts.",
        discussion:
            "For peers mDNS can't find, e.g. on another subnet. The address is remembered in the state directory."
    )

    @Argument(
        help: ArgumentHelp(
            "The peer's address; the port is \(PeerAddress.defaultPort) when left out.",
            valueName: "host[:port]"
        )
    )
    var address: String

    @OptionGroup var options: ControlOptions

    func validate() throws {
        guard PeerAddress(address) != nil else {
            throw ValidationError(
                "'\(address)' is not an address; use host:port, e.g. 192.168.1.20:7601 or [fe80::1%eth0]:7601"
            )
        }
    }

    func run() throws {
        // The control protocol takes host:port: the default port is filled in here, where people type.
        let response = try options.request(ConnectRequest(address: PeerAddress(address)!.description))
        guard case .connecting(let address) = response else { throw Output.unexpected() }
        if options.json {
            Output.json(response)
        } else {
            print("connecting to \(address); `peerctl peers` shows when it is up")
        }
    }
}
