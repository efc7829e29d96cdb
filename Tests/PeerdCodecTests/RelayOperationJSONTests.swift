import Foundation
import PeerdCodec
import PeerdModel
import Testing

/// Relays and reach operations (proto/PEER.md, "Relays and reach") in their canonical form: `reach`
/// and `relays` between `prev` and `seq`, read back as written, by the reader and by `JSONDecoder`
/// alike, and signed over: what is refused, and why.
@Suite struct RelayOperationJSONTests {
    static let alice = PeerID("a11ce000000000000000000000000001")!
    static let relay = "relay://198.51.100.10:22067/?id=MFZWI3D-BONSGYC-YLTMRWG-C43ENR5-QXGZDMM-FZWI3DP-BONSGYY-LTMRWAD"
    static let device = "MFZWI3D-BONSGYC-YLTMRWG-C43ENR5-QXGZDMM-FZWI3DP-BONSGYY-LTMRWAD"

    static func operation(_ kind: PeerdModel.Operation.Kind, _ payload: PeerdModel.Operation.Payload)
        -> PeerdModel.Operation
    {
        PeerdModel.Operation(
            id: OperationID(origin: alice, seq: 8),
            lamport: 16,
            at: 1_763_700_100_000,
            by: "alice",
            kind: kind,
            movie: PeerdModel.Operation.groupMovie,
            payload: payload,
            proof: OperationProof(sig: Array(repeating: 1, count: 64), prev: Array(repeating: 2, count: 32), key: nil)
        )
    }

    let relays = Self.operation(.relays, .relays(GroupRelays(urls: [relay])))
    let reach = Self.operation(
        .reach,
        .reach(
            PeerReach(addresses: [PeerAddress("192.168.1.20:7601")!, PeerAddress("[fd00::2]:7601")!], device: device)
        )
    )
    static let proof = #""prev":"AgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgI=","#
    static let sig =
        #""sig":"AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQ==""#

    static func read(_ bytes: [UInt8]) throws -> PeerdModel.Operation {
        var reader = OperationJSONReader()
        return try bytes.withUnsafeBytes { try reader.decode($0) }
    }

