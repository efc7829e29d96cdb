import PeerdRelay
import Testing

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Device ids as Syncthing writes and reads them: the cases of syncthing's
/// lib/protocol/deviceid_test.go and luhn_test.go.
@Suite struct RelayDeviceIDTests {
    static let formatted = "P56IOI7-MZJNU2Y-IQGDREY-DM2MGTI-MGL3BXN-PQ6W5BM-TBBZ4TJ-XZWICQ2"

    /// TestFormatDeviceID: every way of writing the one id reads as it.
    static let sameID = [
        "P56IOI-7MZJNU-2IQGDR-EYDM2M-GTMGL3-BXNPQ6-W5BTBB-Z4TJXZ-WICQ",
        "P56IOI-7MZJNU2Y-IQGDR-EYDM2M-GTI-MGL3-BXNPQ6-W5BM-TBB-Z4TJXZ-WICQ2",
        "P56IOI7 MZJNU2I QGDREYD M2MGTMGL 3BXNPQ6W 5BTB BZ4T JXZWICQ",
        "P56IOI7 MZJNU2Y IQGDREY DM2MGTI MGL3BXN PQ6W5BM TBBZ4TJ XZWICQ2",
        "P56IOI7MZJNU2IQGDREYDM2MGTMGL3BXNPQ6W5BTBBZ4TJXZWICQ",
        "p56ioi7mzjnu2iqgdreydm2mgtmgl3bxnpq6w5btbbz4tjxzwicq",
        "P56IOI7MZJNU2YIQGDREYDM2MGTIMGL3BXNPQ6W5BMTBBZ4TJXZWICQ2",
        "P561017MZJNU2YIQGDREYDM2MGTIMGL3BXNPQ6W5BMT88Z4TJXZWICQ2",
        "p56ioi7mzjnu2yiqgdreydm2mgtimgl3bxnpq6w5bmtbbz4tjxzwicq2",
        "p561017mzjnu2yiqgdreydm2mgtimgl3bxnpq6w5bmt88z4tjxzwicq2",
    ]

    @Test(arguments: sameID)
    func everyFormSyncthingAcceptsReadsAsTheOneID(_ text: String) throws {
        let id = try #require(RelayDeviceID(text))
        #expect(id.description == Self.formatted)
    }

    /// TestValidateDeviceID's refusals, and a wrong check character.
    @Test(arguments: [
        "a",
        "P56IOI7MZJNU2IQGDREYDM2MGTMGL3BXNPQ6W5BTBBZ4TJXZWICQCCCC",
        "p56ioi7mzjnu2iqgdreydm2mgtmgl3bxnpq6w5btbbz4tjxzwicqCCCC",
        "P56IOI7-MZJNU2Y-IQGDREY-DM2MGTI-MGL3BXN-PQ6W5BM-TBBZ4TJ-XZWICQ3",
        "P56IOI7-MZJNU2Z-IQGDREY-DM2MGTI-MGL3BXN-PQ6W5BM-TBBZ4TJ-XZWICQ2",
        "",
    ])
    func whatIsNoIDIsRefused(_ text: String) {
        #expect(RelayDeviceID(text) == nil)
    }

    /// TestMarshallingDeviceID's bytes, round trip through the text.
    @Test func bytesGoToTextAndBack() throws {
        let bytes: [UInt8] =
            [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 10, 21, 22, 23, 24]
            + [25, 26, 27, 28, 29, 30, 31, 32]
        let id = try #require(RelayDeviceID(bytes: bytes))
        #expect(RelayDeviceID(id.description) == id)
        #expect(RelayDeviceID(bytes: Array(bytes.dropLast())) == nil)
    }

    @Test func anIDIsTheSHA256OfTheCertificate() {
        // SHA-256 of the empty string: e3b0c442…b855.
        let id = RelayDeviceID(certificateDER: [])
        #expect(id.bytes.prefix(4) == [0xE3, 0xB0, 0xC4, 0x42])
        #expect(id.bytes.suffix(2) == [0xB8, 0x55])
    }

    @Test func anIDIsWrittenInJSONAsItsText() throws {
        let id = try #require(RelayDeviceID(Self.formatted))
        let json = try JSONEncoder().encode([id])
        #expect(String(decoding: json, as: UTF8.self) == "[\"\(Self.formatted)\"]")
        #expect(try JSONDecoder().decode([RelayDeviceID].self, from: json) == [id])
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([RelayDeviceID].self, from: Data("[\"x\"]".utf8))
        }
    }
}
