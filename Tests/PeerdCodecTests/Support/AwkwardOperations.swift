import PeerdModel
import PeerdTestKit

/// Operations whose JSON exercises every corner of the codec: names and titles drawn from quotes,
/// backslashes, slashes, every control character, DEL, accents, CJK, emoji and combining marks;
/// zero, huge and negative numbers; removals naming none, one or many adds of several origins;
/// describes with every mix of details; settings, marks and watches with any values; any mix of
/// `sig`, `prev` and `key` (random bytes: their base64 holds `+`, `/` and padding). Of `kinds`: by
/// default those the fast reader takes (``plainKinds``); the others go by the general path.
func awkwardOperations(count: Int, seed: UInt64, kinds: [Operation.Kind] = plainKinds) -> [Operation] {
    var awkward = AwkwardValues(rng: SplitMix64(seed: seed), kinds: kinds)
    return (0..<count).map { _ in awkward.operation() }
}

/// The kinds the fast reader takes (``OperationJSONReader/read(_:)``).
let plainKinds: [Operation.Kind] = [.add, .remove, .describe, .settings, .mark, .watch]

/// The random values the operations are made of.
private struct AwkwardValues {
    var rng: SplitMix64
    let kinds: [Operation.Kind]
    let origins = [
        PeerID("0123456789abcdef0123456789abcdef")!, PeerID("00000000")!,
        PeerID(String(repeating: "f", count: 64))!, PeerID("a11ce000000000000000000000000001")!,
    ]
    let pool: [Unicode.Scalar] =
        ["\"", "\\", "/", " ", "a", "Z", "0", "\u{7F}", "é", "€", "千", "🎬", "\u{301}", "\u{2028}", "\u{FEFF}"]
        + (0..<0x20).map { Unicode.Scalar(UInt8($0)) }
    let hostPool: [Unicode.Scalar] = ["a", "Z", "0", ".", "-", ":", "%", "\"", "\\", "\u{7F}", "é", "千", "🎬", "\u{1}"]

    mutating func operation() -> Operation {
        let kind = kinds.randomElement(using: &rng)!
        let removes = (0..<(kind == .remove ? Int.random(in: 0...4, using: &rng) : 0)).map { _ in
            OperationID(origin: origins.randomElement(using: &rng)!, seq: number(UInt64.self, at: 1))
        }
        return Operation(
            id: OperationID(origin: origins.randomElement(using: &rng)!, seq: number(UInt64.self, at: 1)),
            lamport: number(UInt64.self, at: Bool.random(using: &rng) ? 0 : 1),
            at: Bool.random(using: &rng) ? number(Int64.self, at: 0) : Int64.random(in: .min...0, using: &rng),
            by: text(0...20),
            kind: kind,
            movie: Movie(
                id: MovieID(number(Int.self, at: 1))!,
                title: Bool.random(using: &rng) ? text(0...40) : nil,
                year: Bool.random(using: &rng) ? Int.random(in: Int.min...Int.max, using: &rng) : nil
            ),
            removes: removes,
            payload: payload(of: kind),
            proof: OperationProof(
                sig: bytes(64...64),
                prev: bytes(32...32),
                key: bytes(1...OperationProof.maxKeyLength)
            )
        )
    }

    mutating func text(_ lengths: ClosedRange<Int>) -> String {
        let count = Int.random(in: lengths, using: &rng)
        return String(String.UnicodeScalarView((0..<count).map { _ in pool.randomElement(using: &rng)! }))
    }

