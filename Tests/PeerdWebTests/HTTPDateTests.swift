import Testing

@testable import PeerdWeb

/// The `Date` header each response of the page formats for itself (``PageServer``).
@Suite("The Date header")
struct HTTPDateTests {
    @Test(arguments: [
        (784_111_777, "Sun, 06 Nov 1994 08:49:37 GMT"),  // RFC 9110's own example
        (0, "Thu, 01 Jan 1970 00:00:00 GMT"),
        (1_709_164_800, "Thu, 29 Feb 2024 00:00:00 GMT"),
    ])
    func secondsSinceTheEpochInIMFFixdate(seconds: Int, text: String) {
        #expect(HTTPDate.format(seconds) == text)
    }
}
