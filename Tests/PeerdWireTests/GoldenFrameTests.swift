import Foundation
import NIOCore
import PeerdCodec
import PeerdModel
import PeerdWire
import Testing

@Suite("Golden frames in proto/golden")
struct GoldenFrameTests {
    @Test("the golden folder holds valid and invalid frames")
    func goldenFramesExist() {
        #expect(GoldenFrames.valid.count >= 53, "no golden frames under \(GoldenFrames.directory.path)")
        #expect(GoldenFrames.invalid.count >= 7)
        #expect(Set(GoldenFrames.invalid.keys) == Set(GoldenFrames.allFiles.filter { $0.hasPrefix("invalid-") }))
    }

    @Test("a valid golden frame decodes and re-encodes to the same bytes", arguments: GoldenFrames.valid)
    func validFrameRoundTrips(_ name: String) throws {
        let stream = try #require(GoldenFrames.Stream(fileName: name), "\(name) names no socket")
        let bytes = try GoldenFrames.bytes(name)
        var buffer = ByteBuffer(bytes: bytes)
        let body = try #require(try FrameDecoder.nextFrame(in: &buffer, limit: Frame.maxFrameLength))
        #expect(buffer.readableBytes == 0, "\(name) holds more than one frame")

        let decoded = try GoldenFrames.roundTrip(body, as: stream)
        let expectedType = name.dropFirst(stream.rawValue.count).prefix { $0 != "-" && $0 != "." }
        #expect(decoded.type == String(expectedType))
        #expect(
            Frame.bytes(decoded.body) == bytes,
            "\(name) re-encodes as \(String(decoding: decoded.body, as: UTF8.self))"
        )
    }

    /// Round trips alone would pass if the details were kept verbatim (PEER.md, "Operations can grow"):
    /// the fast reader must take them as known details, so its parser and the canonical writer agree
    /// with make_golden.py's JSON, `providers` included.
    @Test(
        "a golden describe's details are read by the fast reader, not kept verbatim",
        arguments: ["peer-ops-describe.bin", "peer-ops-describe-providers.bin"]
    )
    func describeIsReadByTheFastReader(_ name: String) throws {
        let body = Array(try GoldenFrames.bytes(name).dropFirst(4))
        let prefix = Array(#"{"ops":"#.utf8)
        let suffix = Array(#","type":"ops"}"#.utf8)
        try #require(body.starts(with: prefix) && body.reversed().starts(with: suffix.reversed()))
        var reader = OperationJSONReader()
        let array = Array(body[prefix.count..<(body.count - suffix.count)])
        let ops = try #require(array.withUnsafeBytes { reader.readArray($0) }, "\(name) is not in the fast shape")
        let op = try #require(ops.first)
        #expect(ops.count == 1 && op.kind == .describe && op.details != nil && op.verbatim == nil)
        #expect(Array("[".utf8) + OperationJSON.encode(op) + Array("]".utf8) == array)
        if name == "peer-ops-describe-providers.bin" {
            #expect(
                op.details?.providers
                    == WatchProviders(
                        region: "US",
                        link: "https://www.themoviedb.org/movie/603-the-matrix/watch?locale=US",
                        stream: [.init(id: 8, name: "Netflix", logoPath: "/pbpMk2JmcoNnQwx5JGpXngfoWtp.jpg")],
                        rent: [.init(id: 2, name: "Apple TV")],
                        buy: [.init(id: 2, name: "Apple TV")]
                    )
            )
        }
    }

    /// The same for the golden settings operation (PEER.md, "Group settings"): the fast reader takes its
    /// `settings` as known, with the group's movie, so it is not kept verbatim.
    @Test("the golden settings operation is read by the fast reader, not kept verbatim")
    func settingsAreReadByTheFastReader() throws {
        let body = Array(try GoldenFrames.bytes("peer-ops-settings.bin").dropFirst(4))
        let prefix = Array(#"{"ops":"#.utf8)
        let suffix = Array(#","type":"ops"}"#.utf8)
        try #require(body.starts(with: prefix) && body.reversed().starts(with: suffix.reversed()))
        var reader = OperationJSONReader()
        let array = Array(body[prefix.count..<(body.count - suffix.count)])
        let ops = try #require(array.withUnsafeBytes { reader.readArray($0) }, "not in the fast shape")
        let op = try #require(ops.first)
        #expect(ops.count == 1 && op.kind == .settings && op.verbatim == nil && op.invalidReason == nil)
        #expect(op.movie == PeerdModel.Operation.groupMovie && op.details == nil)
        #expect(
            op.settings
                == GroupSettings(region: "DE", services: [.init(id: 8, name: "Netflix"), .init(id: 11, name: "MUBI")])
        )
        #expect(Array("[".utf8) + OperationJSON.encode(op) + Array("]".utf8) == array)
    }

    /// The same for the golden marks and watch (PEER.md, "Marks and watches"): the fast reader takes each
    /// `mark` and `watch` as known, so they are not kept verbatim, and each is within its limits.
    @Test("the golden marks and watch are read by the fast reader, not kept verbatim")
    func marksAndWatchesAreReadByTheFastReader() throws {
        let marks = try Self.fastOperations("peer-ops-mark.bin")
        #expect(marks.allSatisfy { $0.kind == .mark && $0.verbatim == nil && $0.invalidReason == nil })
        #expect(
            marks.compactMap(\.mark) == [
                Mark(kind: .seen, on: "2025-11-20"), Mark(kind: .rating, rating: 8), Mark(kind: .want, set: false),
            ]
        )
        let watches = try Self.fastOperations("peer-ops-watch.bin")
        let watch = try #require(watches.first?.watch)
        #expect(watches.count == 1 && watches[0].kind == .watch && watches[0].verbatim == nil)
        #expect(watches[0].invalidReason == nil && watch.with.count == 2 && watch.on == "2025-11-20")
        #expect(watches[0].movie == Movie(id: MovieID(603)!, title: "The Matrix", year: 1999))
    }

    /// The golden picks (PEER.md, "Picks") are read as known steps, not kept verbatim, and each is within
    /// its limits: the openings, and the group's movie on each step but a vote.
    @Test(
        "the golden pick steps are known picks within their limits",
        arguments: ["peer-ops-pick-open.bin", "peer-ops-pick-votes.bin", "peer-ops-pick-ranked.bin"]
    )
    func pickStepsAreKnown(_ name: String) throws {
        var buffer = ByteBuffer(bytes: try GoldenFrames.bytes(name))
        let body = try #require(try FrameDecoder.nextFrame(in: &buffer, limit: Frame.maxFrameLength))
        guard case .ops(let ops) = try WireCoding.decode(PeerMessage.self, from: body) else {
            Issue.record("\(name) holds no ops")
            return
        }
        for op in ops {
            let step = try #require(op.pick, "\(op.id) carries no pick")
            #expect(op.kind == .pick && op.verbatim == nil && op.invalidReason == nil, "\(op.id)")
            #expect((op.movie == PeerdModel.Operation.groupMovie) == (step.action != .vote), "\(op.id)")
            #expect((step.pick == nil) == (step.action == .open), "\(op.id)")
        }
        let actions = Set(ops.compactMap(\.pick?.action))
        #expect(actions.isSubset(of: [.open, .vote, .rank, .close]) && !actions.isEmpty)
    }

    /// The operations of a golden `ops` frame, read by the fast reader; each re-encodes to its bytes.
    static func fastOperations(_ name: String) throws -> [PeerdModel.Operation] {
        let body = Array(try GoldenFrames.bytes(name).dropFirst(4))
        let prefix = Array(#"{"ops":"#.utf8)
        let suffix = Array(#","type":"ops"}"#.utf8)
        try #require(body.starts(with: prefix) && body.reversed().starts(with: suffix.reversed()))
        var reader = OperationJSONReader()
        let array = Array(body[prefix.count..<(body.count - suffix.count)])
        let ops = try #require(array.withUnsafeBytes { reader.readArray($0) }, "\(name) is not in the fast shape")
        let encoded = ops.map(OperationJSON.encode).joined(separator: Array(",".utf8))
        #expect(Array("[".utf8) + encoded + Array("]".utf8) == array, "\(name) re-encodes otherwise")
        return ops
    }

    @Test("every message type of both protocols has a golden frame")
    func everyTypeHasAGoldenFrame() {
        let types: [GoldenFrames.Stream: [String]] = [
            .peer: [
                "hello", "ops", "ping", "pong", "error", "members", "have", "prune", "graft", "query", "answer", "list",
            ],
            .controlRequest: [
                "add", "remove", "list", "mark", "watch", "history", "pick", "vote", "pickStatus", "pickClose",
                "follow", "peers", "status", "connect", "invite", "join", "forget", "trust", "search", "discover",
                "similar", "genres", "services", "show", "refresh", "page", "diagnose", "members", "removeMember",
            ],
            .controlResponse: [
                "added", "removed", "list", "marked", "history", "pickState", "following", "change", "peers",
                "status", "connecting", "invite",
                "joined", "forgotten", "trusted", "searchResults", "movies", "genres", "services", "shown",
                "refreshing", "page", "diagnosis", "error", "members", "memberRemoved",
            ],
        ]
        for (stream, names) in types {
            for type in names {
                let prefix = stream.rawValue + type
                let files = GoldenFrames.valid.filter { $0 == prefix + ".bin" || $0.hasPrefix(prefix + "-") }
                #expect(!files.isEmpty, "no golden frame for \(stream) \(type)")
            }
        }
    }

    @Test(
        "an invalid golden frame fails with the error code invalid.json names",
        arguments: GoldenFrames.invalid.keys.sorted()
    )
    func invalidFrameFails(_ name: String) throws {
        let expected = try #require(GoldenFrames.invalid[name].flatMap(ErrorCode.init(rawValue:)))
        let stream = try #require(GoldenFrames.Stream(fileName: String(name.dropFirst("invalid-".count))))
        let bytes = try GoldenFrames.bytes(name)
        let code = try GoldenFrames.firstErrorCode(bytes, as: stream) ?? Self.refusedOperation(bytes, as: stream)
        #expect(code == expected, "\(name)")
    }

    /// `invalid-operation` for a peer frame whose operations decode but one of them breaks a limit
    /// (PEER.md, "Receiving `ops`"): the replica refuses it, not the decoder. Nil otherwise.
    static func refusedOperation(_ bytes: [UInt8], as stream: GoldenFrames.Stream) throws -> ErrorCode? {
        guard stream == .peer else { return nil }
        var buffer = ByteBuffer(bytes: bytes)
        guard let body = try FrameDecoder.nextFrame(in: &buffer, limit: Frame.maxFrameLength),
            case .ops(let ops) = try WireCoding.decode(PeerMessage.self, from: body)
        else { return nil }
        return ops.contains { $0.invalidReason != nil } ? .invalidOperation : nil
    }

    @Test("golden/README.md lists every frame with its size in bytes", arguments: GoldenFrames.allFiles)
    func readmeListsTheFrame(_ name: String) throws {
        let url = GoldenFrames.directory.appendingPathComponent("README.md")
        let readme = String(decoding: try Data(contentsOf: url), as: UTF8.self)
        let size = try GoldenFrames.bytes(name).count
        #expect(readme.contains("| `\(name)` | \(size) |"), "README.md lacks the row of \(name) (\(size) bytes)")
    }

    @Test("every error code is documented in proto/ERRORS.md")
    func everyErrorCodeIsDocumented() throws {
        let url = GoldenFrames.protoDirectory.appendingPathComponent("ERRORS.md")
        let text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
        for code in ErrorCode.allCases {
            #expect(text.contains("`\(code.rawValue)`"), "ERRORS.md does not mention \(code.rawValue)")
        }
    }
}
