package import PeerdModel

/// An operation's canonical JSON (``OperationJSON``), made once and shared by everything that writes
/// it out: its log record and every session's `ops` frame.
package struct EncodedOperation: Sendable {
    package let id: OperationID
    package let json: [UInt8]

    package init(_ operation: Operation) {
        id = operation.id
        json = OperationJSON.encode(operation)
    }
}
