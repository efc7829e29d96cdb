import PeerdWeb
import Testing

@Suite("WebGate: who gets in, and where")
struct WebGateTests {
    let token = WebToken.random()
    var gate: WebGate { WebGate(token: token, port: 7602, addresses: ["127.0.0.1", "::1", "192.168.1.5"]) }

    func request(
        _ method: String = "POST",
        _ path: String = "/api/request",
        host: String? = "127.0.0.1:7602",
        origin: String? = "http://127.0.0.1:7602",
        bearer: String? = nil
    ) -> WebGate.Request {
        WebGate.Request(
            method: method,
            path: path,
            host: host,
            origin: origin,
            authorization: (bearer ?? token.hex).isEmpty ? nil : "Bearer \(bearer ?? token.hex)"
        )
    }

    /// The status a refusal carries; nil when the request is let in.
    func refusal(_ verdict: WebGate.Verdict) -> Int? {
        guard case .refuse(let status, _) = verdict else { return nil }
        return status
    }

    @Test("the page's own files need the Host check but no token")
    func pageFilesNeedNoToken() {
        for path in ["/", "/index.html", "/app.js", "/app.css"] {
            #expect(gate.admit(request("GET", path, origin: nil, bearer: "")) == .admit)
        }
        #expect(gate.admit(request("POST", "/", bearer: "")) == .refuse(status: 405, reason: "use GET"))
    }

    @Test("Host must be a loopback literal, localhost or a configured address, on the page's port")
    func hostIsChecked() {
        for host in ["127.0.0.1:7602", "[::1]:7602", "localhost:7602", "LOCALHOST:7602", "192.168.1.5:7602"] {
            #expect(gate.admit(request(host: host)) == .admit, "\(host)")
        }
        for host in ["evil.example:7602", "127.0.0.1:7603", "127.0.0.1", "", "attacker.localhost:7602"] {
            #expect(refusal(gate.admit(request(host: host))) == 421, "\(host) was let in")
        }
        #expect(refusal(gate.admit(request(host: nil))) == 421, "no Host let in")
        let onHTTPPort = WebGate(token: token, port: 80)
        #expect(onHTTPPort.admit(request(host: "localhost", origin: "http://localhost")) == .admit)
        #expect(onHTTPPort.admit(request(host: "[::1]", origin: "http://[::1]:80")) == .admit)
    }

    @Test("the API needs the token: none, a wrong one or another scheme is 401")
    func apiNeedsTheToken() {
        let wrong = WebToken.random().hex
        for bearer in ["", wrong, String(token.hex.dropLast()), token.hex + "0", token.hex.uppercased()] {
            #expect(refusal(gate.admit(request(bearer: bearer))) == 401, "token '\(bearer)' was let in")
        }
        let basic = WebGate.Request(
            method: "GET",
            path: "/api/events",
            host: "127.0.0.1:7602",
            origin: nil,
            authorization: "Basic \(token.hex)"
        )
        #expect(refusal(gate.admit(basic)) == 401, "Basic was let in")
    }

    @Test("a POST needs an Origin of this page; the event stream (GET) doesn't")
    func writesNeedTheOrigin() {
        for origin in [nil, "http://evil.example", "https://127.0.0.1:7602", "http://127.0.0.1:7603", "null"] {
            #expect(refusal(gate.admit(request(origin: origin))) == 403, "Origin \(origin ?? "none") was let in")
        }
        #expect(gate.admit(request(origin: "http://[::1]:7602")) == .admit)
        #expect(gate.admit(request("GET", "/api/events", origin: nil)) == .admit)
    }

    @Test("unknown paths are 404 (401 under /api/ without a token), wrong methods 405")
    func unknownPathsAndMethods() {
        #expect(refusal(gate.admit(request("GET", "/secret", bearer: ""))) == 404, "unknown path not 404")
        #expect(refusal(gate.admit(request("GET", "/api/nope"))) == 404, "unknown API path with a token not 404")
        #expect(
            refusal(gate.admit(request("GET", "/api/nope", bearer: ""))) == 401,
            "unknown API path without a token not 401"
        )
        #expect(gate.admit(request("GET", "/api/request")) == .refuse(status: 405, reason: "use POST"))
        #expect(gate.admit(request("POST", "/api/events")) == .refuse(status: 405, reason: "use GET"))
    }

    @Test("listening on every address admits the loopback names only")
    func wildcardAddsNoHost() {
        let open = WebGate(token: token, port: 7602, addresses: ["::", "0.0.0.0"])
        #expect(open.admit(request(host: "[::1]:7602")) == .admit)
        #expect(refusal(open.admit(request(host: "[::]:7602"))) == 421, "[::] let in")
    }
}
