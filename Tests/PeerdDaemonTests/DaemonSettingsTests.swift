import Foundation
import PeerdModel
import Testing

@testable import PeerdDaemon

/// ``DaemonSettings``: one type for the flags and the file, checked once in the words of each.
@Suite("Settings, from flags and file alike")
struct DaemonSettingsTests {
    @Test func eachSettingsFlagIsTheKeySpelledAsAFlag() {
        let flags = Dictionary(uniqueKeysWithValues: DaemonSettings.Key.allCases.map { ($0, $0.flag) })
        #expect(flags[.guestPort] == "--guest-port")
        #expect(flags[.tmdbURL] == "--tmdb-url")
        #expect(flags[.webAddresses] == "--web-address")
        #expect(flags[.peers] == "--peer")
        #expect(flags[.mdns] == "--no-mdns" && flags[.guests] == "--no-guests")
    }

    @Test func docsUsageNamesEverySettingsFlag() throws {
        let usage = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../docs/USAGE.md").standardizedFileURL
        let text = try String(contentsOf: usage, encoding: .utf8)
        for key in DaemonSettings.Key.allCases {
            #expect(text.contains("`\(key.flag)"), "docs/USAGE.md lists \(key.flag)")
        }
    }

    @Test func aValueOutOfBoundsIsSaidAsTheFlagOrTheKeyThatGaveIt() {
        var settings = DaemonSettings()
        settings.guestPort = 70_000
        #expect(settings.problem(naming: \.flag) == "--guest-port must be between 0 and 65535")
        #expect(settings.problem(naming: \.rawValue) == "guestPort must be between 0 and 65535")
        settings.guestPort = nil
        settings.webAddresses = [""]
        #expect(settings.problem(naming: \.flag) == "--web-address must name at least one address, none empty")
        settings.webAddresses = nil
        #expect(settings.problem(naming: \.flag) == nil)
    }

    @Test func theFlagsWinOverTheFileAndPeersAddUp() {
        var flags = DaemonSettings()
        flags.port = 7611
        flags.mdns = false
        flags.peers = [PeerAddress("10.0.0.1:7601")!]
        var file = DaemonSettings()
        file.port = 7601
        file.name = "den"
        file.mdns = true
        file.peers = [PeerAddress("10.0.0.2:7601")!]
        let merged = flags.overriding(file)
        #expect(merged.port == 7611 && merged.name == "den" && merged.mdns == false)
        #expect(merged.peers == flags.peers + file.peers)
        #expect(DaemonSettings.Key.allCases.filter { merged.differs(in: $0, from: file) } == [.port, .mdns, .peers])
    }
}
