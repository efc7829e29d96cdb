import PeerdCatalog
import PeerdTestKit
import Testing

/// The pure parts of a list's ceiling (issue 39, item 3): a movie's certification from its release dates, a
/// country's order, and what is above a ceiling.
@Suite struct CertificationsTests {
    typealias Release = MovieCertifications.Release

    @Test func theMatrixIsRatedByItsTheatricalReleaseInEachCountry() throws {
        let certifications = try TMDBResponses.releaseDates(Fixtures.bytes("release-dates-603.json"))
        #expect(certifications.byCountry == ["US": "R", "DE": "16", "GB": "15"])
        #expect(certifications.certification(in: "US") == "R")
        #expect(certifications.certification(in: "JP") == nil)  // a release with an empty certification
        #expect(certifications.certification(in: "FR") == nil)  // no release at all
    }

    @Test func aTheatricalCertificationWinsOverEarlierListedOnes() {
        let releases = [
            Release(certification: "PG-13", type: 6), Release(certification: "", type: 3),
            Release(certification: "PG", type: 1), Release(certification: "R", type: 3),
            Release(certification: "G", type: 2),
        ]
        #expect(MovieCertifications.certification(among: releases) == "R")
        #expect(MovieCertifications.certification(among: Array(releases.dropLast(2))) == "PG")
        #expect(MovieCertifications.certification(among: [Release(certification: " PG-13 ", type: 4)]) == "PG-13")
    }

    @Test func emptyAndNotRatedCertificationsAreNone() {
        let releases = [Release(certification: "", type: 3), Release(certification: "NR", type: 3)]
        #expect(MovieCertifications.certification(among: releases) == nil)
        #expect(MovieCertifications.certification(among: []) == nil)
        #expect(MovieCertifications.certification(among: releases + [Release(certification: "X", type: nil)]) == "X")
    }

    @Test func theOrderListIsSortedByTMDBsOrderWithoutNotRated() throws {
        let orders = try TMDBResponses.certificationOrders(Fixtures.bytes("certification-movie-list.json"))
        #expect(orders.order(in: "US").ranked == ["G", "PG", "PG-13", "R", "NC-17"])
        #expect(orders.order(in: "DE").ranked == ["0", "6", "12", "16", "18"])
        #expect(orders.order(in: "GB").ranked == ["U", "PG", "12A", "12", "15", "18", "R18"])
        #expect(orders.order(in: "XX").ranked.isEmpty)
    }

    @Test func aCertificationAboveTheCeilingIsAboveAndOneAtOrBelowIsNot() {
        let us = CertificationOrder(["G", "PG", "PG-13", "R", "NC-17"])
        #expect(us.isAbove("R", ceiling: "PG"))
        #expect(us.isAbove("PG-13", ceiling: "PG"))
        #expect(!us.isAbove("PG", ceiling: "PG"))
        #expect(!us.isAbove("G", ceiling: "PG"))
    }

    /// Fails closed: what the order can't place, it can't keep under a ceiling.
    @Test func whatTheOrderDoesNotKnowIsAbove() {
        let us = CertificationOrder(["G", "PG", "PG-13", "R", "NC-17"])
        #expect(us.isAbove("TV-Y", ceiling: "NC-17"))
        #expect(us.isAbove("NR", ceiling: "NC-17"))
        #expect(us.isAbove("G", ceiling: "12"))
        #expect(CertificationOrder([]).isAbove("G", ceiling: "G"))
    }

    /// For random orders and pairs: `isAbove` is the order's rank comparison for what it knows, a ceiling
    /// keeps itself and everything before it, and nothing unknown passes.
    @Test(arguments: 0..<50) func isAboveIsTheOrdersComparison(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed))
        let pool = ["G", "PG", "PG-13", "R", "NC-17", "0", "6", "12", "16", "18", "U", "12A", "15"]
        let ranked = Array(pool.shuffled(using: &rng).prefix(Int.random(in: 1...pool.count, using: &rng)))
        let order = CertificationOrder(ranked)
        for certification in pool {
            for ceiling in pool {
                let expected: Bool
                if let rank = ranked.firstIndex(of: certification), let top = ranked.firstIndex(of: ceiling) {
                    expected = rank > top
                } else {
                    expected = true
                }
                #expect(order.isAbove(certification, ceiling: ceiling) == expected)
            }
        }
        let ceiling = ranked.randomElement(using: &rng)!
        #expect(ranked.prefix { $0 != ceiling }.allSatisfy { !order.isAbove($0, ceiling: ceiling) })
        #expect(!order.isAbove(ceiling, ceiling: ceiling))
    }

    /// For random release lists: the certification is a non-empty one of the most preferred type that has one,
    /// the first of that type in TMDB's order; nil exactly when none is rated.
    @Test(arguments: 0..<50) func theCertificationIsTheFirstOfTheMostPreferredRatedType(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed) + 1_000)
        let releases = (0..<Int.random(in: 0...8, using: &rng)).map { _ in
            Release(
                certification: ["", "NR", "G", "PG", "R", "12"].randomElement(using: &rng)!,
                type: [1, 2, 3, 4, 5, 6, 7, nil].randomElement(using: &rng)!
            )
        }
        let rated = releases.filter { !Certifications.isUnrated($0.certification) }
        let found = MovieCertifications.certification(among: releases)
        guard let first = rated.first else {
            #expect(found == nil)
            return
        }
        let preference = [3, 2, 1, 4, 5, 6]
        let rank = { (release: Release) in release.type.flatMap { preference.firstIndex(of: $0) } ?? 6 }
        let best = rated.map(rank).min() ?? rank(first)
        #expect(found == rated.first { rank($0) == best }?.certification)
    }

    @Test func certificationsAppendedToDetailsAreReadAndMissingOnesAreUnknown() throws {
        let appended = try TMDBResponses.appendedReleaseDates(Fixtures.bytes("movie-862-appended.json"))
        #expect(appended?.byCountry == ["US": "G", "DE": "0"])
        #expect(try TMDBResponses.appendedReleaseDates(Fixtures.bytes("movie-603.json")) == nil)
    }

    @Test func aBodyOfAnotherShapeIsUnexpected() {
        #expect(throws: CatalogError.self) {
            try TMDBResponses.certificationOrders(Array(#"{"certifications":3}"#.utf8))
        }
        #expect(throws: CatalogError.self) { try TMDBResponses.releaseDates(Array("not json".utf8)) }
    }
}
