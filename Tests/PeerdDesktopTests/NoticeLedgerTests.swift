import Testing

@testable import PeerdDesktop

/// Which clicks open a link, with no bus: the ledger alone.
@Suite struct NoticeLedgerTests {
    @Test func onlyTheDefaultActionOfANoticeWithALinkFromItsOwnServerOpens() {
        var ledger = NoticeLedger()
        ledger.shown(id: 7, by: ":1.4", openURL: "http://a/")
        ledger.shown(id: 8, by: ":1.4", openURL: nil)
        #expect(ledger.actionInvoked(id: 7, key: "default", by: ":1.4") == "http://a/")
        #expect(ledger.actionInvoked(id: 7, key: "default", by: ":1.4") == "http://a/", "a resident notice, again")
        #expect(ledger.actionInvoked(id: 7, key: "open", by: ":1.4") == nil)
        #expect(ledger.actionInvoked(id: 7, key: "default", by: ":1.9") == nil, "another connection")
        #expect(ledger.actionInvoked(id: 7, key: "default", by: nil) == nil)
        #expect(ledger.actionInvoked(id: 8, key: "default", by: ":1.4") == nil, "no link")
        #expect(ledger.actionInvoked(id: 9, key: "default", by: ":1.4") == nil, "never sent")
    }

    @Test func aClosedNoticeIsForgottenAndOnlyTheNewestAreKept() {
        var ledger = NoticeLedger(limit: 3)
        ledger.shown(id: 1, by: ":1.4", openURL: "http://1/")
        ledger.closed(id: 1, by: ":1.9")
        #expect(ledger.count == 1, "only its server closes it")
        ledger.closed(id: 1, by: ":1.4")
        #expect(ledger.count == 0 && ledger.actionInvoked(id: 1, key: "default", by: ":1.4") == nil)
        for id in UInt32(2)...6 { ledger.shown(id: id, by: ":1.4", openURL: "http://\(id)/") }
        #expect(ledger.count == 3)
        #expect(ledger.actionInvoked(id: 3, key: "default", by: ":1.4") == nil)
        #expect(ledger.actionInvoked(id: 4, key: "default", by: ":1.4") == "http://4/")
    }
}
