import Foundation
import PeerdDoctor
import PeerdModel
import PeerdWire
import Testing

/// `peerctl doctor`'s checks, from the facts it gathers: each fault names its cause and its fix.
@Suite("peerctl doctor")
struct DoctorTests {
    typealias Scene = DoctorScene

    @Test func onAHealthyLANEveryCheckPassesOrSkips() {
        let checks = Scene().checks
        #expect(Set(checks.map(\.id)) == Set(DoctorCheck.ID.allCases))
        #expect(!checks.contains { $0.status == .fail }, "\(checks.filter { $0.status == .fail })")
        #expect(Scene().only(.systemd)?.status == .skip)
        #expect(DoctorReport(checks: checks).ok)
    }

    @Test func withoutTheDaemonItSaysHowToStartItAndSkipsWhatNeedsIt() throws {
        var scene = Scene()
        scene.daemonAnswers = false
        let daemon = try #require(scene.only(.daemon))
        #expect(daemon.status == .fail && daemon.fix?.contains("systemctl --user start peerd") == true)
        for id in [DoctorCheck.ID.avahi, .registered, .mdnsNames, .peersSeen, .peerReach, .inboundOnly, .clock] {
            #expect(scene.only(id)?.status == .skip, "\(id)")
        }
        #expect(scene.only(.multicast)?.status == .pass && scene.only(.firewall)?.status == .pass)
        #expect(!DoctorReport(checks: scene.checks).ok)
    }

    @Test func aStoppedAvahiDaemonIsNamedWithHowToStartIt() throws {
        var scene = Scene()
        scene.diagnosis.discovery = DiscoveryRecord(
            mdns: true,
            avahi: .connecting,
            avahiError: "avahi-daemon is not running",
            registered: false,
            selfSeen: false
        )
        let avahi = try #require(scene.only(.avahi))
        #expect(avahi.status == .fail)
        #expect(avahi.fix?.contains("avahi-daemon") == true && avahi.fix?.contains("systemctl start") == true)
        for id in [DoctorCheck.ID.registered, .mdnsNames, .peersSeen] {
            #expect(scene.only(id)?.status == .skip && scene.only(id)?.summary.contains("Avahi isn't running") == true)
        }
    }

    @Test func withDiscoveryOffTheMDNSChecksSaySo() {
        var scene = Scene()
        scene.diagnosis.discovery = .off
        for id in [DoctorCheck.ID.avahi, .registered, .mdnsNames, .peersSeen] {
            #expect(scene.only(id)?.status == .skip && scene.only(id)?.summary.contains("discovery is off") == true)
        }
    }

    @Test func aFirewallDroppingMDNSIsNamedWithItsRuleAndTheFixAndComesFirstForPeersSeen() throws {
        var scene = Scene()
        let rule = FirewallRuleset.Rule(
            matches: [.destinationPort([5353...5353], proto: "udp", negated: false)],
            verdict: .drop,
            handle: 7
        )
        let input = FirewallRuleset.Chain(
            family: "inet",
            table: "filter",
            name: "input",
            isInput: true,
            policy: nil,
            rules: [rule]
        )
        scene.local.firewall = .rules([FirewallRuleset(tool: .nftables, chains: [input])])
        scene.diagnosis.discovery.services = []
        let firewall = try #require(scene.only(.firewall))
        #expect(firewall.status == .fail && firewall.summary.contains("UDP 5353"))
        #expect(firewall.cause?.contains("table inet filter, chain input: rule handle 7") == true)
        #expect(firewall.fix?.contains("sudo nft insert rule inet filter input udp dport 5353 accept") == true)
        let seen = try #require(scene.only(.peersSeen))
        #expect(seen.status == .fail && seen.fix?.hasPrefix("First: this machine's firewall drops UDP 5353") == true)
        #expect(seen.fix?.contains("isolation") == true)
    }

