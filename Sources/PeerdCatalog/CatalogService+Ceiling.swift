import Logging
import PeerdLoops
package import PeerdModel

extension CatalogService {
    /// Whether `movie` may join a list whose ceiling is `ceiling` (proto/PEER.md, "Ceilings"), by its
    /// certification in `region` (nil: the group's region, else the configured language's). Asked before an
    /// add writes anything, as ``checkBeforeAdd(_:)`` is and within the same ``FetchPolicy/addCheckWait``:
    /// cached certifications and order answer at once; a movie not cached costs one request (its details with
    /// its release dates, cached for the describe that follows), the order one more, once. While TMDB asked
    /// to wait or looks down, or without an answer in time, the verdict is `unknown`.
    package func checkCeiling(_ movie: MovieID, ceiling: String, region: String? = nil) async -> CeilingCheck {
        var asked = region
        if asked == nil { asked = await replica.groupRegion() }
        let region = asked ?? TMDBResponses.region(of: client.settings.language)
        let wait = schedule.policy.addCheckWait
        if schedule.isHeld(now: clock.now), await !hasCached(movie) {
            return CeilingCheck(
                verdict: .unknown("TMDB asked to wait, or looks down"),
                region: region,
                ceiling: ceiling
            )
        }
        let outcome = await Self.first(within: wait) { () async -> Result<CeilingCheck, CatalogError> in
            do throws(CatalogError) {
                let certification = try await self.certification(of: movie, in: region, for: .addCheck)
                let order = try await self.certificationOrder(in: region, for: .addCheck)
                return .success(
                    CeilingCheck(certification: certification, region: region, ceiling: ceiling, order: order)
                )
            } catch {
                return .failure(error)
            }
        }
        let check: CeilingCheck
        switch outcome {
        case .success(let found)?:
            check = found
        case .failure(let error)?:
            noteFailure(error)
            let reason = error.upstreamFailure.map(String.init(describing:)) ?? "\(error)"
            check = CeilingCheck(verdict: .unknown(reason), region: region, ceiling: ceiling)
        case nil:
            let reason = "no answer within \(FetchWait.text(wait))"
            check = CeilingCheck(verdict: .unknown(reason), region: region, ceiling: ceiling)
        }
        if check.verdict != .allowed {
            logger.info(
                "checked a movie against a ceiling",
                metadata: [
                    "movie": "\(movie)", "region": "\(region)", "ceiling": "\(ceiling)", "verdict": "\(check.verdict)",
                ]
            )
        }
        return check
    }

    /// Whether `movie`'s certifications and the orders are at hand without asking TMDB.
    private func hasCached(_ movie: MovieID) async -> Bool {
        guard await cache.certifications(of: movie, language: client.settings.language) != nil else { return false }
        if certificationOrders != nil { return true }
        return await cache.certificationOrders() != nil
    }
}
