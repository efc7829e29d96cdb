package import Crypto

/// A device's id on a relay: SHA-256 of the certificate it presents in TLS, written as Syncthing
/// writes device ids (syncthing's lib/protocol/deviceid.go):
///
/// ```
/// P56IOI7-MZJNU2Y-IQGDREY-DM2MGTI-MGL3BXN-PQ6W5BM-TBBZ4TJ-XZWICQ2
/// ```
///
/// the 32 bytes in base32 (52 characters), each quarter of 13 followed by its check character
/// (56), in groups of 7 joined by `-`. A relay knows each device by it, and strelaysrv prints its
/// own in its URL, so a relay is checked to be the one the group named.
package struct RelayDeviceID: Hashable, Sendable, CustomStringConvertible {
    /// The certificate's SHA-256: 32 bytes.
    package let bytes: [UInt8]

    /// The id of the device that presents `certificateDER` in TLS.
    package init(certificateDER: [UInt8]) {
        bytes = Array(SHA256.hash(data: certificateDER))
    }

    /// Nil unless `bytes` are 32.
    package init?(bytes: [UInt8]) {
        guard bytes.count == 32 else { return nil }
        self.bytes = bytes
    }

    /// Reads an id as Syncthing does: case and the dashes and spaces between groups don't matter, nor
    /// do the look-alikes `0`, `1` and `8` for `O`, `I` and `B`; with check characters (56) they must
    /// be right; without them (52, the old form) the id is taken as it is. Nil for anything else.
    package init?(_ text: String) {
        var characters: [UInt8] = []
        for character in text.uppercased().utf8 {
            switch character {
            case UInt8(ascii: "-"), UInt8(ascii: " "), UInt8(ascii: "="): continue
            case UInt8(ascii: "0"): characters.append(UInt8(ascii: "O"))
            case UInt8(ascii: "1"): characters.append(UInt8(ascii: "I"))
            case UInt8(ascii: "8"): characters.append(UInt8(ascii: "B"))
            default: characters.append(character)
            }
        }
        if characters.count == 56 {
            guard let plain = SyncthingText.withoutCheckCharacters(characters) else { return nil }
            characters = plain
        }
        guard characters.count == 52, let bytes = SyncthingText.decode(characters) else { return nil }
        self.bytes = bytes
    }

    /// Syncthing's form, with check characters and dashes.
    package var description: String {
        let plain = SyncthingText.encode(bytes)
        var withChecks: [UInt8] = []
        for quarter in 0..<4 {
            let part = Array(plain[quarter * 13..<(quarter + 1) * 13])
            withChecks += part
            withChecks.append(SyncthingText.checkCharacter(part) ?? UInt8(ascii: "?"))
        }
        let groups = stride(from: 0, to: withChecks.count, by: 7).map {
            String(decoding: withChecks[$0..<$0 + 7], as: UTF8.self)
        }
        return groups.joined(separator: "-")
    }

    /// The first group: enough to tell ids apart in a log line.
    package var short: String { String(description.prefix(7)) }
}

extension RelayDeviceID: Codable {
    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let id = RelayDeviceID(text) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "\(text) is not a relay device id"
            )
        }
        self = id
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
