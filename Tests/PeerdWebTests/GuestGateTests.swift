import PeerdModel
import Testing

@testable import PeerdWeb

@Suite("GuestGate: the link's host, the page, its files and four routes under one capability, nothing else")
struct GuestGateTests {
    let gate = GuestGate(address: "10.0.0.5", port: 7603)
    let cap = "uGRvtKEZ16TsOXojop-0RA"

    func admit(_ method: String, _ path: String, host: String? = "10.0.0.5:7603", origin: String? = nil)
        -> GuestGate.Verdict
    {
        gate.admit(method: method, path: path, host: host, origin: origin)
    }

    @Test("each route, by its method, with the capability")
    func routes() {
        let expected: [(String, String, GuestGate.Route)] = [
            ("GET", "/", .page), ("GET", "/guest.js", .file("guest.js")), ("GET", "/live.js", .file("live.js")),
            ("GET", "/guest.css", .file("guest.css")), ("GET", "/base.css", .file("base.css")),
            ("GET", "/api.js", .file("api.js")), ("GET", "/card.js", .file("card.js")),
            ("GET", "/dom.js", .file("dom.js")),
            ("GET", "/state", .state), ("GET", "/events", .events),
            ("POST", "/join", .join), ("POST", "/vote", .vote),
        ]
        for (method, tail, route) in expected {
            let verdict = admit(method, "/g/\(cap)\(tail)", origin: "http://10.0.0.5:7603")
            #expect(verdict == .admit(capability: Substring(cap), route), "\(method) \(tail)")
        }
    }

    @Test("anything else is 404: other paths, the main page's, tricks with dots and slashes, short capabilities")
    func everythingElseIsNotFound() {
        for path in [
            "/", "/index.html", "/app.js", "/api/request", "/api/events", "/g/", "/g/\(cap)/list",
            "/g/\(cap)/state/x", "/g/\(cap)/../state", "/g/\(cap)//state", "/g/short/state",
            "/g/\(cap)x/state", "/g/\(cap.dropLast())!/state", "/G/\(cap)/state", "/g/\(cap)/%73tate",
            // The member's page's own files are not the guest page's.
            "/g/\(cap)/app.js", "/g/\(cap)/tonight.js", "/g/\(cap)/page.js", "/g/\(cap)/app.css",
            "/g/\(cap)/index.html", "/g/\(cap)/guest.html",
        ] {
            #expect(admit("GET", path) == GuestGate.notFound, "\(path)")
        }
    }

    @Test("the link without its slash is redirected to it")
    func redirectsToTheSlash() {
        #expect(admit("GET", "/g/\(cap)") == .redirect(capability: Substring(cap)))
        #expect(admit("POST", "/g/\(cap)") == GuestGate.notFound)
    }

    @Test("Host must be the link's: another address, port, a name, or none is 421")
    func hostIsTheLinks() {
        for host in [nil, "10.0.0.6:7603", "10.0.0.5:7602", "10.0.0.5", "evil.example:7603", "localhost:7603"] {
            guard case .refuse(421, _, _) = admit("GET", "/g/\(cap)/state", host: host) else {
                Issue.record("host \(host ?? "none") was let in")
                continue
            }
        }
        #expect(admit("GET", "/g/\(cap)/state", host: "10.0.0.5:7603") == .admit(capability: Substring(cap), .state))
    }

    @Test("a POST needs the page's Origin (403); a wrong method is 405 with Allow")
    func originAndMethods() {
        for origin in [nil, "null", "http://10.0.0.5:7602", "https://10.0.0.5:7603", "http://evil.example"] {
            #expect(
                admit("POST", "/g/\(cap)/vote", origin: origin)
                    == .refuse(status: 403, reason: "a vote must come from the guest page (Origin)"),
                "\(origin ?? "none")"
            )
        }
        #expect(admit("GET", "/g/\(cap)/vote") == .refuse(status: 405, reason: "use POST", allow: "POST"))
        #expect(
            admit("POST", "/g/\(cap)/state", origin: "http://10.0.0.5:7603")
                == .refuse(status: 405, reason: "use GET", allow: "GET, HEAD")
        )
        #expect(admit("HEAD", "/g/\(cap)/") == .admit(capability: Substring(cap), .page))
    }

    @Test("the port picked at bind time is the one Host must name")
    func listeningOnAPickedPort() {
        let bound = GuestGate(address: "10.0.0.5", port: 0).listening(on: 40123)
        #expect(bound.authority == "10.0.0.5:40123")
    }
}

@Suite("GuestKey: a capability and tokens that only this key makes")
struct GuestKeyTests {
    let key = GuestKey(WebToken(hex: String(repeating: "ab", count: 32))!)
    let other = GuestKey(WebToken(hex: String(repeating: "cd", count: 32))!)
    let pick = PickOnList(OperationID(origin: PeerID("e47d41781ad71e3c12901eaf77360415")!, seq: 14))
    /// The same pick id on another list (each list keeps its own chains).
    let onFriends = PickOnList(
        OperationID(origin: PeerID("e47d41781ad71e3c12901eaf77360415")!, seq: 14),
        on: ListID("0f1e2d3c4b5a69788796a5b4c3d2e1f0")!
    )
    var next: PickOnList { PickOnList(OperationID(origin: pick.id.origin, seq: 15)) }