    mutating func number<T: FixedWidthInteger>(_ type: T.Type, at least: T) -> T {
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: least
        case 1: T.max
        case 2: T.random(in: least...T.max, using: &rng)
        default: T.random(in: least...(least + 1000), using: &rng)
        }
    }

    mutating func bytes(_ lengths: ClosedRange<Int>) -> [UInt8]? {
        guard Bool.random(using: &rng) else { return nil }
        return (0..<Int.random(in: lengths, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
    }

    mutating func maybe(_ make: (inout AwkwardValues) -> String) -> String? {
        Bool.random(using: &rng) ? make(&self) : nil
    }

    /// Any values in every field: the codec writes and reads what it is given; the model checks limits.
    mutating func payload(of kind: Operation.Kind) -> Operation.Payload? {
        switch kind {
        case .describe: return .details(details())
        case .settings:
            let region = text(0...3)
            let services = (0..<Int.random(in: 0...3, using: &rng)).map { _ in
                GroupSettings.Service(id: number(Int.self, at: Int.min), name: text(0...10))
            }
            return .settings(GroupSettings(region: region, services: services))
        case .mark:
            let markKind = Mark.Kind.allCases.randomElement(using: &rng)!
            let isSet = Bool.random(using: &rng)
            let on = maybe { $0.text(0...12) }
            let rating = Bool.random(using: &rng) ? number(Int.self, at: Int.min) : nil
            return .mark(Mark(kind: markKind, set: isSet, on: on, rating: rating))
        case .watch:
            let with = (0..<Int.random(in: 0...3, using: &rng)).map { _ in origins.randomElement(using: &rng)! }
            return .watch(Watch(with: with, on: maybe { $0.text(0...12) }))
        case .member:
            let action = [MemberStep.Action.admit, .remove, .secret].randomElement(using: &rng)!
            return .member(
                MemberStep(
                    action: action,
                    peer: Bool.random(using: &rng) ? origins.randomElement(using: &rng)! : nil,
                    via: Bool.random(using: &rng) ? MemberStep.Via.allCases.randomElement(using: &rng)! : nil,
                    name: maybe { $0.text(0...12) },
                    seen: Bool.random(using: &rng) ? number(UInt64.self, at: 0) : nil,
                    secret: maybe { $0.text(0...40) }
                )
            )
        case .list:
            return .list(
                ListDefinition(
                    name: text(0...12),
                    nonce: maybe { $0.text(0...40) },
                    maxCertification: maybe { $0.text(0...20) }
                )
            )
        case .news:
            let changes = (0..<Int.random(in: 0...3, using: &rng)).map { _ in
                ProviderChange(
                    ProviderChange.Kind.allCases.randomElement(using: &rng)!,
                    GroupSettings.Service(id: number(Int.self, at: Int.min), name: text(0...10))
                )
            }
            let stream = (0..<Int.random(in: 0...2, using: &rng)).map { _ in
                WatchProviders.Provider(
                    id: number(Int.self, at: Int.min),
                    name: text(0...10),
                    logoPath: maybe { $0.text(0...10) }
                )
            }
            let providers = WatchProviders(region: text(0...3), link: maybe { $0.text(0...20) }, stream: stream)
            return .news(ProviderNews(read: number(Int64.self, at: Int64.min), providers: providers, changes: changes))
        case .relays:
            return .relays(GroupRelays(urls: (0..<Int.random(in: 0...3, using: &rng)).map { _ in text(0...20) }))
        case .reach:
            // Hosts that read back as written (``PeerAddress``): no space, slash or bracket.
            let addresses = (0..<Int.random(in: 0...3, using: &rng)).map { _ in
                let host = (1...Int.random(in: 1...12, using: &rng)).map { _ in hostPool.randomElement(using: &rng)! }
                return PeerAddress(
                    host: String(String.UnicodeScalarView(host)),
                    port: Int.random(in: 1...65535, using: &rng)
                )
            }
            return .reach(PeerReach(addresses: addresses, device: text(0...20)))
        case .add, .remove, .pick, .unknown: return nil
        }
    }

    mutating func details() -> MovieDetails {
        MovieDetails(
            .init(
                title: text(1...30),
                originalTitle: maybe { $0.text(0...30) },
                releaseDate: maybe { _ in "1999-03-31" },
                runtime: Bool.random(using: &rng) ? number(Int.self, at: 0) : nil,
                genres: (0..<Int.random(in: 0...3, using: &rng)).map { _ in text(0...10) },
                overview: maybe { $0.text(0...200) },
                posterPath: maybe { "/" + $0.text(0...20) },
                voteAverage: Bool.random(using: &rng) ? number(Int.self, at: Int.min) : nil,
                imdbID: maybe { $0.text(0...12) },
                language: text(0...8),
                fetchedAt: number(Int64.self, at: Int64.min)
            )
        )
    }
}
