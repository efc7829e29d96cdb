import Crypto
import PropertyBased
import Testing

@testable import PeerdImport

/// The fingerprint's hash against FIPS 180-4's examples (and NIST's long message), every padding length around
/// a block's end included.
@Suite("SHA-256")
struct SHA256DigestTests {
    private func hex(_ text: String) -> String { hex(Array(text.utf8)) }

    private func hex(_ bytes: [UInt8]) -> String {
        SHA256Digest.hash(bytes).map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }.joined()
    }

    @Test func theStandardsExamplesHashAsItSays() {
        #expect(hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        )
        #expect(
            hex([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
        )
    }

    /// Messages of 55, 56, 63, 64 and 65 bytes: the length field fits in the last block, or needs one more.
    @Test(arguments: [
        (55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
        (56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"),
        (63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"),
        (64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
        (65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0"),
    ])
    func everyPaddingLengthAroundABlocksEnd(count: Int, digest: String) {
        #expect(hex(String(repeating: "a", count: count)) == digest)
    }

    @Test func anyMessageHashesAsSwiftCryptoHashesIt() async {
        await propertyCheck(input: Gen.uint8().array(of: 0...300)) { bytes in
            #expect(SHA256Digest.hash(bytes) == Array(SHA256.hash(data: bytes)))
        }
    }
}
