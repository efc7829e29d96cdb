import PeerdRelay
import Testing

/// Relay URLs as people paste them: strelaysrv's own line, shorter forms, and the mistakes a
/// person makes, each refused with what to do.
@Suite struct RelayURLTests {
    static let id = "P56IOI7-MZJNU2Y-IQGDREY-DM2MGTI-MGL3BXN-PQ6W5BM-TBBZ4TJ-XZWICQ2"

    @Test func theLineStrelaysrvPrintsReadsAsItsAddressAndID() throws {
        let printed =
            "relay://203.0.113.7:22067/?id=\(Self.id)&pingInterval=1m0s&networkTimeout=2m0s"
            + "&sessionLimitBps=0&globalLimitBps=0&statusAddr=&providedBy="
        let url = try RelayURL.parse(printed).get()
        #expect(url.host == "203.0.113.7")
        #expect(url.port == 22067)
        #expect(url.id == RelayDeviceID(Self.id))
        #expect(url.token == nil)
        #expect(url.address == "203.0.113.7:22067")
        #expect(url.description == "relay://203.0.113.7:22067/?id=\(Self.id)")
    }

    @Test func theCanonicalFormReadsBackAsItself() throws {
        let texts = [
            "relay://relay.example.org:443/?id=\(Self.id)&token=s%C3%A9same%20ouvre",
            "relay://[2001:db8::7]:22067/?id=\(Self.id)",
            "relay://192.0.2.1:22067/",
        ]
        for text in texts {
            let url = try RelayURL.parse(text).get()
            #expect(url.description == text)
            #expect(try RelayURL.parse(url.description).get() == url)
        }
    }

    @Test func casesSpacesAndAShortIDAreForgiven() throws {
        let url = try RelayURL.parse("  RELAY://Relay.Example.org:22067?id=\(Self.id.lowercased())&token=a+b \n").get()
        #expect(url.host == "relay.example.org")
        #expect(url.id == RelayDeviceID(Self.id))
        #expect(url.token == "a b")
        let ipv6 = try RelayURL.parse("relay://[2001:DB8::7]:22067").get()
        #expect(ipv6.host == "2001:db8::7")
        #expect(ipv6.address == "[2001:db8::7]:22067")
        #expect(ipv6.id == nil)
    }

    @Test func mistakesAreRefusedWithWhatToDo() {
        let cases: [(String, String)] = [
            ("http://203.0.113.7:22067/", "a relay URL starts with relay://"),
            ("203.0.113.7:22067", "a relay URL starts with relay://"),
            ("relay://203.0.113.7/?id=\(Self.id)", "needs a port"),
            ("relay://203.0.113.7:/", "needs a port"),
            ("relay://203.0.113.7:99999/", "99999 is not a port"),
            ("relay://203.0.113.7:22067/?id=P56IOI7-MZJNU2Y", "is not a relay device id (a typo?)"),
            (
                "relay://0.0.0.0:22067/?id=\(Self.id)",
                "0.0.0.0 is where the relay listens, not its address: give the relay machine's address"
            ),
            ("relay://[::]:22067/", ":: is where the relay listens"),
            ("relay://:22067/", "names no host"),
            ("relay://2001:db8::7:22067/", "an IPv6 address goes in brackets"),
            ("relay://203.0.113.7:22067/relay", "has a path"),
            ("relay://bob@203.0.113.7:22067/", "has a user name"),
            ("relay://203.0.113.7:22067/?id=%ZZ", "is not name=value"),
        ]
        for (text, words) in cases {
            switch RelayURL.parse(text) {
            case .success(let url): Issue.record("\(text) read as \(url)")
            case .failure(let error): #expect(error.description.contains(words), "\(text): \(error)")
            }
        }
    }
}
