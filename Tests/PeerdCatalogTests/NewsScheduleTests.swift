import PeerdCatalog
import PeerdModel
import Testing

/// When wanted movies are checked for news, and by which token holder (``NewsSchedule``).
@Suite struct NewsScheduleTests {
    static let alice = PeerID("a11ce000000000000000000000000001")!
    static let bob = PeerID("b0b00000000000000000000000000002")!
    static let movies = (1...40).map { MovieID(600 + $0)! }
    static let day: Int64 = 86_400_000

    @Test func twoHoldersShareTheMoviesWithoutOverlap() {
        var alice = NewsSchedule(peer: Self.alice, interval: .seconds(86_400))
        var bob = NewsSchedule(peer: Self.bob, interval: .seconds(86_400))
        alice.reconcile(wanted: Self.movies, holders: [Self.bob], now: 0)
        bob.reconcile(wanted: Self.movies, holders: [Self.alice], now: 0)
        let checkedByAlice = Set(Self.checks(&alice, until: Self.day))
        let checkedByBob = Set(Self.checks(&bob, until: Self.day))
        #expect(checkedByAlice.isDisjoint(with: checkedByBob))
        #expect(checkedByAlice.union(checkedByBob) == Set(Self.movies))
        #expect(!checkedByAlice.isEmpty && !checkedByBob.isEmpty)
        // Alone, a holder checks them all.
        var lone = NewsSchedule(peer: Self.alice, interval: .seconds(86_400))
        lone.reconcile(wanted: Self.movies, holders: [], now: 0)
        #expect(Set(Self.checks(&lone, until: Self.day)) == Set(Self.movies))
    }

    @Test func eachMovieIsCheckedOnceAnIntervalSpreadOverIt() {
        var schedule = NewsSchedule(peer: Self.alice, interval: .seconds(86_400))
        schedule.reconcile(wanted: Self.movies, holders: [], now: 0)
        let dues = Self.movies.map { schedule.due(of: $0) }
        #expect(dues.allSatisfy { (0..<Self.day).contains($0) })
        #expect(Set(dues.map { $0 / (Self.day / 8) }).count >= 6)  // spread over the day, not one burst
        // Three days: each movie three times, at its phase each day.
        let checked = Self.checks(&schedule, until: 3 * Self.day - 1)
        #expect(Dictionary(grouping: checked, by: \.self).values.map(\.count).allSatisfy { $0 == 3 })
        #expect(Set(checked) == Set(Self.movies))
    }

    @Test func aFailedOrCutShortCheckIsMadeAgain() {
        var schedule = NewsSchedule(peer: Self.alice, interval: .seconds(10))
        schedule.reconcile(wanted: [Self.movies[0]], holders: [], now: 0)
        guard case .check(let movie) = schedule.next(now: 10_000) else { Issue.record("nothing due"); return }
        schedule.failed(movie, at: 10_000)
        #expect(schedule.next(now: 10_001) == .wait(until: 20_000))
        // A restart forgets what was under way; only recorded checks carry over.
        var restarted = NewsSchedule(peer: Self.alice, interval: .seconds(10), checked: schedule.checked)
        restarted.reconcile(wanted: [Self.movies[0]], holders: [], now: 10_002)
        #expect(restarted.next(now: 20_002) == .check(Self.movies[0]))
    }

    /// The movies checked until `end`, each check recorded at its due time.
    static func checks(_ schedule: inout NewsSchedule, until end: Int64) -> [MovieID] {
        var now: Int64 = 0
        var checked: [MovieID] = []
        while true {
            switch schedule.next(now: now) {
            case .check(let movie):
                checked.append(movie)
                schedule.checked(movie, at: now)
            case .wait(let until) where until <= end: now = until
            case .wait, .idle: return checked
            }
        }
    }
}
