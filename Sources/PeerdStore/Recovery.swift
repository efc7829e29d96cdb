package import SystemPackage

/// What opening the operation log cut off: the first damaged record and everything after it.
///
/// The cut bytes are not destroyed: they are copied to `savedTo` before the log is shortened.
package struct Recovery: Hashable, Sendable, CustomStringConvertible {
    /// Why the record at `offset` was not accepted.
    package enum Reason: Hashable, Sendable, CustomStringConvertible {
        /// The file ends inside a record's 8-byte header; `available` bytes of it are there.
        case tornHeader(available: Int)
        /// The file ends inside a record's payload.
        case tornPayload(expected: Int, available: Int)
        /// The length field is 0 or larger than `OperationLog.maxRecordLength`.
        case badLength(UInt32)
        /// The payload's CRC-32C differs from the one stored in the header.
        case checksumMismatch(stored: UInt32, computed: UInt32)
        /// The checksum matched but the payload is not an `Operation`.
        case undecodable(String)

        package var description: String {
            switch self {
            case .tornHeader(let available):
                return "record header cut short (\(available) of 8 bytes)"
            case .tornPayload(let expected, let available):
                return "record cut short (\(available) of \(expected) payload bytes)"
            case .badLength(let length):
                return "impossible record length \(length)"
            case .checksumMismatch(let stored, let computed):
                return "checksum mismatch (stored \(hex(stored)), computed \(hex(computed)))"
            case .undecodable(let detail):
                return "payload is not an operation (\(detail))"
            }
        }

        private func hex(_ value: UInt32) -> String {
            "0x" + String(value, radix: 16, uppercase: true)
        }
    }

    /// Byte offset in the log of the first record that was dropped; the log now ends here.
    package var offset: Int64
    /// How many bytes were cut off the end of the log.
    package var bytesDropped: Int64
    package var reason: Reason
    /// How many operations before `offset` were read and kept.
    package var operationsKept: Int
    /// Where the dropped bytes were copied, e.g. `…/operations.log.corrupt-1763700000`.
    package var savedTo: FilePath

    package init(offset: Int64, bytesDropped: Int64, reason: Reason, operationsKept: Int, savedTo: FilePath) {
        self.offset = offset
        self.bytesDropped = bytesDropped
        self.reason = reason
        self.operationsKept = operationsKept
        self.savedTo = savedTo
    }

    package var description: String {
        "dropped \(bytesDropped) bytes at offset \(offset) (\(reason)); "
            + "kept \(operationsKept) operations; dropped bytes saved to \(savedTo)"
    }
}
