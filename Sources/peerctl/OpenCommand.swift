import ArgumentParser
import PeerdWire

#if canImport(Glibc)
import Glibc
#endif

struct OpenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Open the shared list's page in your browser.",
        discussion: """
            Prints the page's address with the token that lets you in (http://127.0.0.1:7602/#token=…), \
            and opens it with xdg-open when there is a display ($DISPLAY or $WAYLAND_DISPLAY). The token is \
            kept in the daemon's state directory: anyone who has the link gets in, so share it with nobody. \
            The page is off when peerd runs with --no-web.
            """
    )

    @Flag(help: "Only print the address; don't start a browser.")
    var noBrowser = false

    @OptionGroup var options: ControlOptions

    func run() throws {
        guard case .page(let url) = try options.request(PageRequest()) else { throw Output.unexpected() }
        if options.json { return Output.json(ControlResponse.page(url: url)) }
        print(url)
        guard !noBrowser else { return }
        guard Self.hasDisplay else {
            return Output.note(
                "couldn't open a browser: no display ($DISPLAY and $WAYLAND_DISPLAY are unset); "
                    + "open the address above in a browser on this machine"
            )
        }
        if let failure = Self.xdgOpen(url) {
            Output.note("couldn't open a browser (\(failure)); open the address above yourself")
        }
    }

    static var hasDisplay: Bool {
        let names: [String] = ["DISPLAY", "WAYLAND_DISPLAY"]
        return names.contains { name in getenv(name).map { $0.pointee != 0 } ?? false }
    }

    /// Starts `xdg-open URL` and leaves it running; a reason when it can't be started. posix_spawnp
    /// rather than Foundation's Process, which peerctl does not otherwise link.
    static func xdgOpen(_ url: String) -> String? {
        var pid = pid_t()
        let arguments = ["xdg-open", url]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let status = posix_spawnp(&pid, "xdg-open", nil, nil, &argv, environ)
        return status == 0 ? nil : "xdg-open: " + String(cString: strerror(status))
    }
}
