import ArgumentParser
import PeerdQR
import PeerdWire

#if canImport(Glibc)
import Glibc
#endif

struct DeviceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device",
        abstract: "Link a phone, tablet or TV browser to a member: the member's page, on that device, over the LAN.",
        discussion: """
            A linked device is a member's remote. `peerctl device link` prints a link and a QR code; the \
            phone that opens it (on the same network) gets the member's page: the list, marks, search, \
            Discover, Tonight. Everything it does is that member's, made by this machine. The link holds \
            128 secret bits and works once, for one device, until it expires; the device then keeps a \
            capability of its own, which works only from the address it linked from.

            This machine serves devices on its LAN address (port 7604) only while one is linked or a link \
            is pending. `peerctl device unlink` ends a device's access at once, its open page included; so \
            does removing its member, or this machine, from the group.

            Examples:
              peerctl device link                      (a device of this machine's member)
              peerctl --profile sam device link        (a device of sam, a profile here)
              peerctl device link --name "living-room TV" --expires 30m
              peerctl device list
              peerctl device unlink "sam's phone"
            """,
        subcommands: [DeviceLinkCommand.self, DeviceListCommand.self, DeviceUnlinkCommand.self],
        defaultSubcommand: DeviceListCommand.self
    )
}

struct DeviceLinkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "link",
        abstract: "Print a one-use link (and its QR code) that makes the phone that opens it a linked device.",
        discussion: """
            Open the link on the phone, or scan the code with its camera; the phone must be on the same \
            network as this machine. The device acts for the member the request names (--profile before \
            the subcommand, or PEERCTL_PROFILE), else for this machine's member. It is named after the \
            member and the kind of browser ("alice's phone", "sam's TV") unless --name names it. \
            Anyone who opens the link first gets the device: show it only to the phone it is for.
            """
    )

    @Option(help: ArgumentHelp("The device's name. (default: the member's phone, tablet, TV or browser)"))
    var name: String?

    @Option(
        help: ArgumentHelp(
            "How long the link stays valid: 30s, 10m, 2h, or minutes; at most 24h.",
            valueName: "duration"
        )
    )
    var expires = "10m"

    @OptionGroup var options: ControlOptions

    func validate() throws {
        guard let seconds = Self.seconds(expires), (1...86_400).contains(seconds) else {
            throw ValidationError("--expires is a duration like 30s, 10m or 2h, at most 24h; not '\(expires)'")
        }
    }

    func run() throws {
        let response = try options.request(DeviceLinkRequest(name: name, expiresIn: Self.seconds(expires)))
        guard case .deviceLink(let link) = response else { throw Output.unexpected() }
        if options.json { return Output.json(response) }
        print("Open this link on the phone, or scan the code with its camera:")
        print("  \(link.url)")
        if let code = QRCode(link.url) { print(code.terminalText(colors: isatty(STDOUT_FILENO) == 1)) }
        let device = link.name.map { "\"\($0)\", a device of \(link.member)" } ?? "a device of \(link.member)"
        print("It makes \(device). Valid once, until \(Output.clockTime(link.expiresAt)).")
    }

    /// `30s`, `10m`, `2h`, or a number of minutes, in seconds.
    static func seconds(_ text: String) -> Int? {
        let units: [Character: Int] = ["s": 1, "m": 60, "h": 3600]
        if let unit = text.last.flatMap({ units[$0] }) { return Int(text.dropLast()).map { $0 * unit } }
        return Int(text).map { $0 * 60 }
    }
}

struct DeviceListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "The linked devices: name, member, last seen, the address each works from."
    )

    @OptionGroup var options: ControlOptions

    func run() throws {
        let response = try options.request(DeviceListRequest())
        guard case .devices(let devices) = response else { throw Output.unexpected() }
        if options.json { return Output.json(response) }
        guard !devices.devices.isEmpty else {
            return print("No device is linked. Link one with: peerctl device link")
        }
        var table = Output.Table(["NAME", "MEMBER", "LAST SEEN", "ADDRESS", "ID"])
        for device in devices.devices {
            table.add([
                device.name, device.member, device.lastSeen.map(Output.stamp) ?? "never", device.address, device.id,
            ])
        }
        table.print()
    }
}

struct DeviceUnlinkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unlink",
        abstract: "End a device's access at once: its open page stops, and its next request is refused.",
        discussion: "To use the device again, link it again with `peerctl device link`."
    )

    @Argument(
        help: ArgumentHelp("The device: its name (as `peerctl device list` shows it) or its id.", valueName: "device")
    )
    var device: String

    @OptionGroup var options: ControlOptions

    func run() throws {
        let response = try options.request(DeviceUnlinkRequest(device: device))
        guard case .deviceUnlinked(let unlinked) = response else { throw Output.unexpected() }
        if options.json { return Output.json(response) }
        print("unlinked \(unlinked.name)")
    }
}
