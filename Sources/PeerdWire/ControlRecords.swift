package import PeerdModel

/// A list row as the control protocol and `peerctl list --json` show it.
package struct MovieRecord: Hashable, Sendable, Codable {
    package var movieId: Int
    /// The details' title and year when a peer described the movie, else the earliest add's.
    package var title: String?
    package var year: Int?
    /// The poster's path on TMDB's image server, from the details.
    package var posterPath: String?
    /// Names of everyone whose add survives, earliest first.
    package var addedBy: [String]
    /// Their peer ids, in the same order.
    package var addedByPeers: [PeerID]
    /// Milliseconds since 1970 of the earliest surviving add.
    package var addedAt: Int64
    /// Pass as `after` to get the rows that follow this one.
    package var cursor: String
    /// The first of the group's services that streams it in the group's region, when one does.
    package var streamingOn: String?
    /// Each member's marks, by member id; absent when nobody marked it.
    @OmittedWhenEmpty package var marks: [MarkRecord] = []
    /// The average of the members' ratings, one decimal; absent when nobody rated it.
    package var averageRating: Double?

    package init(_ row: WatchListRow, settings: GroupSettings? = nil) {
        movieId = row.movie.id.rawValue
        title = row.title
        year = row.year
        posterPath = row.details?.posterPath
        addedBy = row.addedBy.map(\.name)
        addedByPeers = row.addedBy.map(\.peer)
        addedAt = row.addedAt
        cursor = row.key.cursor
        streamingOn = settings?.streamingService(in: row.providers)?.name
        marks = row.marks.map(MarkRecord.init)
        averageRating = row.marks.averageRating.map { ($0 * 10).rounded() / 10 }
    }

    /// A record as a reader found it (``ListPageReader``).
    package init(
        movieId: Int,
        title: String?,
        year: Int?,
        posterPath: String?,
        addedBy: [String],
        addedByPeers: [PeerID],
        addedAt: Int64,
        cursor: String,
        streamingOn: String?,
        marks: [MarkRecord],
        averageRating: Double?
    ) {
        self.movieId = movieId
        self.title = title
        self.year = year
        self.posterPath = posterPath
        self.addedBy = addedBy
        self.addedByPeers = addedByPeers
        self.addedAt = addedAt
        self.cursor = cursor
        self.streamingOn = streamingOn
        self.marks = marks
        self.averageRating = averageRating
    }
}

/// One `follow` event.
package struct ChangeRecord: Hashable, Sendable, Codable {
    package enum Kind: String, Hashable, Sendable, Codable {
        case added, updated, removed
    }

    package var change: Kind
    package var movieId: Int
    package var title: String?
    package var year: Int?
    /// Who made the operation that caused the change.
    package var by: String
    package var peer: PeerID
    package var at: Int64
    /// The row after the change; absent for `removed`.
    package var row: MovieRecord?
    /// The kind of the operation that caused it (`add`, `remove`, `describe`, `mark`, `watch`);
    /// absent from an older daemon.
    package var op: String?

    package init(_ change: WatchListChange) {
        switch change {
        case .added(let row, let op), .updated(let row, let op):
            self.change = if case .added = change { .added } else { .updated }
            self.row = MovieRecord(row)
            movieId = row.movie.id.rawValue
            title = row.title
            year = row.year
            by = op.by
            peer = op.id.origin
            at = op.at
            self.op = op.kind.name
        case .removed(let movie, let op):
            self.change = .removed
            row = nil
            movieId = movie.id.rawValue
            title = movie.title
            year = movie.year
            by = op.by
            peer = op.id.origin
            at = op.at
            self.op = op.kind.name
        }
    }
}

