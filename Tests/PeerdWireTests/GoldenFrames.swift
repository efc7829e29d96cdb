import Foundation
import NIOCore
import NIOEmbedded
import PeerdWire

/// The golden frames in proto/golden/, found from this file's path (no bundle resources).
enum GoldenFrames {
    /// Which socket and direction a frame belongs to, from its file name prefix.
    enum Stream: String, CaseIterable, Sendable {
        case peer = "peer-"
        case controlRequest = "control-request-"
        case controlResponse = "control-response-"

        init?(fileName: String) {
            guard let stream = Self.allCases.first(where: { fileName.hasPrefix($0.rawValue) }) else { return nil }
            self = stream
        }
    }

    static let protoDirectory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // PeerdWireTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root
        .appendingPathComponent("proto")

    static let directory = protoDirectory.appendingPathComponent("golden")

    static var allFiles: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".bin") }.sorted()
    }

    /// `peer-hello.bin`, `control-response-list-empty.bin`, …
    static var valid: [String] { allFiles.filter { !$0.hasPrefix("invalid-") } }

    /// File name → expected error code, from invalid.json.
    static var invalid: [String: String] {
        guard let data = try? Data(contentsOf: directory.appendingPathComponent("invalid.json")) else { return [:] }
        return (try? JSONDecoder().decode([String: String].self, from: data)) ?? [:]
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    /// Decodes a body as the message type of `stream`; returns its `type` and its re-encoded body.
    static func roundTrip(_ body: ByteBuffer, as stream: Stream) throws(WireError) -> (type: String, body: [UInt8]) {
        switch stream {
        case .peer:
            let message = try WireCoding.decode(PeerMessage.self, from: body)
            return (message.type, WireCoding.encode(message))
        case .controlRequest:
            let request = try WireCoding.decode(ControlRequest.self, from: body)
            return (request.type, WireCoding.encode(request))
        case .controlResponse:
            let response = try WireCoding.decode(ControlResponse.self, from: body)
            return (response.type, WireCoding.encode(response))
        }
    }

    /// Runs bytes through the whole receive path (a channel with `FrameDecoder`, then end of stream,
    /// then `WireCoding.decode`) and returns the first error's code, or nil when every frame decodes.
    static func firstErrorCode(_ bytes: [UInt8], as stream: Stream) -> ErrorCode? {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(FrameDecoder()))
        do {
            try channel.writeInbound(ByteBuffer(bytes: bytes))
            while let body: ByteBuffer = try channel.readInbound() {
                _ = try roundTrip(body, as: stream)
            }
            _ = try channel.finish()
            return nil
        } catch let error as FrameError {
            return error.code
        } catch let error as WireError {
            return error.code
        } catch {
            return .internal
        }
    }
}
