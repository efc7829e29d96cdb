import Foundation
import Logging
import PeerdModel
import SystemPackage

/// The watch list's operation, not Foundation's `Operation` (NSOperation).
typealias Operation = PeerdModel.Operation

/// `count` well-formed operations from one origin, seqs `firstSeq...`: mostly adds (some with
/// non-ASCII titles), every fifth a removal of the add before it.
func makeOperations(count: Int, firstSeq: UInt64 = 1) -> [Operation] {
    let origin = PeerID("0123456789abcdef0123456789abcdef")!
    let titles = ["The Matrix", "Amélie", "千と千尋の神隠し", "Fight Club", "Stalker"]
    return (0..<UInt64(count)).map { index in
        let seq = firstSeq + index
        let id = OperationID(origin: origin, seq: seq)
        let movieID = MovieID(Int(seq % 9_000) + 1)!
        if seq % 5 == 0 {
            return Operation(
                id: id,
                lamport: seq,
                at: 1_763_700_000_000 + Int64(seq),
                by: "alice",
                kind: .remove,
                movie: Movie(id: MovieID(Int((seq - 1) % 9_000) + 1)!),
                removes: [OperationID(origin: origin, seq: seq - 1)]
            )
        }
        let movie = Movie(id: movieID, title: titles[Int(seq) % titles.count], year: 1999)
        return Operation(
            id: id,
            lamport: seq,
            at: 1_763_700_000_000 + Int64(seq),
            by: "alice",
            kind: .add,
            movie: movie
        )
    }
}

/// The whole content of a file.
func contents(of path: FilePath) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: path.string)))
}

func write(_ bytes: [UInt8], to path: FilePath) throws {
    try Data(bytes).write(to: URL(fileURLWithPath: path.string))
}

/// Permission bits of a file, e.g. `0o600`.
func mode(of path: FilePath) throws -> UInt16 {
    let attributes = try FileManager.default.attributesOfItem(atPath: path.string)
    return UInt16((attributes[.posixPermissions] as! NSNumber).intValue)
}

func names(in directory: FilePath) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.string).sorted()
}

/// A logger that drops everything.
let quietLogger = Logger(label: "peerd.store.test") { _ in SwiftLogNoOpLogHandler() }
