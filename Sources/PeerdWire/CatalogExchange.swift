/// A question for TMDB that a peer without a token asks one that holds one (proto/PEER.md,
/// "Catalog queries"). `id` pairs it with its ``CatalogAnswer``; the asker picks it.
package struct CatalogQuery: Hashable, Sendable {
    package var id: UInt64
    package var ask: Ask

    package init(id: UInt64, ask: Ask) {
        self.id = id
        self.ask = ask
    }

    /// What is asked. A kind this peer doesn't know is kept as `unknown`, so the holder answers it
    /// with `bad-request` and the session goes on: later versions add kinds.
    package enum Ask: Hashable, Sendable {
        /// One page (1-based) of TMDB's search, optionally limited to a release year.
        case search(text: String, year: Int?, page: Int)
        case unknown(kind: String)

        package var kind: String {
            switch self {
            case .search: "search"
            case .unknown(let kind): kind
            }
        }
    }
}

/// The holder's answer to a ``CatalogQuery``: the result, or why there is none.
package struct CatalogAnswer: Hashable, Sendable {
    package var id: UInt64
    package var outcome: Result<Found, WireError>

    package init(id: UInt64, outcome: Result<Found, WireError>) {
        self.id = id
        self.outcome = outcome
    }

    /// What a query found.
    package enum Found: Hashable, Sendable {
        case search(SearchResultsRecord)
    }
}

extension CatalogQuery: Codable {
    enum CodingKeys: String, CodingKey {
        case id, kind, text, year, page
    }

    /// The longest search text a query carries, as `peerctl search` allows.
    package static let maxTextLength = 200

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(UInt64.self, forKey: .id)
        let kind = try c.decode(String.self, forKey: .kind)
        switch kind {
        case "search":
            let text = try c.decode(String.self, forKey: .text)
            let page = try c.decodeIfPresent(Int.self, forKey: .page) ?? 1
            guard (1...Self.maxTextLength).contains(text.count), (1...500).contains(page) else {
                throw WireError(.malformedFrame, "a search query is 1 to 200 characters, its page 1 to 500")
            }
            ask = .search(text: text, year: try c.decodeIfPresent(Int.self, forKey: .year), page: page)
        default:
            ask = .unknown(kind: kind)
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(ask.kind, forKey: .kind)
        switch ask {
        case .search(let text, let year, let page):
            try c.encode(text, forKey: .text)
            try c.encodeIfPresent(year, forKey: .year)
            try c.encode(page, forKey: .page)
        case .unknown: break
        }
    }
}

extension CatalogAnswer: Codable {
    enum CodingKeys: String, CodingKey {
        case id, search, error
    }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(UInt64.self, forKey: .id)
        if let error = try c.decodeIfPresent(WireError.self, forKey: .error) {
            outcome = .failure(error)
        } else if let page = try c.decodeIfPresent(SearchResultsRecord.self, forKey: .search) {
            outcome = .success(.search(page))
        } else {
            throw WireError(.malformedFrame, "an 'answer' holds a result or an 'error'")
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        switch outcome {
        case .success(.search(let page)): try c.encode(page, forKey: .search)
        case .failure(let error): try c.encode(error, forKey: .error)
        }
    }
}
