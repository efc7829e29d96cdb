package import PeerdModel

/// What TMDB says of a movie about to be added on a token holder, asked before anything is written
/// and within ``FetchPolicy/addCheckWait``, so that peerd works as well without TMDB.
package enum AddCheck: Sendable {
    /// TMDB has it: the add carries its title and year.
    case found(MovieDetails)
    /// TMDB answered 404: the add is refused and nothing is written.
    case missing
    /// Nothing to go by (a failure, no answer in time, TMDB asked to wait; the reason says which):
    /// the add is written as it came, and a 404 later marks the row (``FetchSchedule``).
    case unknown(String)

    /// From the request's outcome, nil when it had no answer within `wait`: a 404 is `missing`,
    /// any other failure `unknown`.
    package init(_ outcome: Result<MovieDetails, CatalogError>?, wait: Duration) {
        switch outcome {
        case .success(let details): self = .found(details)
        case .failure(let error) where error.upstreamFailure?.isMissing == true: self = .missing
        case .failure(let error): self = .unknown(error.upstreamFailure.map(String.init(describing:)) ?? "\(error)")
        case nil: self = .unknown("no answer within \(FetchWait.text(wait))")
        }
    }
}

extension Movie {
    /// This movie with the title and year TMDB gives it (a year outside an add's limits is left out).
    package func titled(by details: MovieDetails) -> Movie {
        let titled = Movie(id: id, title: details.title, year: details.year)
        if titled.invalidReason == nil { return titled }
        let untimed = Movie(id: id, title: details.title)
        return untimed.invalidReason == nil ? untimed : self
    }
}
