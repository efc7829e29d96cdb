import PeerdModel
import PeerdRelay
import PeerdSecurity
import PeerdWire

/// `peerctl relay`: the group's relays and this daemon's membership of each, adding and removing
/// one (a signed `relays` operation, so every member follows), and what an invite code carries.
struct RelayDesk: Sendable {
    let replica: ReplicaService
    let presence: RelayPresence
    let directory: PeerDirectory
    /// This daemon's id on relays.
    let device: RelayDeviceID

    func respond(to request: RelayRequest) async -> ControlResponse {
        if let text = request.add { return await change(text, adding: true) }
        if let text = request.remove { return await change(text, adding: false) }
        return .relays(await records())
    }

    /// Each relay of the group's setting with how this daemon stands with it and its sessions.
    func records() async -> [RelayRecord] {
        var records = await presence.records(now: Wallclock.millis())
        let sessions = await directory.relayedSessions()
        for index in records.indices { records[index].sessions = sessions[records[index].address] ?? 0 }
        return records
    }

    /// Where an invite code says this daemon can be asked for: the first relay it is joined to.
    func inviteRelay() async -> InviteCode.Relay? {
        guard let relay = await presence.joinedURLs().first else { return nil }
        return InviteCode.Relay(device: device.bytes, address: relay.address)
    }

    private func change(_ text: String, adding: Bool) async -> ControlResponse {
        let url: RelayURL
        switch Self.parse(text, adding: adding) {
        case .failure(let error): return .error(WireError(.badRequest, "\(error)"))
        case .success(let parsed): url = parsed
        }
        let current = await replica.snapshot.relays?.urls ?? []
        let others = current.filter { (try? RelayURL.parse($0).get())?.address != url.address }
        if adding, current.contains(url.description) { return .relays(await records()) }
        if !adding, others.count == current.count {
            let known = current.isEmpty ? "the group has none" : "the group's are: " + current.joined(separator: ", ")
            return .error(WireError(.badRequest, "\(url.address) is not one of the group's relays; \(known)"))
        }
        let urls = adding ? others + [url.description] : others
        guard urls.count <= GroupRelays.maxRelays else {
            return .error(
                WireError(.badRequest, "a group has at most \(GroupRelays.maxRelays) relays; remove one first")
            )
        }
        do {
            _ = try await replica.submit(.relays(GroupRelays(urls: urls)), at: Wallclock.millis())
        } catch {
            return .error(ReplicaService.wireError(error))
        }
        await presence.use(urls.compactMap { try? RelayURL.parse($0).get() })
        return .relays(await records())
    }

    /// The URL `text` names; a relay to remove may also be named by its `host:port` alone, as
    /// `peerctl relay` shows it.
    private static func parse(_ text: String, adding: Bool) -> Result<RelayURL, RelayURLError> {
        let text = text.filter { !$0.isWhitespace }
        let parsed = RelayURL.parse(text)
        guard !adding, case .failure = parsed, !text.contains("://") else { return parsed }
        let bare = RelayURL.parse("relay://" + text)
        if case .success = bare { return bare }
        return parsed
    }
}
