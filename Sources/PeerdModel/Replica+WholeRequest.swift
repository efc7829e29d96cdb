extension Replica {
    /// The drafts of one whole request, in order, each made as if the ones before it were staged
    /// (a mark after the add of its movie, a "not seen" after a rating's clear): all of them, or
    /// the first refusal and none. The caller seals and stages them in this order.
    package func draft(whole requests: [LocalRequest], at now: Int64, by author: Author? = nil) throws(LocalRefusal)
        -> [Draft]
    {
        guard requests.count > 1 else {
            return try requests.map { request throws(LocalRefusal) in
                try draft(request, at: now, by: author)
            }
        }
        // A copy stages the drafts to draft the next: only its staged operations and vector change.
        var trial = self
        var drafts: [Draft] = []
        for request in requests {
            let made = try trial.draft(request, at: now, by: author)
            if case .operation(let op) = made { trial.stage(local: op) }
            drafts.append(made)
        }
        return drafts
    }
}
