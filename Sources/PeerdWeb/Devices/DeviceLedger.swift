package import Logging
import PeerdLoops
package import PeerdModel
package import PeerdStore
package import PeerdWire
import Synchronization
package import SystemPackage

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The linked devices at run time (proto/WEB.md, "Devices"): the ``DeviceBook``, kept in
/// `<state-dir>/devices.json` (mode 0600, replaced whole), the door's limits, and the open event
/// streams of each device, which end the moment it is unlinked. Shared by the control side (link,
/// list, unlink), the door (which opens while ``needsDoor``) and every request the door answers.
package final class DeviceLedger: Sendable {
    /// Where the door is, for the links: its base URL once it listens, or why it can't.
    struct DoorState {
        var base: String?
        var problem: String?
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    let path: FilePath
    let logger: Logger
    let book: Mutex<DeviceBook>
    let limits = Mutex(DeviceLimits<ContinuousClock.Instant>())
    /// Each device's open event streams, by its id and their number: finished when it is unlinked.
    let streams = Mutex<(open: [String: [Int: AsyncStream<Never>.Continuation]], count: Int)>(([:], 0))
    let door = Mutex(DoorState())
    /// Told each time the book changes in a way the door may care about (a link, an unlink).
    let changes: AsyncStream<Void>
    let changed: AsyncStream<Void>.Continuation
    /// Writes the file one at a time, each the book as it is when written.
    let file: DeviceFile

    /// The devices kept at `path`; none when there is no file yet.
    package static func load(at path: FilePath, logger: Logger) async throws(StoreError) -> DeviceLedger {
        let bytes = try await BlockingPool.run { () throws(StoreError) in try AtomicFile.read(path) }
        var book = DeviceBook()
        if let bytes {
            do {
                book = try JSONDecoder().decode(DeviceBook.self, from: Data(bytes))
            } catch {
                logger.error(
                    "the linked devices' file is unreadable; no device is linked",
                    metadata: ["path": "\(path)"]
                )
            }
        }
        return DeviceLedger(book: book, path: path, logger: logger)
    }

    init(book: DeviceBook, path: FilePath, logger: Logger) {
        self.book = Mutex(book)
        self.path = path
        self.logger = logger
        (changes, changed) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
        file = DeviceFile(path: path, logger: logger)
    }

    package var snapshot: DeviceBook { book.withLock { $0 } }

    package var needsDoor: Bool { book.withLock { $0.needsDoor } }

    // MARK: the control side

    /// Makes a link for `member`, valid `expiresIn` seconds: the door opens first if need be.
    package func link(for member: DeviceBook.Member, name: String?, expiresIn: Int) async
        -> Result<DeviceLinkRecord, DeviceDoorProblem>
    {
        let code = DeviceSecret.code()
        let expiresAt = Wallclock.millis() + Int64(expiresIn) * 1000
        door.withLock { if $0.base == nil { $0.problem = nil } }
        book.withLock {
            $0.add(.init(key: DeviceSecret.key(code), member: member, name: name, expiresAt: expiresAt))
        }
        changed.yield()
        await withCheckedContinuation { waiter in
            door.withLock { state in
                if state.base == nil, state.problem == nil { state.waiters.append(waiter) } else { waiter.resume() }
            }
        }
        let (base, problem) = door.withLock { ($0.base, $0.problem) }
        guard let base else {
            book.withLock { $0.cancel(DeviceSecret.key(code)) }
            changed.yield()
            return .failure(DeviceDoorProblem(description: problem ?? "the device door could not be opened"))
        }
        logger.notice(
            "a device link was made",
            metadata: ["member": "\(member.name)", "expires": "\(expiresAt)", "name": "\(name ?? "-")"]
        )
        return .success(
            DeviceLinkRecord(url: "\(base)/link/\(code)", expiresAt: expiresAt, member: member.name, name: name)
        )
    }

    package var records: [DeviceRecord] { book.withLock { $0.devices.map(Self.record) } }

    /// Unlinks the device `nameOrID` names, ending its open streams; nil when none does.
    package func unlink(_ nameOrID: String) async -> DeviceRecord? {
        guard let device = book.withLock({ $0.unlink(nameOrID) }) else { return nil }
        await ended([device], why: "unlinked with peerctl device unlink")
        return Self.record(device)
    }

    /// Unlinks the devices of the members `removed` says are out of the group (given a device's
    /// member: nil is the machine's own), and forgets their links.
    package func unlinkMembers(why: String, where removed: (PeerID?) -> Bool) async {
        let gone = book.withLock { $0.unlinkMembers(where: removed) }
        await ended(gone, why: why)
    }

    private func ended(_ devices: [DeviceBook.Device], why: String) async {
        for device in devices {
            streams.withLock { $0.open.removeValue(forKey: device.id) ?? [:] }.values.forEach { $0.finish() }
            logger.notice(
                "a device was unlinked",
                metadata: [
                    "device": "\(device.name)", "id": "\(device.id)", "member": "\(device.member.name)",
                    "address": "\(device.address)", "why": "\(why)",
                ]
            )
        }
        guard !devices.isEmpty else { return }
        changed.yield()
        await file.save { self.snapshot }
    }

    static func record(_ device: DeviceBook.Device) -> DeviceRecord {
        DeviceRecord(
            id: device.id,
            name: device.name,
            member: device.member.name,
            linkedAt: device.linkedAt,
            lastSeen: device.lastSeen,
            address: device.address
        )
    }
}

/// Why a device link could not be made, in words for `peerctl device link`.
package struct DeviceDoorProblem: Error, CustomStringConvertible {
    package let description: String
}

/// Writes the ledger's file, one write at a time.
actor DeviceFile {
    let path: FilePath
    let logger: Logger

    init(path: FilePath, logger: Logger) {
        self.path = path
        self.logger = logger
    }

    /// Writes the book `latest` gives when its turn comes, so the last write holds the last change.
    func save(_ latest: @Sendable () -> DeviceBook) async {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let (path, bytes) = (self.path, Array((try? encoder.encode(latest())) ?? Data()))
        do {
            try await BlockingPool.run { () throws(StoreError) in try AtomicFile.write(bytes, to: path) }
        } catch {
            logger.error("could not keep the linked devices", metadata: ["error": "\(error)"])
        }
    }
}