    @Test func anUnreadableFirewallIsACheckThatCouldNotRun() {
        var scene = Scene()
        scene.local.firewall = .unreadable("needs root (sudo peerctl doctor)")
        let firewall = scene.only(.firewall)
        #expect(firewall?.status == .skip)
        #expect(firewall?.summary == "couldn't read the firewall rules: needs root (sudo peerctl doctor)")
    }

    @Test func noPeerSeenAlthoughOneIsKnownListsTheUsualCauses() throws {
        var scene = Scene()
        scene.diagnosis.discovery.services = []
        scene.peers[0].source = .static
        let seen = try #require(scene.only(.peersSeen))
        #expect(seen.status == .fail && seen.summary.contains("although 1 known: bob"))
        for cause in ["5353", "isolation", "VLAN", "avahi-daemon"] { #expect(seen.fix?.contains(cause) == true) }
    }

    @Test(
        arguments: [
            (Scene.dial(.tcp, .timeout), "firewall"), (Scene.dial(.tcp, .refused), "nothing listens"),
            (Scene.dial(.tcp, .unreachable), "isolation"), (Scene.dial(.tls, .tlsFailed), "peerd"),
            (Scene.dial(.admission, .notMember, by: .peer), "invite"),
            (Scene.dial(.admission, .notMember, by: .us), "invite"),
        ] as [(DialRecord, String)]
    )
    func aPeerSeenButNotConnectedSaysHowFarDialingItGot(dial: DialRecord, word: String) throws {
        var scene = Scene()
        scene.bobUnreachable(dial)
        let reach = try #require(scene.only(.peerReach))
        #expect(reach.status == .fail && reach.peer == Scene.bob.rawValue && reach.name == "bob")
        #expect(((reach.cause ?? "") + " " + (reach.fix ?? "")).contains(word), "\(reach)")
    }

    @Test(arguments: [DialRecord.Refuser.peer, .us], [DialRecord.Outcome.notMember, .revoked])
    func aRefusalNamesThePeerWithTheAddressItWasDialedAt(by: DialRecord.Refuser, outcome: DialRecord.Outcome) throws {
        var scene = Scene()
        scene.bobUnreachable(Scene.dial(.admission, outcome, by: by))
        let reach = try #require(scene.only(.peerReach))
        #expect(reach.summary.contains("bob (b0b00000) at 10.0.0.2:7601"), "\(reach.summary)")
    }

    @Test func aRevokedPeerSaysWhoRevokedWhomAndHowToUndoIt() throws {
        var scene = Scene()
        scene.bobUnreachable(Scene.dial(.admission, .revoked, by: .peer))
        let theirs = try #require(scene.only(.peerReach))
        #expect(theirs.summary.contains("revoked") && theirs.fix?.contains("peerctl trust \(Scene.alice)") == true)

        var ours = Scene()
        ours.bobUnreachable(Scene.dial(.admission, .revoked, by: .us))
        let mine = try #require(ours.only(.peerReach))
        #expect(mine.summary.contains("revoked") && mine.fix?.contains("peerctl trust \(Scene.bob)") == true)
    }

    @Test func aPeerPresentingAnotherKeyIsTold() throws {
        var scene = Scene()
        var dial = Scene.dial(.admission, .keyMismatch, by: .us)
        dial.peer = Scene.carol
        scene.bobUnreachable(dial)
        let reach = try #require(scene.only(.peerReach))
        #expect(reach.summary.contains("another key") && reach.cause?.contains(Scene.carol.short) == true)
    }

    @Test func aPeerRefusedWhenItDialedUsIsNamedUntilItConnectsFromThatHost() throws {
        var scene = Scene()
        scene.diagnosis.refusals = [
            RefusalRecord(
                address: "10.0.0.3:51000",
                peer: Scene.carol,
                at: Scene.now - 1_000,
                code: .notMember,
                message: ""
            )
        ]
        let reach = try #require(scene.checks(.peerReach).first { $0.peer == Scene.carol.rawValue })
        #expect(reach.status == .fail && reach.fix?.contains("invite") == true)

        scene.diagnosis.sessions.append(
            SessionRecord(
                peer: PeerID("ca402000000000000000000000000004")!,
                name: "carol",
                address: "10.0.0.3:52000",
                port: 7601,
                direction: .inbound,
                since: Scene.now,
                skewMs: 0
            )
        )
        #expect(
            !scene.checks(.peerReach).contains { $0.status == .fail },
            "carol's host connected since, with a new key"
        )
    }

