// swift-tools-version: 6.1
import PackageDescription

// Every module: existential `any` spelled out, members visible only from modules imported directly,
// and imports internal unless marked otherwise (what a module exposes is said where it is imported).
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let nioCore = Target.Dependency.product(name: "NIOCore", package: "swift-nio")
let nioPosix = Target.Dependency.product(name: "NIOPosix", package: "swift-nio")
let nioSSL = Target.Dependency.product(name: "NIOSSL", package: "swift-nio-ssl")
let logging = Target.Dependency.product(name: "Logging", package: "swift-log")
let systemPackage = Target.Dependency.product(name: "SystemPackage", package: "swift-system")
let crypto = Target.Dependency.product(name: "Crypto", package: "swift-crypto")
let x509 = Target.Dependency.product(name: "X509", package: "swift-certificates")
let asn1 = Target.Dependency.product(name: "SwiftASN1", package: "swift-asn1")
let serviceLifecycle = Target.Dependency.product(name: "ServiceLifecycle", package: "swift-service-lifecycle")
let argumentParser = Target.Dependency.product(name: "ArgumentParser", package: "swift-argument-parser")
let propertyBased = Target.Dependency.product(name: "PropertyBased", package: "swift-property-based")
let asyncHTTPClient = Target.Dependency.product(name: "AsyncHTTPClient", package: "async-http-client")
let nioHTTP1 = Target.Dependency.product(name: "NIOHTTP1", package: "swift-nio")
let hummingbird = Target.Dependency.product(name: "Hummingbird", package: "hummingbird")
let hummingbirdCore = Target.Dependency.product(name: "HummingbirdCore", package: "hummingbird")
let httpTypes = Target.Dependency.product(name: "HTTPTypes", package: "swift-http-types")

