// swift-tools-version: 6.1
import PackageDescription

let strict: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]

let package = Package(
    name: "peerd",
    platforms: [.macOS(.v15)],
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
    ],
    targets: [
        // model + list: the replicated watch list. Pure: no sockets, files or clocks.
        .target(name: "PeerdModel", swiftSettings: strict),
        // wire: frame codec and message types for both sockets. Pure.
        .target(
            name: "PeerdWire",
            dependencies: ["PeerdModel", .product(name: "NIOCore", package: "swift-nio")],
            swiftSettings: strict
        ),
        // sync: the per-connection session state machine. Pure.
        .target(name: "PeerdSync", dependencies: ["PeerdModel", "PeerdWire"], swiftSettings: strict),
        // store: the append-only durable operation log.
        .target(
            name: "PeerdStore",
            dependencies: [
                "PeerdModel",
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "Logging", package: "swift-log"),
            ],
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
            dependencies: [
                "PeerdModel", "PeerdStore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // control client: the blocking Unix-socket client peerctl, tests and benchmarks share.
        .target(name: "PeerControl", dependencies: ["PeerdWire"], swiftSettings: strict),
        // transport, control server, replica and services: everything the daemon wires together.
        .target(
            name: "PeerdDaemon",
            dependencies: [
                "PeerdModel", "PeerdWire", "PeerdSync", "PeerdStore", "PeerdDiscovery", "PeerControl",
                "PeerdSecurity",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: strict
        ),
        // Starts real peerd processes and runs the real peerctl: shared by end-to-end tests and benchmarks.
        .target(
            name: "PeerdTestSupport",
            dependencies: [
                "PeerControl", "PeerdWire", "PeerdSecurity",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "peerd-bench",
            dependencies: [
                "PeerdTestSupport", "PeerControl", "PeerdWire", "PeerdModel", "PeerdStore", "PeerdSecurity",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            path: "bench/Sources/peerd-bench",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "peerd",
            dependencies: [
                "PeerdDaemon", "PeerControl", "PeerdStore", "PeerdSecurity",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "peerctl",
            dependencies: [
                "PeerControl", "PeerdModel", "PeerdWire",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "PeerdModelTests",
            dependencies: [
                "PeerdModel", "PeerdTestSupport", .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "PeerdWireTests",
            dependencies: [
                "PeerdWire", "PeerdModel",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOTestUtils", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "PeerdSyncTests",
            dependencies: ["PeerdSync", "PeerdModel", "PeerdWire", "PeerdTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(name: "PeerdDiscoveryTests", dependencies: ["PeerdDiscovery", "PeerdModel", "PeerdWire"]),
        .testTarget(
            name: "PeerdSecurityTests",
            dependencies: [
                "PeerdSecurity", "PeerdModel", "PeerdStore", "PeerdTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "PeerdStoreTests",
            dependencies: ["PeerdStore", "PeerdModel", "PeerdTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "PeerdDaemonTests",
            dependencies: [
                "PeerdDaemon", "PeerdWire",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["PeerdTestSupport", "PeerControl", "PeerdWire", "PeerdModel", "PeerdSecurity"],
            swiftSettings: strict
        ),
        // Fuzzing (`make fuzz`, Fuzz/README.md): libFuzzer targets, fuzzing only when built with
        // `-sanitize=fuzzer,address -DFUZZING` (Fuzz/fuzz.sh). In a normal build each one's `main` says
        // so and exits 2, so `swift build` and `swift build --build-tests` still link.
        .target(
            name: "PeerdFuzzing",
            dependencies: ["PeerdWire", "PeerdModel", .product(name: "NIOCore", package: "swift-nio")],
            path: "Fuzz/Sources/PeerdFuzzing",
            swiftSettings: strict + [.enableExperimentalFeature("Extern")]
        ),
        .executableTarget(name: "fuzz-frame", dependencies: ["PeerdFuzzing"], path: "Fuzz/Sources/fuzz-frame"),
        .executableTarget(
            name: "fuzz-peer-message",
            dependencies: ["PeerdFuzzing"],
            path: "Fuzz/Sources/fuzz-peer-message"
        ),
        .executableTarget(
            name: "fuzz-control-request",
            dependencies: ["PeerdFuzzing"],
            path: "Fuzz/Sources/fuzz-control-request"
        ),
        // End of fuzzing.
    ],
    swiftLanguageModes: [.v6]
)
