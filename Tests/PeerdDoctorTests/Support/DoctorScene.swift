import PeerdDoctor
import PeerdModel
import PeerdWire

/// A healthy LAN from alice's machine, as the facts `peerctl doctor` gathers: bob connected (we
/// dialed him), Avahi running, our service announced and seen, our name resolved, nothing in the
/// firewall, multicast on, private files, no systemd unit. Tests change one thing and look.
struct DoctorScene {
    static let alice = PeerID("a11ce000000000000000000000000001")!
    static let bob = PeerID("b0b00000000000000000000000000002")!
    static let carol = PeerID("ca401000000000000000000000000003")!
    static let now: Int64 = 1_763_700_000_000

    var status = StatusRecord(
        peer: alice,
        name: "alice",
        port: 7601,
        movies: 3,
        operations: 5,
        peersConnected: 1,
        peersKnown: 1,
        uptimeSeconds: 60,
        stateDir: "/home/alice/.local/state/peerd",
        socket: "/run/user/1000/peerd/control.sock",
        mdns: true,
        version: "0.1.0"
    )
    var peers = [
        PeerRecord(
            peer: bob,
            name: "bob",
            address: "10.0.0.2:7601",
            addresses: ["10.0.0.2:7601"],
            source: .mdns,
            state: .connected,
            trust: .member,
            connectedSince: now - 60_000
        )
    ]
    var diagnosis = DiagnosisRecord(
        at: now,
        peer: alice,
        name: "alice",
        port: 7601,
        listenAddress: "::",
        stateDir: "/home/alice/.local/state/peerd",
        socket: "/run/user/1000/peerd/control.sock",
        discovery: DiscoveryRecord(
            mdns: true,
            avahi: .running,
            hostName: "alice.local",
            service: "alice",
            registered: true,
            selfSeen: true,
            hostResolved: true,
            hostAddress: "10.0.0.1",
            services: [.init(name: "bob", peer: bob, addresses: ["10.0.0.2:7601"], at: now - 60_000)]
        ),
        dials: [
            DialRecord(
                address: "10.0.0.2:7601",
                peer: bob,
                expected: bob,
                at: now - 60_000,
                stage: .session,
                outcome: .ok,
                message: "connected"
            )
        ],
        sessions: [
            SessionRecord(
                peer: bob,
                name: "bob",
                address: "10.0.0.2:7601",
                port: 7601,
                direction: .outbound,
                since: now - 60_000,
                skewMs: 120
            )
        ]
    )
    var daemonAnswers = true
    var local = Doctor.LocalFacts(
        interfaces: [
            NetworkInterface(name: "lo", flags: 0x9, hasAddress: true),
            NetworkInterface(name: "eth0", flags: 0x1003, hasAddress: true),
        ],
        firewall: .rules([FirewallRuleset(tool: .nftables, chains: [])]),
        nsswitch: "passwd: files\nhosts:          files mdns4_minimal [NOTFOUND=return] dns\n",
        files: FileFacts(
            stateDir: ("/home/alice/.local/state/peerd", .found(mode: 0o700, owner: 1000)),
            socketDir: ("/run/user/1000/peerd", .found(mode: 0o700, owner: 1000)),
            socket: ("/run/user/1000/peerd/control.sock", .found(mode: 0o600, owner: 1000)),
            socketIsDefault: true,
            uid: 1000
        ),
        systemd: .notInstalled
    )

    var doctor: Doctor {
        let daemon: Result<Doctor.DaemonFacts, DaemonUnreachable> =
            daemonAnswers
            ? .success(Doctor.DaemonFacts(status: status, peers: peers, diagnosis: diagnosis))
            : .failure(DaemonUnreachable("no peerd is listening on /run/user/1000/peerd/control.sock (ENOENT)."))
        return Doctor(daemon: daemon, socket: "/run/user/1000/peerd/control.sock", local: local)
    }

    var checks: [DoctorCheck] { doctor.checks() }

    func checks(_ id: DoctorCheck.ID) -> [DoctorCheck] { checks.filter { $0.id == id } }

    func only(_ id: DoctorCheck.ID) -> DoctorCheck? {
        let found = checks(id)
        return found.count == 1 ? found[0] : nil
    }

    /// bob announced but not connected, with this latest dial.
    mutating func bobUnreachable(_ dial: DialRecord) {
        peers[0].state = .retrying
        peers[0].connectedSince = nil
        diagnosis.sessions = []
        diagnosis.dials.append(dial)
    }

    /// A dial of bob at `now` that came to `outcome`.
    static func dial(_ stage: DialRecord.Stage, _ outcome: DialRecord.Outcome, by: DialRecord.Refuser? = nil)
        -> DialRecord
    {
        DialRecord(
            address: "10.0.0.2:7601",
            peer: bob,
            expected: bob,
            at: now,
            stage: stage,
            outcome: outcome,
            by: by,
            message: "\(outcome.rawValue) at 10.0.0.2:7601"
        )
    }
}
