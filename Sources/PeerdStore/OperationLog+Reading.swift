import Logging
import PeerdCodec
package import PeerdModel
import SystemPackage

/// Reading one record back: a replica keeps its operations' proofs on disk (the log holds them
/// anyway) and reads an operation again, with its proof, when a peer asks for it.
extension OperationLog: OperationArchive {
    /// The operation whose record starts at `offset` (as ``append(encoded:)`` and
    /// ``open(at:logger:proofs:reading:)`` give it), proof included; nil, with an error logged,
    /// when there is no intact record there.
    package func operation(at offset: UInt64) -> Operation? {
        do throws(ReadFailure) {
            return try read(at: offset)
        } catch {
            logger.error(
                "could not read an operation back from the log",
                metadata: ["path": "\(path)", "offset": "\(offset)", "reason": "\(error)"]
            )
            return nil
        }
    }

    private enum ReadFailure: Error, CustomStringConvertible {
        case io(Errno)
        case notARecord(String)

        var description: String {
            switch self {
            case .io(let errno): "\(errno)"
            case .notARecord(let reason): reason
            }
        }
    }

    private func read(at offset: UInt64) throws(ReadFailure) -> Operation {
        let descriptor = descriptorForReading
        guard offset >= UInt64(Self.magic.count), offset < UInt64(length) else {
            throw .notARecord("past the log's end")
        }
        let header: [UInt8]
        do throws(Errno) {
            header = try descriptor.readFully(from: Int64(offset), count: LogRecord.headerLength)
        } catch {
            throw .io(error)
        }
        guard header.count == LogRecord.headerLength else { throw .notARecord("cut short") }
        let (length, stored) = header.withUnsafeBytes {
            (LogRecord.readBigEndian($0, at: 0), LogRecord.readBigEndian($0, at: 4))
        }
        guard length > 0, length <= LogRecord.maxPayloadLength else { throw .notARecord("a bad length") }
        let payload: [UInt8]
        do throws(Errno) {
            payload = try descriptor.readFully(from: Int64(offset) + Int64(LogRecord.headerLength), count: Int(length))
        } catch {
            throw .io(error)
        }
        guard payload.count == Int(length) else { throw .notARecord("cut short") }
        let read = payload.withUnsafeBytes { bytes -> Result<Operation, ReadFailure> in
            guard CRC32C.checksum(bytes) == stored else { return .failure(.notARecord("a checksum mismatch")) }
            var reader = OperationJSONReader()
            guard let operation = try? reader.decode(bytes) else { return .failure(.notARecord("not an operation")) }
            return .success(operation)
        }
        return try read.get()
    }
}
