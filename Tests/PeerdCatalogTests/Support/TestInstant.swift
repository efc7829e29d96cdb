/// An instant that only moves when a test says so.
struct TestInstant: InstantProtocol {
    var offset: Duration

    static let zero = TestInstant(offset: .zero)

    func advanced(by duration: Duration) -> TestInstant { TestInstant(offset: offset + duration) }
    func duration(to other: TestInstant) -> Duration { other.offset - offset }
    static func < (lhs: TestInstant, rhs: TestInstant) -> Bool { lhs.offset < rhs.offset }
}

extension TestInstant {
    static func seconds(_ seconds: Double) -> TestInstant { TestInstant(offset: .seconds(seconds)) }
}