    @Test func aRefusalOfAPeerThatStoppedTryingNoLongerStands() throws {
        var scene = Scene()
        let refusal = RefusalRecord(address: "10.0.0.3:51000", peer: Scene.carol, at: 0, code: .notMember, message: "")
        for (age, stands) in [(Int64(60_000), true), (Int64(120_000), false)] {
            var refused = refusal
            refused.at = scene.diagnosis.at - age
            scene.diagnosis.refusals = [refused]
            let failed = scene.checks(.peerReach).contains { $0.peer == Scene.carol.rawValue && $0.status == .fail }
            #expect(failed == stands, "a refusal \(age / 1000) s old")
        }
    }

    @Test func aPeerAnnouncedWithAnotherProtocolIsNamed() throws {
        var scene = Scene()
        scene.diagnosis.discovery.services?.append(
            .init(name: "old", peer: nil, note: "speaks peer protocol 1, not 2", addresses: ["10.0.0.9:7601"], at: 1)
        )
        let reach = try #require(scene.checks(.peerReach).first { $0.status == .fail })
        #expect(reach.summary.contains("protocol 1"))
    }

    @Test func aPeerThatReachesUsWhileOurDialsTimeOutIsOneWay() throws {
        var scene = Scene()
        scene.diagnosis.sessions[0].direction = .inbound
        scene.diagnosis.inbound = [
            InboundRecord(peer: Scene.bob, name: "bob", address: "10.0.0.2:50000", port: 7601, at: Scene.now - 2_000)
        ]
        scene.diagnosis.dials.append(Scene.dial(.tcp, .timeout))
        let oneWay = try #require(scene.only(.inboundOnly))
        #expect(oneWay.status == .fail && oneWay.cause == "their firewall drops our connections to port 7601")
        #expect(oneWay.fix?.contains("firewall") == true && oneWay.peer == Scene.bob.rawValue)
        #expect(scene.only(.peerReach)?.status == .pass, "bob is connected: not peer-reach's concern")
    }

    @Test func aRefusalBeforeThePeerWasUpIsNoSignOfAFirewall() {
        var scene = Scene()
        scene.diagnosis.sessions[0].direction = .inbound
        scene.diagnosis.inbound = [
            InboundRecord(peer: Scene.bob, name: "bob", address: "10.0.0.2:50000", port: 7601, at: Scene.now)
        ]
        var refused = Scene.dial(.tcp, .refused)
        refused.at = Scene.now - 1_000
        scene.diagnosis.dials.append(refused)
        #expect(scene.only(.inboundOnly)?.status == .pass)
    }

    @Test func peerctlsOwnProbeOfAPeerConnectedOnlyInboundCounts() throws {
        var scene = Scene()
        scene.diagnosis.sessions[0].direction = .inbound
        scene.diagnosis.inbound = [
            InboundRecord(peer: Scene.bob, name: "bob", address: "10.0.0.2:50000", port: 7601, at: Scene.now - 5_000)
        ]
        scene.diagnosis.dials = []
        var facts = Doctor.DaemonFacts(status: scene.status, peers: scene.peers, diagnosis: scene.diagnosis)
        #expect(facts.probeAddresses == ["10.0.0.2:7601"])
        facts.add(probes: [("10.0.0.2:7601", .timeout)])
        let doctor = Doctor(daemon: .success(facts), socket: "s", local: scene.local)
        let oneWay = try #require(doctor.checks().first { $0.id == .inboundOnly })
        #expect(oneWay.status == .fail && oneWay.summary.contains("10.0.0.2:7601"))
    }