let package = Package(
    name: "peerd",
    products: [
        .executable(name: "peerd", targets: ["peerd"]),
        .executable(name: "peerctl", targets: ["peerctl"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // Without its default traits: they would link all of Foundation and swift-configuration.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        // model + list: the replicated watch list. Pure: no sockets, files, clocks or JSON.
        .target(name: "PeerdModel", swiftSettings: strict),
        // codec: the JSON of operations (fast hand-written reader and writer, canonical form; a describe's details
        // through their one Codable form). Pure.
        .target(name: "PeerdCodec", dependencies: ["PeerdModel"], swiftSettings: strict),
        // wire: frame codec and message types for both sockets. Pure.
        .target(name: "PeerdWire", dependencies: ["PeerdModel", "PeerdCodec", nioCore], swiftSettings: strict),
        // sync: the per-connection session state machine. Pure.
        .target(
            name: "PeerdSync",
            dependencies: ["PeerdModel", "PeerdWire", "PeerdSecurity", nioCore],
            swiftSettings: strict
        ),
        // store: the append-only durable operation log.
        .target(
            name: "PeerdStore",
            dependencies: ["PeerdModel", "PeerdCodec", systemPackage, logging],
            swiftSettings: strict
        ),
        // discovery: Avahi publish + browse + resolve. The C interop stays in AvahiBridge.swift.
        .systemLibrary(name: "CAvahi", pkgConfig: "avahi-client", providers: [.apt(["libavahi-client-dev"])]),
        .target(
            name: "PeerdDiscovery",
            dependencies: ["CAvahi", "PeerdModel", "PeerdWire"],
            swiftSettings: strict
        ),
        // security: the identity key and certificate, operation seals, invite codes, the admission
        // handshake and the trust list. Pure apart from reading and writing the key files.
        .target(
            name: "PeerdSecurity",
            dependencies: ["PeerdModel", "PeerdCodec", "PeerdStore", crypto, x509, asn1, systemPackage, logging],
            swiftSettings: strict
        ),
        // control client: the blocking Unix-socket client peerctl, tests and benchmarks share.
        .target(name: "PeerControl", dependencies: ["PeerdModel", "PeerdWire"], swiftSettings: strict),
        // titles as people type them, for peerctl: accents folded with the standard library's own Unicode data
        // (TitleFolding.swift), not Foundation's folding, which brings CoreFoundation and ICU's data.
        .target(name: "PeerdTitles", dependencies: ["PeerdWire"], swiftSettings: strict),
        // QR codes of a pick's guest link (the terminal, the page): Debian's libqrencode, linked like Avahi.
        .systemLibrary(name: "CQRencode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        .target(name: "PeerdQR", dependencies: ["CQRencode"], swiftSettings: strict),
        // desktop: notifications on the desktop (freedesktop Notifications over the session D-Bus), Debian's libdbus-1.
        .systemLibrary(name: "CDBus", pkgConfig: "dbus-1", providers: [.apt(["libdbus-1-dev"])]),
        .target(name: "PeerdDesktop", dependencies: ["CDBus", logging], swiftSettings: strict),
        // relay: Syncthing's relay protocol v1 (docs.syncthing.net/specs/relay-v1), which carries a peer session
        // between two houses through Debian's strelaysrv. Pure: its messages in XDR, device ids and URLs.
        .target(name: "PeerdRelay", dependencies: [crypto], swiftSettings: strict),
        // doctor: `peerctl doctor`'s checks as pure functions of the facts peerctl gathers (the daemon's
        // diagnosis, firewall rulesets, interface flags, files); peerctl reads the facts.
        .target(name: "PeerdDoctor", dependencies: ["PeerdModel", "PeerdWire"], swiftSettings: strict),
        // import: the files `peerctl import` reads (Letterboxd, IMDb, TMDB, Trakt, peerd's own) as rows, and
        // the files `peerctl export` writes. Pure apart from reading the one file; resolves nothing (docs/IMPORT.md).
        // CSV and ZIP by readers of its own, ZIP's deflate by Debian's zlib: CSV.swift and ZIPFoundation import
        // all of Foundation, and with it ICU's data, 45 MB of a static peerctl.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .target(
            name: "PeerdImport",
            dependencies: ["PeerdModel", "PeerdWire", "CZlib"],
            swiftSettings: strict
        ),
        // loops: the daemon's Swift tasks and timers on SwiftNIO's event loops, not on libdispatch's pool.
        // (The runtime's global-executor hook, set from C: CPeerdLoops/hook.c says why.)
        .target(name: "CPeerdLoops"),
        .target(name: "PeerdLoops", dependencies: ["CPeerdLoops", nioCore, nioPosix], swiftSettings: strict),
        // transport, control server, replica and services: everything the daemon wires together.
        .target(
            name: "PeerdDaemon",
            dependencies: [
                "PeerdModel", "PeerdCodec", "PeerdWire", "PeerdSync", "PeerdStore", "PeerdDiscovery",
                "PeerControl", "PeerdSecurity", "PeerdCatalog", "PeerdWeb", "PeerdQR", "PeerdLoops", "PeerdDesktop",
                "PeerdRelay", nioCore, nioSSL, .product(name: "NIOTLS", package: "swift-nio"),
                crypto, nioPosix, logging,
                serviceLifecycle,
                .product(name: "UnixSignals", package: "swift-service-lifecycle"), systemPackage,
            ],
            swiftSettings: strict
        ),
        // catalog: TMDB. Pure response parsing (a search page into the control record) and fetch schedule; the HTTP
        // client, the details cache, the service.
        .target(
            name: "PeerdCatalog",
            dependencies: [
                "PeerdModel", "PeerdStore", "PeerdWire", "PeerdLoops", asyncHTTPClient, nioCore, nioHTTP1, logging,
                serviceLifecycle, systemPackage,
            ],
            swiftSettings: strict
        ),
        // web: the page (proto/WEB.md). The pure gate, the token, the API over the control protocol,
        // and the page's files compiled in; the guest door of a pick (Guests/).
        .target(
            name: "PeerdWeb",
            dependencies: [
                "PeerdModel", "PeerdWire", "PeerdStore", "PeerdLoops", hummingbird, hummingbirdCore, httpTypes, nioCore,
                nioPosix, nioHTTP1, crypto, logging, serviceLifecycle, systemPackage,
            ],
            resources: [.embedInCode("Page")],
            swiftSettings: strict
        ),
        // For tests: the one waiting helper (on events) and a feed for fakes to announce on, a scratch directory,
        // an instant tests step, a seeded random generator, operations of a later version, a log to await.
        .target(
            name: "PeerdTestKit",
            dependencies: ["PeerdModel", "PeerdCodec", "PeerdSecurity", logging, systemPackage],
            swiftSettings: strict
        ),
        // Starts real peerd processes and runs the real peerctl: shared by end-to-end tests and benchmarks.
        .target(
            name: "PeerdTestSupport",
            dependencies: [
                "PeerControl", "PeerdModel", "PeerdWire", "PeerdSecurity", "PeerdTestKit", nioCore, nioPosix, nioSSL,
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "peerd-bench",
            dependencies: [
                "PeerdTestSupport", "PeerdTestKit", "PeerControl", "PeerdWire", "PeerdModel", "PeerdCodec",
                "PeerdStore", "PeerdSecurity", logging, systemPackage,
            ],
            path: "bench/Sources/peerd-bench",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "peerd",
            dependencies: [
                "PeerdDaemon", "PeerControl", "PeerdLoops", "PeerdModel", "PeerdWire", argumentParser, logging,
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "peerctl",
            dependencies: [
                "PeerControl", "PeerdDoctor", "PeerdImport", "PeerdModel", "PeerdWire", "PeerdQR", "PeerdTitles",
                argumentParser,
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "PeerdModelTests",
            dependencies: ["PeerdModel", "PeerdCodec", "PeerdTestKit", propertyBased],
            swiftSettings: strict
        ),
        .testTarget(
            name: "PeerdCodecTests",
            dependencies: ["PeerdCodec", "PeerdModel", "PeerdTestKit", propertyBased],
            swiftSettings: strict
        ),
        .testTarget(
            name: "PeerdDoctorTests",
            dependencies: ["PeerdDoctor", "PeerdWire", "PeerdModel", "PeerdTestKit"],
            exclude: ["Fixtures"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "PeerdImportTests",
            dependencies: ["PeerdImport", "PeerdWire", "PeerdModel", "PeerdTestKit", "CZlib", crypto, propertyBased],
            exclude: ["Fixtures"],
            swiftSettings: strict
        ),
        .testTarget(name: "PeerControlTests", dependencies: ["PeerControl"], swiftSettings: strict),
        .testTarget(name: "PeerdQRTests", dependencies: ["PeerdQR", "PeerdTestKit"], swiftSettings: strict),
        .testTarget(
            name: "PeerdDesktopTests",
            dependencies: ["PeerdDesktop", "PeerdTestKit", "CDBus", logging],
            swiftSettings: strict
        ),
        .testTarget(name: "PeerdRelayTests", dependencies: ["PeerdRelay"], swiftSettings: strict),
        .testTarget(name: "PeerdTitlesTests", dependencies: ["PeerdTitles", "PeerdWire"], swiftSettings: strict),
        .testTarget(
            name: "PeerdWireTests",
            dependencies: [
                "PeerdWire", "PeerdModel", "PeerdCodec", nioCore, propertyBased,
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOTestUtils", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "PeerdSyncTests",
            dependencies: ["PeerdSync", "PeerdModel", "PeerdWire", "PeerdSecurity", "PeerdTestKit", nioCore],
            swiftSettings: strict
        ),
        .testTarget(
            name: "PeerdDiscoveryTests",
            dependencies: ["PeerdDiscovery", "PeerdModel", "PeerdWire"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "PeerdSecurityTests",
            dependencies: [
                "PeerdSecurity", "PeerdModel", "PeerdCodec", "PeerdStore", "PeerdTestKit", crypto, x509, asn1, logging,
                propertyBased, systemPackage,
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "PeerdStoreTests",
            dependencies: ["PeerdStore", "PeerdModel", "PeerdCodec", "PeerdTestKit", logging, systemPackage],
            swiftSettings: strict
        ),
        .testTarget(
            name: "PeerdDaemonTests",
            dependencies: [
                "PeerdDaemon", "PeerControl", "PeerdWire", "PeerdModel", "PeerdCodec", "PeerdSecurity", "PeerdStore",
                "PeerdSync", "PeerdTestKit", "PeerdLoops", "PeerdWeb", "PeerdRelay", nioCore, nioPosix,
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOTestUtils", package: "swift-nio"), logging,
                serviceLifecycle, systemPackage,
                .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "PeerdWebTests",
            dependencies: [
                "PeerdWeb", "PeerdWire", "PeerdModel", "PeerdTestKit", hummingbird, httpTypes, nioCore, nioPosix,
                logging, systemPackage,
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "PeerdCatalogTests",
            dependencies: [
                "PeerdCatalog", "PeerdModel", "PeerdTestKit", "PeerdWire", "PeerdCodec", nioCore, nioPosix, nioHTTP1,
                logging,
                serviceLifecycle, systemPackage,
                .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
            ],
            exclude: ["Fixtures"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "PeerdTestSupport", "PeerdTestKit", "PeerControl", "PeerdWire", "PeerdModel", "PeerdCodec",
                "PeerdSecurity",
            ],
            exclude: ["Fixtures"],
            swiftSettings: strict
        ),
        // Fuzzing (`make fuzz`, Fuzz/README.md): libFuzzer targets, fuzzing only when built with
        // `-sanitize=fuzzer,address -DFUZZING` (Fuzz/fuzz.sh). In a normal build each one's `main` says
        // so and exits 2, so `swift build` and `swift build --build-tests` still link.
        .target(
            name: "PeerdFuzzing",
            dependencies: ["PeerdWire", "PeerdModel", "PeerdCodec", "PeerdImport", nioCore],
            path: "Fuzz/Sources/PeerdFuzzing",
            swiftSettings: strict + [.enableExperimentalFeature("Extern")]
        ),
        .executableTarget(
            name: "fuzz-frame",
            dependencies: ["PeerdFuzzing"],
            path: "Fuzz/Sources/fuzz-frame",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "fuzz-peer-message",
            dependencies: ["PeerdFuzzing"],
            path: "Fuzz/Sources/fuzz-peer-message",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "fuzz-control-request",
            dependencies: ["PeerdFuzzing"],
            path: "Fuzz/Sources/fuzz-control-request",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "fuzz-import",
            dependencies: ["PeerdFuzzing"],
            path: "Fuzz/Sources/fuzz-import",
            swiftSettings: strict
        ),
        // End of fuzzing.
    ],
    swiftLanguageModes: [.v6]
)
