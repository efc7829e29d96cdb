import ArgumentParser
import PeerdModel
import PeerdWire

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

struct IdCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "id",
        abstract: "Print this daemon's peer id: the fingerprint of its key.",
        discussion: """
            Another member can trust this exact key with `peerctl trust <id>`; compare it out loud \
            when pairing by hand.
            """
    )

    @OptionGroup var options: ControlOptions

    func run() throws {
        guard case .status(let status) = try options.request(StatusRequest()) else { throw Output.unexpected() }
        if options.json { return Output.json(["peer": status.peer.rawValue]) }
        print(status.peer.rawValue)
    }
}

struct InviteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "invite",
        abstract: "Make a one-time code that lets another machine join this daemon's group.",
        discussion: """
            Run `peerctl join <code>` on the other machine. The code holds 128 bits of secret and this \
            peer's id; it works once, until it expires, and is forgotten when peerd restarts. Anyone \
            who sees the code before it is used can join with it: pass it on privately.

            When the group has a relay (`peerctl relay`), the code is longer (wl2-…): it also says \
            which relay to ask for this peer, so it works from another house too.
            """
    )

    @Option(help: ArgumentHelp("How long the code stays valid, in minutes.", valueName: "minutes"))
    var expires: Int = 10

    @OptionGroup var options: ControlOptions

    func validate() throws {
        guard (1...1440).contains(expires) else { throw ValidationError("--expires must be 1 to 1440 minutes") }
    }

    func run() throws {
        let response = try options.request(InviteRequest(expiresIn: expires * 60))
        guard case .invite(let code, let expiresAt) = response else { throw Output.unexpected() }
        if options.json { return Output.json(response) }
        print(code)
        print("On the other machine run:  peerctl join \(code)")
        print("Valid once, until \(Output.clockTime(expiresAt)).")
    }
}

struct JoinCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "join",
        abstract: "Pair with the daemon that printed an invite code, and so join its group.",
        discussion: """
            The inviter is found on the LAN over mDNS, or through the relay a wl2-… code names (a \
            group with a relay makes those); if it is elsewhere, give its address. peerctl \
            waits until the two have paired (up to 20 s). From then on each trusts the other's key, \
            and the group's other members are introduced. A code the inviter refuses (used already, \
            expired, made before its peerd restarted) ends the wait at once with why, trusting nobody.
            """
    )

    @Argument(help: ArgumentHelp("The code `peerctl invite` printed.", valueName: "code"))
    var code: String

    @Option(
        help: ArgumentHelp(
            "The inviter's address, if mDNS can't find it; the port is \(PeerAddress.defaultPort) when left out.",
            valueName: "host[:port]"
        )
    )
    var address: String?

    @OptionGroup var options: ControlOptions

    func validate() throws {
        if let address, PeerAddress(address) == nil {
            throw ValidationError("'\(address)' is not an address; use host:port, e.g. 192.168.1.20:7601")
        }
    }

    func run() throws {
        // The control protocol takes host:port: the default port is filled in here, where people type.
        let response = try options.request(
            JoinRequest(code: code, address: address.map { PeerAddress($0)!.description })
        )
        guard case .joined(let peer, let name, let members) = response else { throw Output.unexpected() }
        if options.json { return Output.json(response) }
        let peers = members == 1 ? "1 peer" : "\(members) peers"
        print("paired with \(name ?? peer.short) (\(peer.rawValue)); this daemon now trusts \(peers)")
    }
}

struct ForgetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forget",
        abstract: "Remove a member from the whole group (the same as `peerctl members remove`).",
        discussion: """
            forget used to stop trusting a peer on this machine only; it now removes it for the whole \
            group: every peer refuses its key from now on, whoever relays it. See `peerctl members remove --help`.
            """
    )

    @Argument(help: ArgumentHelp("Its name, its id, or the start of its id.", valueName: "peer"))
    var peer: String

    @OptionGroup var options: ControlOptions

    func run() throws {
        let response = try options.request(ForgetRequest(peer: peer))
        guard case .forgotten(let id, let name) = response else { throw Output.unexpected() }
        if options.json { return Output.json(response) }
        print("removed \(name ?? id.short) (\(id.rawValue)) from the group: every peer refuses its key from now on")
    }
}

struct TrustCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trust",
        abstract: "Trust a peer by its id (its key's fingerprint), as printed by `peerctl id` there.",
        discussion: """
            Pairing by hand, without a code. The admission is recorded in the group's log. A key removed \
            from the group can't be trusted again: that machine joins with a new key.
            """
    )

    @Argument(help: ArgumentHelp("The peer's full id: 32 hex digits.", valueName: "peer-id"))
    var peer: String

    @OptionGroup var options: ControlOptions

    func run() throws {
        let response = try options.request(TrustRequest(peer: peer))
        guard case .trusted(let id) = response else { throw Output.unexpected() }
        if options.json { return Output.json(response) }
        print("trusting \(id.rawValue)")
    }
}