    @Test("a capability is 22 base64url characters, one per pick, one per key, and opens only its pick")
    func capabilities() {
        let cap = key.capability(for: pick)
        #expect(cap.count == 22 && GuestGate.isCapability(Substring(cap)))
        #expect(cap == key.capability(for: pick))
        #expect(cap != key.capability(for: next))
        #expect(cap != key.capability(for: onFriends))
        #expect(!key.opens(onFriends, with: Substring(cap)))
        #expect(cap != other.capability(for: pick))
        #expect(key.opens(pick, with: Substring(cap)))
        #expect(!key.opens(pick, with: Substring(other.capability(for: pick))))
    }

    /// HMAC-SHA-256 of "peerd-guest-v1\n<origin>/<seq>" under the key, its first 16 bytes in
    /// base64url (computed apart, with Python's hmac): the link a peerd made before lists.
    @Test("a pick on the group's list keeps the capability it had before lists")
    func capabilityOfTheGroupsPickIsUnchanged() {
        #expect(key.capability(for: pick) == "2IUIrAiyi3zOeoepGn1S_Q")
    }

    @Test("a token names its guest; altered, moved to another pick or made by another key, it names nobody")
    func tokens() {
        let guest = Pick.Guest(id: "5e1f0c2a9b7d4e83", name: "Zoë. M")
        let token = key.token(for: guest, in: pick)
        #expect(key.guest(fromToken: Substring(token), in: pick) == guest)
        #expect(key.guest(fromToken: Substring(token), in: next) == nil)
        #expect(key.guest(fromToken: Substring(token), in: onFriends) == nil)
        #expect(other.guest(fromToken: Substring(token), in: pick) == nil)
        let renamed = token.split(separator: ".").enumerated().map { $0.offset == 1 ? "U2Ft" : String($0.element) }
        #expect(key.guest(fromToken: Substring(renamed.joined(separator: ".")), in: pick) == nil)
        #expect(key.guest(fromToken: Substring("x" + token.dropFirst()), in: pick) == nil)
        #expect(key.guest(fromToken: "", in: pick) == nil)
    }
}

@Suite("GuestLimits: per address and per guest, bounded")
struct GuestLimitsTests {
    typealias Limits = GuestLimits<ContinuousClock.Instant>

    @Test("an address gets its burst of 40, then waits; another address is not slowed")
    func requestsPerAddress() {
        var limits = Limits()
        let now = ContinuousClock.now
        let burst = (0..<40).map { _ in limits.admit(.request, from: "10.0.0.9", now: now) }
        #expect(burst.allSatisfy { $0 == nil })
        let wait = limits.admit(.request, from: "10.0.0.9", now: now)
        #expect(wait != nil && wait! <= .milliseconds(50))
        let other = limits.admit(.request, from: "10.0.0.8", now: now)
        let later = limits.admit(.request, from: "10.0.0.9", now: now + .milliseconds(50))
        #expect(other == nil && later == nil)
    }

    @Test("5 joins, then one per 10 s; 20 votes per guest, then 4 a second")
    func joinsAndVotes() {
        var limits = Limits()
        let now = ContinuousClock.now
        let joins = (0..<5).map { _ in limits.admit(.join, from: "a", now: now) }
        let sixth = limits.admit(.join, from: "a", now: now)
        #expect(joins.allSatisfy { $0 == nil } && sixth! > .seconds(9))
        let guest = Pick.Guest(id: "5e1f0c2a9b7d4e83", name: "Sam")
        let votes = (0..<20).map { _ in limits.admitVote(by: guest, now: now) }
        let refused = limits.admitVote(by: guest, now: now)
        let later = limits.admitVote(by: guest, now: now + .milliseconds(250))
        #expect(votes.allSatisfy { $0 == nil } && refused != nil && later == nil)
    }

    @Test("8 event streams per address, counted down as they close")
    func streams() {
        var limits = Limits()
        let opened = (0..<8).map { _ in limits.openStream(from: "a") }
        #expect(opened.allSatisfy { $0 })
        let ninth = limits.openStream(from: "a")
        let another = limits.openStream(from: "b")
        #expect(!ninth && another)
        limits.closeStream(from: "a")
        let again = limits.openStream(from: "a")
        #expect(again)
    }

    @Test("a flood from many addresses never tracks more than 1024 of them, and each still gets an answer")
    func boundedUnderAFlood() {
        var limits = Limits()
        let now = ContinuousClock.now
        for n in 0..<5000 {
            let address = "10.\(n / 65536).\(n / 256 % 256).\(n % 256)"
            _ = limits.admit(.request, from: address, now: now)
            _ = limits.admit(.request, from: address, now: now)
        }
        #expect(limits.tracked <= 1024)
    }
}
