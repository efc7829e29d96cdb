/// The few XDR (RFC 4506) shapes relay messages use: 4-byte big-endian words and length-prefixed
/// byte strings padded to a multiple of 4.
struct XDRWriter {
    private(set) var bytes: [UInt8] = []

    mutating func word(_ value: UInt32) {
        bytes += [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    mutating func opaque(_ value: [UInt8]) {
        word(UInt32(value.count))
        bytes += value
        bytes += [UInt8](repeating: 0, count: (4 - value.count % 4) % 4)
    }
}

struct XDRReader {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { index == bytes.count }

    mutating func word() throws(RelayMessageError) -> UInt32 {
        guard bytes.count - index >= 4 else { throw .truncated }
        defer { index += 4 }
        return bytes[index..<index + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// A byte string of at most ``RelayMessage/maxOpaque`` bytes (the reference's limit on ids,
    /// keys and addresses; its strings are as long as the body lets them be).
    mutating func opaque(max: Int = RelayMessage.maxOpaque) throws(RelayMessageError) -> [UInt8] {
        let length = Int(try word())
        guard length <= max else { throw .tooLong(length) }
        let padded = length + (4 - length % 4) % 4
        guard bytes.count - index >= padded else { throw .truncated }
        defer { index += padded }
        guard bytes[index + length..<index + padded].allSatisfy({ $0 == 0 }) else { throw .badPadding }
        return Array(bytes[index..<index + length])
    }

    /// A string: UTF-8 bytes, as long as the body lets them be.
    mutating func text() throws(RelayMessageError) -> String {
        let bytes = try opaque(max: RelayMessage.maxBody)
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .notUTF8 }
        return text
    }
}
