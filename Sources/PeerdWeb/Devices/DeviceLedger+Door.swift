import Logging
import PeerdModel
import Synchronization

/// What the device door asks of the ledger: links used, devices looked up, limits, streams that
/// end at an unlink, and where the door listens.
extension DeviceLedger {
    /// A link opened from `address`: the device made, and the capability for its cookie.
    package func redeem(code: Substring, from address: String, userAgent: String?) async
        -> Result<(device: DeviceBook.Device, capability: String), DeviceBook.Refusal>
    {
        let capability = DeviceSecret.capability()
        let now = Wallclock.millis()
        let made = book.withLock {
            $0.redeem(
                linkKey: DeviceSecret.key(code),
                capabilityKey: DeviceSecret.key(capability),
                id: DeviceSecret.id(),
                address: address,
                kind: DeviceKind(userAgent: userAgent),
                now: now
            )
        }
        changed.yield()
        guard case .success(let device) = made else { return made.map { ($0, capability) } }
        logger.notice(
            "a device was linked",
            metadata: [
                "device": "\(device.name)", "id": "\(device.id)", "member": "\(device.member.name)",
                "address": "\(address)", "linkedAt": "\(device.linkedAt)",
            ]
        )
        await file.save { self.snapshot }
        return .success((device, capability))
    }

    /// The device whose capability `cookie` holds, asking from `address`; its `lastSeen` is now.
    /// Written to the file at most once a minute per device.
    package func device(cookie: Substring?, from address: String) async -> Result<DeviceBook.Device, DeviceBook.Refusal>
    {
        guard let cookie, DeviceSecret.isCapability(cookie) else { return .failure(.unknownDevice) }
        let now = Wallclock.millis()
        let (found, stale) = book.withLock { book -> (Result<DeviceBook.Device, DeviceBook.Refusal>, Bool) in
            let found = book.device(capabilityKey: DeviceSecret.key(cookie), from: address)
            guard case .success(let device) = found else { return (found, false) }
            book.seen(device.id, now: now)
            return (found, (device.lastSeen ?? 0) < now - 60_000)
        }
        if stale { await file.save { self.snapshot } }
        return found
    }

    package func admit(_ kind: DeviceLimits<ContinuousClock.Instant>.Kind, from address: String) -> Duration? {
        limits.withLock { $0.admit(kind, from: address, now: .now) }
    }

    package func admit(device id: String) -> Duration? { limits.withLock { $0.admit(device: id, now: .now) } }

    /// An event stream of device `id`: nil when it has as many open as it may; else a stream that
    /// finishes when the device is unlinked (or at once if it is no more). ``closeStream(of:)`` when done.
    package func openStream(of id: String) -> DeviceStream? {
        guard limits.withLock({ $0.openStream(of: id) }) else { return nil }
        let (unlinked, end) = AsyncStream.makeStream(of: Never.self)
        let number = streams.withLock { streams in
            streams.count += 1
            streams.open[id, default: [:]][streams.count] = end
            return streams.count
        }
        if !book.withLock({ $0.devices.contains { $0.id == id } }) { end.finish() }
        return DeviceStream(device: id, number: number, unlinked: unlinked)
    }

    package func closeStream(_ stream: DeviceStream) {
        limits.withLock { $0.closeStream(of: stream.device) }
        streams.withLock { _ = $0.open[stream.device]?.removeValue(forKey: stream.number) }
    }

    /// Drops the links expired by now; when one was, the door may close.
    package func expireLinks() {
        let expired = book.withLock { $0.expire(now: Wallclock.millis()) }
        if !expired.isEmpty { changed.yield() }
    }

    package var nextExpiry: Int64? { book.withLock { $0.nextExpiry } }

    /// The door listens at `base` (`http://ADDRESS:PORT`).
    package func listening(at base: String) {
        wake { $0.base = base }
    }

    /// The door could not open, for this reason.
    package func failed(_ problem: String) {
        wake {
            $0.base = nil
            $0.problem = problem
        }
    }

    /// The door is closed: no device, no link.
    package func closed() {
        door.withLock { $0.base = nil }
    }

    private func wake(_ change: (inout DoorState) -> Void) {
        let waiting = door.withLock { state in
            change(&state)
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiting { waiter.resume() }
    }
}

/// One open event stream of a device: `unlinked` finishes when the device is unlinked.
package struct DeviceStream: Sendable {
    package let device: String
    let number: Int
    package let unlinked: AsyncStream<Never>
}
