import Testing

@testable import PeerdWeb

@Suite("DeviceGate: the door's host, a link, the member's page and its API, nothing else")
struct DeviceGateTests {
    let gate = DeviceGate(address: "10.0.0.5", port: 7604)
    let code = "uGRvtKEZ16TsOXojop-0RA"

    func admit(_ method: String, _ path: String, host: String? = "10.0.0.5:7604", origin: String? = nil)
        -> DeviceGate.Verdict
    {
        gate.admit(method: method, path: path, host: host, origin: origin)
    }

    @Test("each route, by its method")
    func routes() {
        let expected: [(String, String, DeviceGate.Route)] = [
            ("GET", "/link/\(code)", .link(code: Substring(code))),
            ("GET", "/", .file("/")), ("GET", "/index.html", .file("/index.html")),
            ("GET", "/app.js", .file("/app.js")),
            ("HEAD", "/app.css", .file("/app.css")),
            ("GET", "/manifest.webmanifest", .openFile("/manifest.webmanifest")),
            ("GET", "/icon-192.png", .openFile("/icon-192.png")), ("GET", "/icon-512.png", .openFile("/icon-512.png")),
            ("POST", "/api/request", .request), ("GET", "/api/events", .events),
        ]
        for (method, path, route) in expected {
            #expect(admit(method, path, origin: "http://10.0.0.5:7604") == .admit(route), "\(method) \(path)")
        }
    }

    @Test("anything else is 404: the guest page, short or long codes, tricks with dots and slashes")
    func everythingElseIsNotFound() {
        for path in [
            "/g/\(code)/", "/guest.html", "/guest.js", "/link/", "/link/\(code.dropLast())", "/link/\(code)x",
            "/link/\(code)/", "/link/../api/request", "/api/", "/api/request/x", "/API/request", "//api/request",
        ] {
            #expect(admit("GET", path) == .refuse(status: 404, reason: "no such page"), "\(path)")
        }
    }

    @Test("Host must be the door's: another address, port, a name, or none is 421")
    func hostIsTheDoors() {
        for host in [nil, "10.0.0.6:7604", "10.0.0.5:7602", "10.0.0.5", "evil.example:7604", "localhost:7604"] {
            guard case .refuse(421, _, _) = admit("GET", "/", host: host) else {
                Issue.record("host \(host ?? "none") was let in")
                continue
            }
        }
    }

    @Test("a POST needs the door's own Origin; wrong methods are 405 with Allow")
    func originAndMethods() {
        for origin in [nil, "null", "http://evil.example", "http://10.0.0.5:7602", "https://10.0.0.5:7604"] {
            #expect(
                admit("POST", "/api/request", origin: origin)
                    == .refuse(status: 403, reason: "a change must come from this page (Origin)")
            )
        }
        #expect(admit("GET", "/api/request") == .refuse(status: 405, reason: "use POST", allow: "POST"))
        #expect(
            admit("POST", "/api/events", origin: "http://10.0.0.5:7604")
                == .refuse(status: 405, reason: "use GET", allow: "GET")
        )
        #expect(admit("HEAD", "/link/\(code)") == .refuse(status: 405, reason: "use GET", allow: "GET"))
        #expect(
            admit("POST", "/", origin: "http://10.0.0.5:7604")
                == .refuse(status: 405, reason: "use GET", allow: "GET, HEAD")
        )
    }

    @Test("the gate follows the port it listens on")
    func listeningPort() {
        #expect(gate.listening(on: 40_000).authority == "10.0.0.5:40000")
    }
}