    @Test func relaysAreWrittenCanonicallyAndReadBack() throws {
        let bytes = OperationJSON.encode(relays)
        #expect(
            String(decoding: bytes, as: UTF8.self)
                == #"{"at":1763700100000,"by":"alice","lamport":16,"movie":{"id":1},"op":"relays","#
                + #""origin":"a11ce000000000000000000000000001","# + Self.proof + #""relays":[""# + Self.relay
                + #""],"seq":8,"# + Self.sig + "}"
        )
        let read = try Self.read(bytes)
        #expect(read == relays && read.verbatim == nil)
        let decoded = try JSONDecoder().decode(PeerdModel.Operation.self, from: Data(bytes))
        #expect(decoded == relays && decoded.verbatim == nil)
    }

    @Test func aReachIsWrittenCanonicallyAndReadBack() throws {
        let bytes = OperationJSON.encode(reach)
        #expect(
            String(decoding: bytes, as: UTF8.self)
                == #"{"at":1763700100000,"by":"alice","lamport":16,"movie":{"id":1},"op":"reach","#
                + #""origin":"a11ce000000000000000000000000001","# + Self.proof
                + #""reach":{"addresses":["192.168.1.20:7601","[fd00::2]:7601"],"device":""# + Self.device
                + #""},"seq":8,"# + Self.sig + "}"
        )
        let read = try Self.read(bytes)
        #expect(read == reach && read.verbatim == nil)
        let decoded = try JSONDecoder().decode(PeerdModel.Operation.self, from: Data(bytes))
        #expect(decoded == reach && decoded.verbatim == nil)
    }

    @Test func whatIsSignedHoldsTheRelaysAndTheReach() {
        func signed(_ op: PeerdModel.Operation) -> String {
            var buffer: [UInt8] = []
            OperationJSON.append(op, to: &buffer, includingSig: false)
            return String(decoding: buffer, as: UTF8.self)
        }
        #expect(signed(relays).contains(#""relays":[""# + Self.relay + #""]"#) && !signed(relays).contains("sig"))
        #expect(signed(reach).contains(#""reach":{"addresses":["192.168.1.20:7601""#))
        let other = Self.operation(.relays, .relays(GroupRelays(urls: ["relay://203.0.113.7:22067/"])))
        #expect(signed(other) != signed(relays))
    }

    @Test func awkwardRelaysAndReachAreWrittenAsJSONEncoderWritesThemAndReadBack() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        for operation in awkwardOperations(count: 500, seed: 22067, kinds: [.relays, .reach]) {
            let written = OperationJSON.encode(operation)
            #expect(written == Array(try encoder.encode(operation)), "\(String(decoding: written, as: UTF8.self))")
            let read = try Self.read(written)
            #expect(read == operation && read.verbatim == nil)
        }
    }

    /// `json` with the payload's value replaced by `value`, read by the general path.
    func readReplacing(_ payload: String, in op: PeerdModel.Operation, with value: String) throws
        -> PeerdModel.Operation
    {
        var json = try #require(
            try JSONSerialization.jsonObject(with: Data(OperationJSON.encode(op))) as? [String: Any]
        )
        json[payload] = try JSONSerialization.jsonObject(with: Data(value.utf8), options: .fragmentsAllowed)
        return try Self.read(Array(try JSONSerialization.data(withJSONObject: json)))
    }

    @Test func relaysOutsideTheLimitsAreRefused() throws {
        let nine = (1...9).map { #""relay://10.0.0.\#($0):22067/""# }.joined(separator: ",")
        #expect(
            try readReplacing("relays", in: relays, with: "[\(nine)]").invalidReason == "a group has at most 8 relays"
        )
        #expect(
            try readReplacing("relays", in: relays, with: #"["tcp://198.51.100.10:22067/"]"#).invalidReason
                == "a relay's URL starts with relay://, as strelaysrv prints it"
        )
        let unsorted = #"["relay://b.example:22067/","relay://a.example:22067/"]"#
        let read = try readReplacing("relays", in: relays, with: unsorted)
        #expect(read.invalidReason == "relays are sorted, each once", "read as it came, not put in order")
        #expect(
            try readReplacing("relays", in: relays, with: #"["relay://a:1/","relay://a:1/"]"#).invalidReason
                == "relays are sorted, each once"
        )
        #expect(throws: DecodingError.self) { try readReplacing("relays", in: relays, with: #"{"urls":[]}"#) }
    }

    @Test func aReachOutsideTheLimitsIsRefused() throws {
        let seventeen = (1...17).map { #""10.0.0.\#($0):7601""# }.joined(separator: ",")
        let many = try readReplacing("reach", in: reach, with: #"{"addresses":[\#(seventeen)],"device":""}"#)
        #expect(many.invalidReason == "a peer names at most 16 addresses")
        let lower = try readReplacing("reach", in: reach, with: #"{"addresses":[],"device":"mfzwi3d-bonsgyc"}"#)
        #expect(lower.invalidReason == "a device id is up to 80 capital letters, digits and dashes")
        let long = String(repeating: "A", count: 81)
        let longer = try readReplacing("reach", in: reach, with: #"{"addresses":[],"device":"\#(long)"}"#)
        #expect(longer.invalidReason == "a device id is up to 80 capital letters, digits and dashes")
        // An address without its port, or not host:port at all, is not a reach's: malformed.
        for address in ["192.168.1.20", "fd00::2", "[fd00::2]", "192.168.1.20:07601", "a b:7601"] {
            #expect(throws: DecodingError.self, "\(address)") {
                try readReplacing("reach", in: reach, with: #"{"addresses":["\#(address)"],"device":""}"#)
            }
        }
        #expect(throws: DecodingError.self) { try readReplacing("reach", in: reach, with: #"{"addresses":[]}"#) }
    }

    @Test func anOperationCarriesOnePayloadAndItsOwnKinds() throws {
        var both = try #require(
            try JSONSerialization.jsonObject(with: Data(OperationJSON.encode(reach))) as? [String: Any]
        )
        both["relays"] = [Self.relay]
        #expect(throws: DecodingError.self) { try Self.read(Array(try JSONSerialization.data(withJSONObject: both))) }
        var misplaced = relays
        misplaced.kind = .settings
        #expect(try Self.read(OperationJSON.encode(misplaced)).invalidReason != nil)
        var elsewhere = relays
        elsewhere.movie = Movie(id: MovieID(603)!)
        #expect(
            try Self.read(OperationJSON.encode(elsewhere)).invalidReason?.hasPrefix("relays is about the group") == true
        )
    }

    @Test func aFieldOfALaterVersionInsideAReachIsKeptVerbatim() throws {
        let later = try readReplacing(
            "reach",
            in: reach,
            with: #"{"addresses":["192.168.1.20:7601"],"device":"","quic":["192.168.1.20:7602"]}"#
        )
        #expect(later.kind == .reach && later.invalidReason == nil)
        let verbatim = try #require(later.verbatim)
        #expect(String(decoding: verbatim.bytes, as: UTF8.self).contains(#""quic":["192.168.1.20:7602"]"#))
        #expect(String(decoding: OperationJSON.encode(later), as: UTF8.self).contains("quic"))
    }
}