    @Test func aSessionGoneSilentIsNamedAndSaysNothingOfOneWayReach() throws {
        var scene = Scene()
        scene.diagnosis.sessions[0].direction = .inbound
        scene.diagnosis.sessions[0].silentMs = 25_000
        scene.diagnosis.inbound = [
            InboundRecord(peer: Scene.bob, name: "bob", address: "10.0.0.2:50000", port: 7601, at: Scene.now - 2_000)
        ]
        scene.diagnosis.dials.append(Scene.dial(.tcp, .timeout))
        #expect(scene.only(.inboundOnly)?.status == .pass, "bob's packets stopped too: no one-way firewall to claim")
        let reach = try #require(scene.only(.peerReach))
        #expect(
            reach.status == .fail
                && reach.summary == "bob (b0b00000) is connected, but nothing has come from it for 25 s"
        )
        #expect(reach.cause?.contains("isolation") == true)
        let facts = Doctor.DaemonFacts(status: scene.status, peers: scene.peers, diagnosis: scene.diagnosis)
        #expect(facts.probeAddresses.isEmpty)
    }

    @Test func multicastOffIsNamedPerInterfaceAndLoopbackAndVPNsDontCount() throws {
        var scene = Scene()
        scene.local.interfaces += [
            NetworkInterface(name: "wg0", flags: 0x91, hasAddress: true),
            NetworkInterface(name: "eth1", flags: 0x1002, hasAddress: true),
        ]
        scene.local.interfaces[1].flags = 0x0003
        let multicast = try #require(scene.only(.multicast))
        #expect(multicast.status == .fail && multicast.summary == "multicast is off on eth0")
        #expect(multicast.fix == "sudo ip link set dev eth0 multicast on")
        let registered = Scene().only(.registered)
        #expect(registered?.status == .pass)
    }

    @Test func aClockAMinuteOffIsNamedWithThePeerAndTheSkew() throws {
        var scene = Scene()
        scene.diagnosis.sessions[0].skewMs = -(2 * 3_600_000 + 5 * 60_000)
        let clock = try #require(scene.only(.clock))
        #expect(clock.status == .fail && clock.peer == Scene.bob.rawValue)
        #expect(clock.summary == "bob (b0b00000)'s clock is 2 h 5 min behind this machine's")
        #expect(clock.fix == "sync clocks (timedatectl set-ntp true) on whichever machine is wrong")
        scene.diagnosis.sessions[0].skewMs = nil
        #expect(scene.only(.clock)?.status == .skip)
    }

    @Test func loosePermissionsNameThePathTheModeAndTheChmod() throws {
        var scene = Scene()
        scene.local.files.stateDir = ("/home/alice/.local/state/peerd", .found(mode: 0o755, owner: 1000))
        let permissions = try #require(scene.only(.permissions))
        #expect(permissions.status == .fail && permissions.summary == "/home/alice/.local/state/peerd is mode 0755")
        #expect(permissions.fix == "chmod 700 /home/alice/.local/state/peerd")

        var custom = Scene()
        custom.local.files.socketIsDefault = false
        custom.local.files.socketDir = ("/home/bob/sockets", .found(mode: 0o755, owner: 1001))
        #expect(custom.only(.permissions)?.status == .fail, "another user could replace the socket")
        custom.local.files.socketDir = ("/home/alice/sockets", .found(mode: 0o755, owner: 1000))
        #expect(custom.only(.permissions)?.status == .pass, "a --socket directory only its owner can change is fine")
        custom.local.files.socketDir = ("/tmp", .found(mode: 0o1777, owner: 0))
        #expect(custom.only(.permissions)?.status == .pass, "root's and sticky")
        custom.local.files.socketDir = ("/srv/shared", .found(mode: 0o777, owner: 1000))
        #expect(custom.only(.permissions)?.fix == "chmod 755 /srv/shared")
    }

    @Test func aFailedUnitPointsToItsJournal() throws {
        var scene = Scene()
        scene.local.systemd = .state(active: "failed", sub: "failed", result: "exit-code")
        let systemd = try #require(scene.only(.systemd))
        #expect(systemd.status == .fail && systemd.fix?.contains("journalctl --user -u peerd") == true)
        scene.local.systemd = .state(active: "active", sub: "running", result: "success")
        #expect(scene.only(.systemd)?.status == .pass)
        scene.local.systemd = .noManager("Failed to connect to bus")
        #expect(scene.only(.systemd)?.status == .skip)
    }

    /// A packaged install: the unit is in /usr/lib/systemd/user. Doctor says it is installed, and
    /// when peerd isn't running, what is missing: a user manager, or the unit enabled.
    @Test func anInstalledUnitIsNamedWithWhatKeepsItFromRunning() throws {
        let unit = "/usr/lib/systemd/user/peerd.service"
        var scene = Scene()
        scene.local.systemd = .noManager("Failed to connect to bus: No medium found", path: unit)
        let running = try #require(scene.only(.systemd))
        #expect(running.status == .skip && running.summary.contains("peerd.service is installed (\(unit))"))
        #expect(running.summary.contains("no systemd user manager") && running.summary.contains("some other way"))
        scene.daemonAnswers = false
        let noManager = try #require(scene.only(.systemd))
        #expect(noManager.status == .fail && noManager.summary.contains("installed (\(unit))"))
        #expect(noManager.fix?.contains("loginctl enable-linger") == true)
        #expect(noManager.fix?.contains("systemctl --user enable --now peerd") == true)

        scene.local.systemd = .state(
            active: "inactive",
            sub: "dead",
            result: "success",
            enabled: "disabled",
            path: unit
        )
        let disabled = try #require(scene.only(.systemd))
        #expect(disabled.status == .fail && disabled.summary.contains("installed (\(unit)), but not enabled"))
        #expect(disabled.fix?.contains("systemctl --user enable --now peerd") == true)
        scene.local.systemd = .state(active: "inactive", sub: "dead", result: "success", enabled: "enabled", path: unit)
        #expect(scene.only(.systemd)?.fix == "systemctl --user start peerd")

        scene.daemonAnswers = true
        scene.local.systemd = .state(
            active: "active",
            sub: "running",
            result: "success",
            enabled: "disabled",
            path: unit
        )
        let notAtLogin = try #require(scene.only(.systemd))
        #expect(notAtLogin.status == .pass && notAtLogin.summary.contains("won't start at the next login"))
        scene.local.systemd = .notInstalled
        #expect(scene.only(.systemd)?.summary.contains("no peerd user unit is installed") == true)
    }

    @Test func theNamesCheckTellsWhetherTheSystemResolverHasNSSMDNS() throws {
        var scene = Scene()
        #expect(scene.only(.mdnsNames)?.summary.contains("nss-mdns too (mdns4_minimal") == true)
        scene.local.nsswitch = "hosts: files dns\n"
        let names = try #require(scene.only(.mdnsNames))
        #expect(names.status == .pass && names.summary.contains("no nss-mdns"))
        scene.diagnosis.discovery.hostResolved = false
        scene.diagnosis.discovery.hostError = "Timeout reached"
        #expect(scene.only(.mdnsNames)?.status == .fail)
    }

    @Test func theJSONReportHasTheContractsShape() throws {
        var scene = Scene()
        scene.bobUnreachable(Scene.dial(.tcp, .timeout))
        let data = try JSONEncoder().encode(DoctorReport(checks: scene.checks))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["ok"] as? Bool == false)
        let checks = try #require(object["checks"] as? [[String: Any]])
        let reach = try #require(checks.first { $0["id"] as? String == "peer-reach" })
        #expect(Set(reach.keys) == ["id", "status", "summary", "cause", "fix", "peer", "name"])
        #expect(reach["status"] as? String == "fail")
        let daemon = try #require(checks.first { $0["id"] as? String == "daemon" })
        #expect(Set(daemon.keys) == ["id", "status", "summary"])
    }
}
