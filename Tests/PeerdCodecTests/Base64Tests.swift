import PeerdCodec
import PeerdModel
import PeerdTestKit
import Testing

@Suite struct Base64Tests {
    @Test(
        arguments: [
            ([], ""), ([0x66], "Zg=="), ([0x66, 0x6F], "Zm8="), ([0x66, 0x6F, 0x6F], "Zm9v"),
            ([0xFB, 0xFF, 0xBF], "+/+/"), ([0x66, 0x6F, 0x6F, 0x62, 0x61, 0x72], "Zm9vYmFy"),
        ] as [([UInt8], String)]
    )
    func itWritesAndReadsTheStandardPaddedForm(bytes: [UInt8], text: String) {
        #expect(Base64.string(bytes) == text)
        #expect(Base64.decode(text) == bytes)
    }

    @Test(arguments: ["Zg", "Zg=", "Zh==", "Zm9=", "Zm 9v", "Zm9v\n", "Zm-_", "=Zm9", "Z===", "Zg==Zm9v"])
    func itRefusesAnythingButTheOneCanonicalForm(text: String) {
        #expect(Base64.decode(text) == nil)
    }

    @Test func everyByteStringRoundTrips() {
        var rng = SplitMix64(seed: 7)
        for length in 0..<100 {
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            #expect(Base64.decode(Base64.string(bytes)) == bytes)
        }
    }
}
