package import PeerdModel

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads the JSON of operations: the wire's `ops` frames and the operation log's records.
///
/// The plain shape `JSONEncoder` and ``OperationJSON`` write is read by a hand-written parser, more
/// than ten times faster than `JSONDecoder` (about 6,000 instructions and under 1 µs an operation,
/// against 77,000 and 7–8 µs: callgrind and wall clock on the benchmark machine); anything else
/// (whitespace and key order don't matter, but `null`, floats or unknown keys do) goes to
/// `JSONDecoder` and `Operation`'s `Decodable` conformance, which stay the reference: the parser never accepts what they would refuse, and agrees with them on what it
/// accepts (fuzz-tested). Keep one reader for a run of operations: it remembers the last few
/// origins and names it read, so operations from one origin share one string storage.
package struct OperationJSONReader {
    var recent = RecentStrings()
    private var fallback: JSONDecoder?
    /// The fast parser returns nil for a string longer than this (bytes between the quotes, as
    /// written) and for an array of more elements; `decode` then takes the general path, which knows
    /// no limits: a caller that sets them refuses what breaks them on its own general path, as
    /// `WireCoding` does.
    package let maxStringBytes: Int
    package let maxArrayElements: Int
    /// Whether operations come without their proofs: the fast parser then checks that `sig`,
    /// `prev` and `key` are base64 strings of the right length without decoding them (a
    /// replica reading its own log keeps proofs on disk); the general path decodes them as ever.
    package let skipsProofs: Bool

    package init(maxStringBytes: Int = .max, maxArrayElements: Int = .max, skippingProofs: Bool = false) {
        self.maxStringBytes = maxStringBytes
        self.maxArrayElements = maxArrayElements
        skipsProofs = skippingProofs
    }

    /// The operation `bytes` holds, read by the fast parser; nil when they are not in the plain shape
    /// (which does not mean they are not an operation: ``decode(_:)`` tells).
    package mutating func read(_ bytes: UnsafeRawBufferPointer) -> Operation? {
        OperationJSONParser.parse(bytes, recent: &recent, limits: limits)
    }

    /// The operations of a JSON array of them, read by the fast parser; nil when the array or any
    /// operation in it is not in the plain shape.
    package mutating func readArray(_ bytes: UnsafeRawBufferPointer) -> [Operation]? {
        OperationJSONParser.parseArray(bytes, recent: &recent, limits: limits)
    }

    private var limits: OperationJSONParser.Limits {
        OperationJSONParser.Limits(
            maxStringBytes: maxStringBytes,
            maxArrayElements: maxArrayElements,
            skipsProofs: skipsProofs
        )
    }

    /// The operation `bytes` holds: the fast parser's reading, or else `JSONDecoder`'s.
    ///
    /// - Throws: `DecodingError` when `bytes` are not the JSON of an operation.
    package mutating func decode(_ bytes: UnsafeRawBufferPointer) throws -> Operation {
        if let operation = read(bytes) { return operation }
        let decoder = fallback ?? JSONDecoder()
        fallback = decoder
        guard let base = bytes.baseAddress else { return try decoder.decode(Operation.self, from: Data()) }
        // A `Data` viewing `bytes` without copying, used only during this call.
        let data = Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: bytes.count, deallocator: .none)
        var operation = try decoder.decode(Operation.self, from: data)
        if skipsProofs { operation.proof = OperationProof() }
        return operation
    }
}
