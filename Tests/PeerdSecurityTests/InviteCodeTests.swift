import PeerdModel
import PeerdSecurity
import PropertyBased
import Testing

/// `wl1-` codes (proto/SECURITY.md, "Invite codes"): read aloud, typed, pasted.
@Suite struct InviteCodeTests {
    static let alphabet = Set("abcdefghijklmnopqrstuvwxyz234567")

    /// A code of a fingerprint-sized inviter id and a 16-byte secret.
    static let codes = zip(Gen.uint8().array(of: 16), Gen.uint8().array(of: 16))
        .map { id, secret in InviteCode(inviter: PeerID(bytes: id)!, secret: secret) }

    /// A code made of fixed bytes, so each check on it always sees the same text.
    let code = InviteCode(inviter: PeerID(bytes: 0..<16)!, secret: Array(16..<32))

    @Test func aPrintedCodeParsesBackToTheSameCode() async {
        await propertyCheck(input: Self.codes) { code in
            #expect(InviteCode(code.description) == code)
            #expect(InviteCode(code.description)?.key == code.key)
        }
    }

    @Test func aPrintedCodeIsLowerCaseBase32InGroupsOfFive() async {
        await propertyCheck(input: Self.codes) { code in
            let groups = code.description.split(separator: "-", omittingEmptySubsequences: false)
            #expect(groups.first == "wl1")
            #expect(groups.count == 12)
            #expect(groups.dropFirst().dropLast().allSatisfy { $0.count == 5 })
            #expect(groups.dropFirst().allSatisfy { $0.allSatisfy(Self.alphabet.contains) })
        }
    }

    @Test func caseDashesAndWhitespaceDoNotMatter() {
        let text = code.description
        #expect(InviteCode(text + "\n") == code)
        #expect(InviteCode("\t" + text.split(separator: "-").joined(separator: "\t")) == code)
        #expect(InviteCode(text.uppercased()) == code)
        #expect(InviteCode(text.filter { $0 != "-" }) == code)
        #expect(InviteCode(text.split(separator: "-").joined(separator: " ")) == code)
        #expect(InviteCode(" " + text.split(separator: "-").joined(separator: " - ") + " ") == code)
    }

    @Test func aMistypedCharacterIsCaught() {
        let text = Array(code.description)
        // The last character carries two bits of the check and three of padding; every other one is all data.
        for index in text.indices.dropFirst(4).dropLast() where text[index] != "-" {
            var typo = text
            typo[index] = text[index] == "a" ? "b" : "a"
            #expect(InviteCode(String(typo)) == nil, "typo at \(index)")
        }
    }

    @Test(arguments: ["wl2", "wl", "w1", "lw1", "xwl1", ""])
    func aCodeWithAnotherPrefixIsRejected(prefix: String) {
        let body = code.description.dropFirst(3)
        #expect(InviteCode(prefix + body) == nil)
    }

    @Test func aCodeTooShortOrTooLongIsRejected() {
        let text = code.description
        #expect(InviteCode(String(text.dropLast())) == nil)
        #expect(InviteCode(String(text.dropLast(6))) == nil)
        #expect(InviteCode(text + "a") == nil)
        #expect(InviteCode(text + "-aaaaa") == nil)
        #expect(InviteCode("wl1-") == nil)
        #expect(InviteCode("") == nil)
    }

    @Test(arguments: ["0", "1", "8", "9", "=", "_", "é"] as [Character])
    func aCharacterOutsideBase32IsRejected(character: Character) {
        var text = Array(code.description)
        text[10] = character
        #expect(InviteCode(String(text)) == nil)
    }

    @Test func freshCodesHoldDifferentSecretsAndGiveDifferentKeys() {
        let first = InviteCode.make(inviter: code.inviter)
        let second = InviteCode.make(inviter: code.inviter)
        #expect(first.secret != second.secret)
        #expect(first.key != second.key)
        #expect(InviteCode(first.description)?.inviter == code.inviter)
    }

    /// A code of a group with a relay: `wl2-`, carrying the inviter's device id there and the relay.
    let relayed = InviteCode(
        inviter: PeerID(bytes: 0..<16)!,
        secret: Array(16..<32),
        relay: InviteCode.Relay(device: Array(32..<64), address: "198.51.100.10:22067")
    )

    @Test func aCodeWithARelayCarriesItAndParsesBack() async {
        let text = relayed.description
        #expect(text.hasPrefix("wl2-"))
        #expect(InviteCode(text) == relayed)
        #expect(InviteCode(text.uppercased().split(separator: "-").joined(separator: " ")) == relayed)
        #expect(InviteCode(text)?.key == code.key, "the relay changes where, not what is proved")
        await propertyCheck(input: Self.codes) { code in
            var withRelay = code
            withRelay.relay = InviteCode.Relay(device: Array(code.secret + code.secret), address: "[2001:db8::7]:22067")
            #expect(InviteCode(withRelay.description) == withRelay)
        }
    }

    @Test func aRelayCodeWithATypoOrTheWrongPrefixIsRejected() {
        let text = Array(relayed.description)
        for index in text.indices.dropFirst(4).dropLast() where text[index] != "-" {
            var typo = text
            typo[index] = text[index] == "a" ? "b" : "a"
            #expect(InviteCode(String(typo)) == nil, "typo at \(index)")
        }
        #expect(InviteCode("wl1" + relayed.description.dropFirst(3)) == nil)
        #expect(InviteCode("wl2" + code.description.dropFirst(3)) == nil)
    }
}