/// One peer as `peerctl peers` shows it.
package struct PeerRecord: Hashable, Sendable, Codable {
    package enum Source: String, Hashable, Sendable, Codable {
        /// Named with `--peer` or `peerctl connect`.
        case `static`
        /// It dialed us.
        case inbound
        /// Found on the LAN through mDNS.
        case mdns
        /// Known only because its operations reached us through other peers.
        case relay
        /// A member that announced through the group how to reach it (its addresses, its relay id).
        case group
    }

    package enum State: String, Hashable, Sendable, Codable {
        case connecting, handshaking, connected, retrying
        /// No direct session; its changes arrive through other peers.
        case relayed
        /// Announced on the LAN but not trusted, so not dialed (pair with `peerctl invite`/`join`).
        case untrusted
    }

    /// Whether this daemon trusts it (proto/SECURITY.md, "Trust").
    package enum Trust: String, Hashable, Sendable, Codable {
        /// On the trust list: its sessions are admitted.
        case member
        /// Seen (announced on the LAN, or it connected) but not trusted: nothing from it is merged.
        case untrusted
        /// Revoked with `peerctl forget`.
        case revoked
    }

    /// Nil until the first hello from it.
    package var peer: PeerID?
    package var name: String?
    /// The connection's address, or the first one to dial; nil for a relay-only peer.
    package var address: String?
    /// Every address known for it, best first.
    package var addresses: [String]
    package var source: Source
    package var state: State
    /// Nil while its id is unknown (nothing dialed has answered yet).
    package var trust: Trust?
    /// Milliseconds since 1970.
    package var connectedSince: Int64?
    package var lastSeen: Int64?
    package var opsSent: Int
    package var opsReceived: Int
    package var lastError: String?
    /// Seconds until the next dial, when `retrying`.
    package var retryIn: Double?
    /// How a connected session travels: straight to the peer, or through one of the group's relays
    /// (``via``); absent while not connected, and from a daemon older than relays.
    package var path: Path?
    /// The relay's `host:port`, when the session rides on a relay.
    package var via: String?

    package enum Path: String, Hashable, Sendable, Codable {
        /// Over the LAN, a forwarded port or an overlay: TCP straight to the peer.
        case direct
        /// Through a relay, which forwards the session's TLS bytes (proto/SECURITY.md, "Relays").
        case relay
    }

    package init(
        peer: PeerID?,
        name: String?,
        address: String?,
        addresses: [String],
        source: Source,
        state: State,
        trust: Trust? = nil,
        connectedSince: Int64? = nil,
        lastSeen: Int64? = nil,
        opsSent: Int = 0,
        opsReceived: Int = 0,
        lastError: String? = nil,
        retryIn: Double? = nil,
        path: Path? = nil,
        via: String? = nil
    ) {
        self.peer = peer
        self.name = name
        self.address = address
        self.addresses = addresses
        self.source = source
        self.state = state
        self.trust = trust
        self.connectedSince = connectedSince
        self.lastSeen = lastSeen
        self.opsSent = opsSent
        self.opsReceived = opsReceived
        self.lastError = lastError
        self.retryIn = retryIn
        self.path = path
        self.via = via
    }
}

/// The daemon's own state, for `peerctl status`.
package struct StatusRecord: Hashable, Sendable, Codable {
    package var peer: PeerID
    package var name: String
    package var port: Int
    package var movies: Int
    package var operations: Int
    package var peersConnected: Int
    package var peersKnown: Int
    package var uptimeSeconds: Double
    package var stateDir: String
    package var socket: String
    package var mdns: Bool
    package var version: String
    package var protocolVersion: Int
    /// Whether this daemon holds a TMDB token (never the token); absent from a daemon older than TMDB.
    package var tmdb: Bool?
    /// Whether `search` works now: this daemon holds a token, or a connected peer that holds one
    /// answers for it (proto/PEER.md, "Catalog queries"); absent from a daemon older than that.
    package var search: Bool?
    /// The page's address without its token (proto/WEB.md); absent when the page is off.
    package var web: String?
    /// Set once this daemon's key was removed from the group: "removed from the group by alice at 21:04".
    package var removed: String?
    /// The profile the request acted for, when it named one (proto/CONTROL.md, "profiles"): the
    /// member "me" is for it. Absent for the machine's own member.
    package var profile: PeerID?
    package var profileName: String?
    /// The list the request named (`inList`, proto/CONTROL.md, "Lists"), whose `movies` and
    /// `operations` these are. Absent for the group's own list.
    package var list: ListID?
    package var listName: String?

    package init(
        peer: PeerID,
        name: String,
        port: Int,
        movies: Int,
        operations: Int,
        peersConnected: Int,
        peersKnown: Int,
        uptimeSeconds: Double,
        stateDir: String,
        socket: String,
        mdns: Bool,
        version: String,
        tmdb: Bool? = false,
        search: Bool? = nil,
        web: String? = nil,
        removed: String? = nil
    ) {
        self.peer = peer
        self.name = name
        self.port = port
        self.movies = movies
        self.operations = operations
        self.peersConnected = peersConnected
        self.peersKnown = peersKnown
        self.uptimeSeconds = uptimeSeconds
        self.stateDir = stateDir
        self.socket = socket
        self.mdns = mdns
        self.version = version
        self.tmdb = tmdb
        self.search = search
        self.web = web
        self.removed = removed
        protocolVersion = ProtocolVersion.peer
    }
}
