import PeerdModel
import PeerdRelay
import PeerdSecurity
import PeerdWire
import ServiceLifecycle

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `join`: pairing with the daemon that printed an invite code, and the words for how it ended.
extension ControlResponder {
    /// Registers the code, dials the inviter if an address was given (mDNS finds it otherwise), and
    /// answers once admission has paired the two, or at once when the inviter refuses the code.
    func join(_ text: String, address addressText: String?) async -> ControlResponse {
        guard let code = InviteCode(text) else {
            return .error(
                WireError(.badRequest, "'\(text)' is not an invite code; copy the wl1-… line 'peerctl invite' printed")
            )
        }
        guard code.inviter != info.identity else {
            return .error(WireError(.badRequest, "that code is this peer's own; use it on another machine"))
        }
        var address: PeerAddress?
        if let addressText {
            guard let parsed = PeerAddress(addressText, defaultPort: nil) else {
                return .error(WireError(.badRequest, Self.notAnAddress(addressText)))
            }
            address = parsed
        }
        async let joined = trust.join(code)
        if let address { try? await dialer.add(address, remember: true) }
        if let route = Self.relayRoute(of: code) { await dialer.reached(code.inviter, addresses: [], route: route) }
        switch await joined {
        case .paired:
            let name = await trust.name(of: code.inviter)
            return .joined(peer: code.inviter, name: name, members: await trust.memberCount)
        case .refused(let reason, let spent):
            return .error(WireError(.badRequest, refusal(reason, spent, inviter: code.inviter)))
        case .stopped:
            return .error(.shuttingDown)
        case .timedOut:
            let how =
                address.map { "at \($0)" } ?? code.relay.map { "over mDNS or through the relay at \($0.address)" }
                ?? "over mDNS; is it on this LAN? Give its address with --address host:port"
            return .error(
                WireError(
                    .timeout,
                    "could not pair with \(code.inviter.short) \(how). Codes expire; ask for a new one if needed."
                )
            )
        }
    }

    /// Where a code says the inviter can be asked for through a relay (proto/SECURITY.md, "Invite codes").
    static func relayRoute(of code: InviteCode) -> DialTarget.RelayRoute? {
        guard let relay = code.relay, let device = RelayDeviceID(bytes: relay.device),
            let url = try? RelayURL.parse("relay://\(relay.address)").get()
        else { return nil }
        return DialTarget.RelayRoute(device: device, relays: [url])
    }

    /// What the inviter's refusal of a code means to the one who typed it, and what to do.
    private func refusal(_ reason: AdmissionRefusal, _ spent: SpentInvite?, inviter: PeerID) -> String {
        let who = spent?.inviter ?? inviter.short
        switch (reason, spent) {
        case (.inviteUsed, let spent?):
            return "this code was already used (at \(Self.clockTime(spent.at))); ask \(who) for a new one"
        case (.inviteExpired, let spent?):
            return "this code expired at \(Self.clockTime(spent.at)); ask \(who) for a new one"
        case (.removed, let spent?):
            return "this peerd was \(Membership.removedWords(by: who, at: spent.at)), and a removed key never comes "
                + "back: to join again, start peerd with a fresh state directory (a new key) and ask for a new code"
        case (.revoked, _):
            return "\(who) refused this peerd: it revoked it with peerctl forget; to undo that, run there: "
                + "peerctl trust \(info.identity)"
        case (.notAMember, _):
            return "\(who) does not know this code: a code works once, until it expires, and is forgotten when "
                + "its peerd restarts; ask for a new one"
        default:
            return "\(who) refused this code: \(reason)"
        }
    }

    /// `HH:MM:SS` in local time, as `peerctl invite` printed the code's end; `YYYY-MM-DD HH:MM` on another day.
    static func clockTime(_ millis: Int64) -> String {
        LocalTime.at(millis: millis).shown(today: .now)
    }
}
