import PeerdDoctor
import PeerdWire
import Testing

/// `peerctl doctor`'s relay and overlay checks (proto/PEERCTL-JSON.md, "peerctl doctor").
@Suite("peerctl doctor: relays and overlays")
struct DoctorRelayTests {
    static let url = "relay://198.51.100.10:22067/?id=LGUX5N2-VZDRFGK-MXHB3EH-G4ATS3X-FGJP5UD-NFS5LGC-AGVFQWW-S3HF4QG"

    @Test func aGroupWithoutARelayIsSkippedAndAnOlderDaemonIsNotChecked() {
        var scene = DoctorScene()
        #expect(scene.only(.relay)?.status == .skip, "no `relays` in the diagnosis: an older daemon")
        #expect(scene.only(.relay)?.summary.contains("older than relays") == true)
        scene.diagnosis.relays = []
        #expect(scene.only(.relay)?.status == .skip)
        #expect(scene.only(.relay)?.summary.contains("peerctl relay --help") == true)
    }

    @Test func aJoinedRelayPassesWithItsRoundTripAndSessions() {
        var scene = DoctorScene()
        let relay = RelayRecord(
            url: Self.url,
            address: "198.51.100.10:22067",
            state: .joined,
            joinedSince: DoctorScene.now - 5_000,
            latencyMs: 11.6,
            sessions: 2
        )
        scene.diagnosis.relays = [relay]
        let check = scene.only(.relay)
        #expect(check?.status == .pass)
        #expect(
            check?.summary == "joined the relay 198.51.100.10:22067: reachable, 12 ms round trip, 2 sessions through it"
        )
    }

    @Test func aRelayThatCantBeJoinedFailsWithWhyAndWhatToTry() {
        var scene = DoctorScene()
        scene.diagnosis.relays = [
            RelayRecord(
                url: Self.url,
                address: "198.51.100.10:22067",
                state: .retrying,
                lastError: "could not reach the relay: connection refused",
                retryIn: 3.6
            ),
            RelayRecord(url: "relay://[2001:db8::7]:22067/", address: "[2001:db8::7]:22067", state: .joined),
        ]
        let checks = scene.checks(.relay)
        #expect(checks.map(\.status) == [.fail, .pass])
        #expect(checks[0].summary == "can't join the relay 198.51.100.10:22067 (peerd tries again in 4 s)")
        #expect(checks[0].cause == "could not reach the relay: connection refused")
        #expect(checks[0].fix?.contains("nc -vz 198.51.100.10 22067") == true)
        #expect(checks[1].summary.contains("no ping answered yet"))
    }

    @Test(arguments: ["tailscale0", "wg0", "wg-home", "zt3jnwxn5r"])
    func anOverlayInterfaceIsNamedWithTheAdviceToNameItsPeers(name: String) {
        var scene = DoctorScene()
        #expect(scene.only(.overlay)?.status == .skip)
        scene.local.interfaces.append(NetworkInterface(name: name, flags: 0x11, hasAddress: true))
        let check = scene.only(.overlay)
        #expect(check?.status == .pass)
        #expect(check?.summary.hasPrefix("\(name) is an overlay network: mDNS does not cross it") == true)
        #expect(check?.summary.contains("peerctl connect 100.x.y.z:7601") == true)
    }

    @Test func anOverlayThatIsDownOrHasNoAddressIsNotReported() {
        var scene = DoctorScene()
        scene.local.interfaces += [
            NetworkInterface(name: "tailscale0", flags: 0x10, hasAddress: true),
            NetworkInterface(name: "wg0", flags: 0x11, hasAddress: false),
        ]
        #expect(scene.only(.overlay)?.status == .skip)
    }
}
