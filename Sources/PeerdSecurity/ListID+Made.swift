import Crypto
package import PeerdModel

extension ListID {
    /// The id of the list `creator` makes with `nonce` (proto/PEER.md, "Lists"): the first 16 bytes
    /// of SHA-256 over `peerd-list\n<creator>\n<nonce>`, in lowercase hex.
    package static func made(by creator: PeerID, nonce: String) -> ListID {
        let digest = SHA256.hash(data: Array("peerd-list\n\(creator.rawValue)\n\(nonce)".utf8))
        let hex = digest.prefix(16).map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }
        return ListID(hex.joined())!
    }

    /// A fresh nonce for a new list, and the list's id it makes with `creator`.
    package static func fresh(by creator: PeerID) -> (id: ListID, nonce: String) {
        let nonce = PeerID.random().rawValue
        return (made(by: creator, nonce: nonce), nonce)
    }
}
