import ArgumentParser
import PeerdModel
import PeerdWire

struct ServicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "services",
        abstract: "Show or set the group's region and the streaming services it pays for.",
        discussion: """
            One setting for the whole group: any member may change it, and the newest change wins on \
            every peer. The region decides where `peerctl show` tells you to watch a movie; the services \
            are what `peerctl list --streaming` keeps. Until someone sets a region, each peer uses its \
            TMDB language's (en-US: US).

            Name services as TMDB does, in any letter case (netflix, "disney plus", mubi), or by \
            TMDB's provider id. Names are looked up through the daemon's TMDB token or a connected \
            peer that holds one. When the region changes, the listed movies' providers are fetched again.

            Examples:
              peerctl services                           show them
              peerctl services --region DE netflix mubi  set both
              peerctl services --region FR               a new region, the same services
              peerctl services --clear                   no services
            """
    )

    @Option(help: ArgumentHelp("The group's country: a two-letter code such as US or DE.", valueName: "code"))
    var region: String?

    @Flag(help: "Forget the group's services (the region stays).")
    var clear = false

    @Argument(help: ArgumentHelp("The services the group pays for: they replace the current ones.", valueName: "name"))
    var names: [String] = []

    @OptionGroup var options: ControlOptions

    func validate() throws {
        if clear, !names.isEmpty { throw ValidationError("--clear takes no service names") }
        if let region, region.count != 2 || !region.allSatisfy({ $0.isASCII && $0.isLetter }) {
            throw ValidationError("--region takes a two-letter country code, like US or DE")
        }
    }

    func run() throws {
        let request = ServicesRequest(region: region, services: clear ? [] : names.isEmpty ? nil : names)
        let response = try options.request(request)
        guard case .services(let record) = response else { throw Output.unexpected() }
        if options.json { return Output.json(response) }
        print(Self.describe(record))
    }

    static func describe(_ record: ServicesRecord) -> String {
        var region = "region:   \(record.region)"
        switch record.regionFrom {
        case .group:
            if let by = record.setBy, let at = record.setAt {
                region += "  (set by \(by) \(Output.duration(Double(Output.nowMillis() - at) / 1_000)) ago)"
            }
        case .language:
            region += "  (from this peer's TMDB language: nobody set the group's yet)"
        }
        let services =
            record.services.isEmpty
            ? "services: none yet; name them with `peerctl services --region \(record.region) netflix mubi`"
            : "services: " + record.services.map { "\($0.name) (\($0.id))" }.joined(separator: ", ")
        return region + "\n" + services
    }
}
