/// An instant that only moves when a test says so, with room for gaps of billions of years: for
/// the pure state machines and rate limits that are generic over their instant.
package struct TestInstant: InstantProtocol {
    package var offset: Duration

    package static let zero = TestInstant(offset: .zero)

    package init(offset: Duration) { self.offset = offset }

    package func advanced(by duration: Duration) -> TestInstant { TestInstant(offset: offset + duration) }
    package func duration(to other: TestInstant) -> Duration { other.offset - offset }
    package static func < (lhs: TestInstant, rhs: TestInstant) -> Bool { lhs.offset < rhs.offset }

    package static func seconds(_ seconds: Double) -> TestInstant { TestInstant(offset: .seconds(seconds)) }
}
