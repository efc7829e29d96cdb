import PeerdModel
import Testing

@testable import PeerdWeb

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

@Suite("DeviceBook: links used once, devices bound to their address, unlinked by name, id or member")
struct DeviceBookTests {
    static let sam = PeerID("0123456789abcdef0123456789abcdef")!
    let alice = DeviceBook.Member(peer: nil, name: "alice")
    let sam = DeviceBook.Member(peer: DeviceBookTests.sam, name: "sam")

    /// A book with one pending link for `member`, its code known by `code`'s key.
    func book(
        link code: String = "code-1",
        for member: DeviceBook.Member? = nil,
        name: String? = nil,
        expiresAt: Int64 = 1_000
    )
        -> DeviceBook
    {
        var book = DeviceBook()
        book.add(.init(key: DeviceSecret.key(code), member: member ?? alice, name: name, expiresAt: expiresAt))
        return book
    }

    func redeem(
        _ book: inout DeviceBook,
        code: String = "code-1",
        capability: String = "cap-1",
        id: String = "d1",
        from address: String = "10.0.0.7",
        kind: DeviceKind = .phone,
        at now: Int64 = 500
    ) -> Result<DeviceBook.Device, DeviceBook.Refusal> {
        book.redeem(
            linkKey: DeviceSecret.key(code),
            capabilityKey: DeviceSecret.key(capability),
            id: id,
            address: address,
            kind: kind,
            now: now
        )
    }

    @Test("a link makes one device, named after its member and kind, and works only once")
    func aLinkWorksOnce() throws {
        var book = book()
        #expect(book.needsDoor)
        let device = try redeem(&book).get()
        #expect(device.name == "alice's phone" && device.member == alice && device.address == "10.0.0.7")
        #expect(device.linkedAt == 500 && device.lastSeen == nil)
        #expect(book.links.isEmpty && book.devices == [device])
        #expect(redeem(&book, capability: "cap-2", id: "d2") == .failure(.unknownLink))
        #expect(book.devices.count == 1)
    }

    @Test("an expired link makes nothing and is gone; a forged one is unknown")
    func expiredAndForgedLinks() {
        var book = book(expiresAt: 1_000)
        #expect(redeem(&book, code: "forged") == .failure(.unknownLink))
        #expect(redeem(&book, at: 1_000) == .failure(.expiredLink))
        #expect(book.devices.isEmpty && book.links.isEmpty && !book.needsDoor)
    }

    @Test("expire drops only the links past their time, and the next expiry follows; cancel drops one")
    func expiry() {
        var book = book(link: "a", expiresAt: 100)
        book.add(.init(key: DeviceSecret.key("b"), member: sam, name: nil, expiresAt: 300))
        #expect(book.nextExpiry == 100)
        #expect(book.expire(now: 200).map(\.expiresAt) == [100])
        #expect(book.nextExpiry == 300)
        book.cancel(DeviceSecret.key("b"))
        #expect(book.nextExpiry == nil && !book.needsDoor)
    }

    @Test("the capability works from the address that linked, and from no other")
    func boundToTheAddress() throws {
        var book = book()
        let device = try redeem(&book).get()
        #expect(book.device(capabilityKey: DeviceSecret.key("cap-1"), from: "10.0.0.7") == .success(device))
        #expect(book.device(capabilityKey: DeviceSecret.key("cap-1"), from: "10.0.0.8") == .failure(.otherAddress))
        #expect(book.device(capabilityKey: DeviceSecret.key("cap-x"), from: "10.0.0.7") == .failure(.unknownDevice))
    }

    @Test("names: the link's own, or the member's kind, numbered when taken in any case")
    func names() throws {
        var book = book(link: "a", for: sam)
        book.add(.init(key: DeviceSecret.key("b"), member: sam, name: nil, expiresAt: 1_000))
        book.add(.init(key: DeviceSecret.key("c"), member: sam, name: "Sam's TV", expiresAt: 1_000))
        book.add(.init(key: DeviceSecret.key("d"), member: sam, name: "kitchen", expiresAt: 1_000))
        #expect(try redeem(&book, code: "a", capability: "1", id: "1", kind: .tv).get().name == "sam's TV")
        #expect(try redeem(&book, code: "b", capability: "2", id: "2", kind: .tv).get().name == "sam's TV 2")
        #expect(try redeem(&book, code: "c", capability: "3", id: "3", kind: .phone).get().name == "Sam's TV 3")
        #expect(try redeem(&book, code: "d", capability: "4", id: "4", kind: .phone).get().name == "kitchen")
    }

    @Test("unlink by id or by name in any case; lastSeen follows requests")
    func unlink() throws {
        var book = book()
        let device = try redeem(&book).get()
        book.seen(device.id, now: 900)
        #expect(book.device(named: "ALICE'S PHONE")?.lastSeen == 900)
        #expect(book.unlink("nobody") == nil)
        #expect(book.unlink("d1")?.name == "alice's phone")
        #expect(book.devices.isEmpty && !book.needsDoor)
        #expect(book.device(capabilityKey: DeviceSecret.key("cap-1"), from: "10.0.0.7") == .failure(.unknownDevice))
    }

    @Test("a removed member's devices and links go; the others stay")
    func removedMembers() throws {
        var book = book(link: "a", for: sam)
        book.add(.init(key: DeviceSecret.key("b"), member: alice, name: nil, expiresAt: 1_000))
        book.add(.init(key: DeviceSecret.key("c"), member: sam, name: nil, expiresAt: 1_000))
        _ = try redeem(&book, code: "a", capability: "1", id: "1").get()
        _ = try redeem(&book, code: "b", capability: "2", id: "2").get()
        let gone = book.unlinkMembers { $0 == Self.sam }
        #expect(gone.map(\.id) == ["1"])
        #expect(book.devices.map(\.id) == ["2"] && book.links.isEmpty)
    }

    @Test("the file holds the devices, never the pending links")
    func fileForm() throws {
        var book = book(link: "a")
        book.add(.init(key: DeviceSecret.key("b"), member: sam, name: nil, expiresAt: 1_000))
        _ = try redeem(&book, code: "a").get()
        let bytes = try JSONEncoder().encode(book)
        let read = try JSONDecoder().decode(DeviceBook.self, from: bytes)
        #expect(read.devices == book.devices && read.links.isEmpty)
        #expect(!String(decoding: bytes, as: UTF8.self).contains("cap-1"))
    }
}

@Suite("DeviceKind: what a User-Agent says the device is")
struct DeviceKindTests {
    @Test(arguments: [
        (
            "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/126.0 Mobile Safari/537.36",
            DeviceKind.phone
        ),
        ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148", .phone),
        ("Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15", .tablet),
        ("Mozilla/5.0 (Linux; Android 13; SM-X200) AppleWebKit/537.36 Chrome/126.0 Safari/537.36", .tablet),
        ("Mozilla/5.0 (SMART-TV; Linux; Tizen 6.0) AppleWebKit/537.36 SamsungBrowser/4.0 TV Safari/537.36", .tv),
        ("Mozilla/5.0 (Web0S; Linux/SmartTV) AppleWebKit/537.36 Chrome/79.0 Safari/537.36", .tv),
        ("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36", .browser),
    ])
    func kind(agent: String, kind: DeviceKind) {
        #expect(DeviceKind(userAgent: agent) == kind)
    }

    @Test func noAgentIsABrowser() { #expect(DeviceKind(userAgent: nil) == .browser) }
}
