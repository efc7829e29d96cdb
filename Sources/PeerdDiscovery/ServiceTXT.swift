package import PeerdModel
import PeerdWire

/// The TXT record of a peerd service: what a peer needs to know before connecting.
///
/// `proto=<peer protocol version>`, `id=<peer id>`, `name=<peer name>`. Discovery data is a hint,
/// never trust: the session's handshake decides who is really there.
package struct ServiceTXT: Hashable, Sendable {
    package var protocolVersion: Int
    package var peer: PeerID
    package var name: String

    package init(protocolVersion: Int = ProtocolVersion.peer, peer: PeerID, name: String) {
        self.protocolVersion = protocolVersion
        self.peer = peer
        self.name = name
    }

    /// Entries in the order they are published.
    package var entries: [(String, String)] {
        [("proto", String(protocolVersion)), ("id", peer.rawValue), ("name", name)]
    }

    /// Reads a TXT record, or says why it isn't a peerd service we can talk to.
    package static func parse(_ txt: [String: String]) -> Result<ServiceTXT, Unusable> {
        guard let proto = txt["proto"].flatMap({ Int($0) }) else { return .failure(.missing("proto")) }
        guard proto == ProtocolVersion.peer else { return .failure(.otherProtocol(proto)) }
        guard let id = txt["id"].flatMap(PeerID.init) else { return .failure(.missing("id")) }
        return .success(ServiceTXT(protocolVersion: proto, peer: id, name: txt["name"] ?? id.short))
    }

    package enum Unusable: Error, Hashable, Sendable {
        case missing(String)
        case otherProtocol(Int)
    }
}
