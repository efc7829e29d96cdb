/// The text of Syncthing's device ids: RFC 4648 base32 in upper case without padding, and its own
/// check character per 13 characters (syncthing's lib/protocol/luhn.go: Luhn's scheme over base 32,
/// as Syncthing has written it since 0.9, which is not quite the textbook Luhn mod N).
///
/// Written here: none of the project's libraries offers base32 or this check, both are a few lines,
/// and PeerdSecurity's `Base32` (lower case, for invite codes) is that module's own.
enum SyncthingText {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

    /// A character's value, 0 to 31; nil when it is not in the alphabet.
    static func value(of character: UInt8) -> Int? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): Int(character - UInt8(ascii: "A"))
        case UInt8(ascii: "2")...UInt8(ascii: "7"): Int(character - UInt8(ascii: "2")) + 26
        default: nil
        }
    }

    static func encode(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var buffer = 0
        var bits = 0
        for byte in bytes {
            buffer = (buffer << 8 | Int(byte)) & 0xFFFF
            bits += 8
            while bits >= 5 {
                out.append(alphabet[(buffer >> (bits - 5)) & 31])
                bits -= 5
            }
        }
        if bits > 0 { out.append(alphabet[(buffer << (5 - bits)) & 31]) }
        return out
    }

    /// The bytes of whole characters; bits left over at the end are dropped, as Go's decoder does.
    static func decode(_ characters: [UInt8]) -> [UInt8]? {
        var out: [UInt8] = []
        var buffer = 0
        var bits = 0
        for character in characters {
            guard let value = value(of: character) else { return nil }
            buffer = (buffer << 5 | value) & 0xFFFF
            bits += 5
            if bits >= 8 {
                out.append(UInt8((buffer >> (bits - 8)) & 0xFF))
                bits -= 8
            }
        }
        return out
    }

    /// The check character of `characters`: values weighted 1, 2, 1, 2…, each product's base-32
    /// digits summed, and the character that brings the sum to a multiple of 32.
    static func checkCharacter(_ characters: [UInt8]) -> UInt8? {
        var factor = 1
        var sum = 0
        for character in characters {
            guard let value = value(of: character) else { return nil }
            let addend = factor * value
            factor = factor == 2 ? 1 : 2
            sum += addend / 32 + addend % 32
        }
        return alphabet[(32 - sum % 32) % 32]
    }

    /// The 52 characters of a 56-character id, once each quarter's check character is right.
    static func withoutCheckCharacters(_ characters: [UInt8]) -> [UInt8]? {
        var plain: [UInt8] = []
        for quarter in 0..<4 {
            let part = Array(characters[quarter * 14..<quarter * 14 + 13])
            guard let check = checkCharacter(part), check == characters[quarter * 14 + 13] else { return nil }
            plain += part
        }
        return plain
    }
}
