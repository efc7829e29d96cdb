import PeerdCatalog
import PeerdModel
import PeerdSecurity
import PeerdWeb
import PeerdWire
import ServiceLifecycle

/// Routes `peerctl`'s and the page's requests to the desk of their feature (lists, marks, picks,
/// the catalog, imports); the daemon's own facts (status, peers, pairing) are answered here.
/// `follow` is streamed by `ControlServer`.
struct ControlResponder: Sendable {
    let replica: ReplicaService
    let directory: PeerDirectory
    let dialer: PeerDialer
    let trust: TrustService
    /// How mDNS discovery stands, for `diagnose`.
    let discovery: DiscoveryStatus
    let info: DaemonInfo
    let list: ListDesk
    let marks: MarkDesk
    let picks: PickDesk
    let catalog: CatalogDesk
    /// Imports; nil when this daemon takes none.
    let imports: ImportDesk?

    /// The desks of a daemon's parts: `catalog` is TMDB when this daemon holds a token, `asker`
    /// a holder's when it holds none; `guests` the guest door (nil with `--no-guests`).
    init(
        replica: ReplicaService,
        directory: PeerDirectory,
        dialer: PeerDialer,
        trust: TrustService,
        catalog access: (any CatalogAccess)?,
        asker: CatalogAsker? = nil,
        shelf: CatalogShelf? = nil,
        discovery: DiscoveryStatus,
        info: DaemonInfo,
        guests: (any GuestLinks)? = nil,
        imports journals: ImportJournals? = nil
    ) {
        (self.replica, self.directory, self.dialer, self.trust) = (replica, directory, dialer, trust)
        (self.discovery, self.info) = (discovery, info)
        let roster = MemberRoster(trust: trust, me: info.identity, myName: info.name)
        let catalog = CatalogDesk(
            replica: replica,
            catalog: access,
            asker: asker,
            shelf: shelf,
            tmdbLanguage: info.tmdbLanguage
        )
        self.catalog = catalog
        list = ListDesk(replica: replica, roster: roster, catalog: access)
        marks = MarkDesk(replica: replica, roster: roster)
        picks = PickDesk(
            replica: replica,
            roster: roster,
            connected: { await directory.connectedPeers },
            catalog: catalog,
            guests: guests
        )
        imports = journals.map { ImportDesk(replica: replica, catalog: access, asker: asker, journals: $0) }
    }

    func respond(to request: ControlRequest) async -> ControlResponse {
        switch request {
        case .add(let movie): return await list.add(movie)
        case .remove(let movieID): return await list.remove(movieID)
        case .list(let limit, let after, let streaming, let filter):
            return await list.list(limit: limit, after: after, streaming: streaming, filter: filter)
        case .mark(let movie, let marks): return await self.marks.mark(movie, marks)
        case .watch(let movie, let with, let on): return await marks.watch(movie, with: with, on: on)
        case .history(let movie, let since, let limit, let before):
            return await marks.history(movie: movie, since: since, limit: limit, before: before)
        case .pick(let opening): return await picks.respond(toOpening: opening)
        case .vote(let pick, let movie, let yes, let ranking):
            return await picks.respond(toVote: pick, movie: movie, yes: yes, ranking: ranking)
        case .pickStatus(let pick): return await picks.status(pick)
        case .pickClose(let pick, let force): return await picks.respond(toClose: pick, force: force)
        case .search(let query, let year, let page): return await catalog.search(query, year: year, page: page)
        case .discover, .similar, .genres: return await catalog.browse(request)
        case .services(let region, let names): return await catalog.services(region: region, names: names)
        case .show(let movie): return await catalog.show(movie)
        case .refresh(let movie): return await catalog.refresh(movie)
        case .importRows(let batch):
            guard let imports else { return .error(WireError(.unavailable, "this peerd takes no imports")) }
            return await imports.importRows(batch)
        case .peers, .invite, .join, .forget, .trust, .connect, .status, .page, .diagnose, .follow:
            return await respondOwn(to: request)
        }
    }

    /// The requests about this daemon and its peers.
    private func respondOwn(to request: ControlRequest) async -> ControlResponse {
        switch request {
        case .peers:
            return .peers(
                await directory.records(now: .now, relayed: await replica.origins(), trust: await trust.trustStates())
            )
        case .invite(let expiresIn):
            do {
                let (code, expiresAt) = try await trust.invite(expiresIn: expiresIn)
                return .invite(code: code.description, expiresAt: expiresAt)
            } catch {
                return .error(WireError(.badRequest, error.description))
            }
        case .join(let text, let addressText): return await join(text, address: addressText)
        case .forget(let query):
            do {
                let (peer, name) = try await trust.forget(query)
                await directory.disconnect(peer, WireError(.revoked, "revoked with peerctl forget"))
                return .forgotten(peer: peer, name: name)
            } catch {
                return .error(WireError(.badRequest, error.description))
            }
        case .trust(let query):
            do {
                return .trusted(peer: try await trust.trust(query))
            } catch {
                return .error(WireError(.badRequest, error.description))
            }
        case .status: return .status(await status())
        case .connect(let text): return await connect(text)
        case .page: return page()
        case .diagnose: return .diagnosis(await diagnosis())
        default: return .error(WireError(.internal, "\(request) is streamed by the control server or a desk's"))
        }
    }

    /// The page's address with its token: `peerctl open` (the control socket admits only this user).
    private func page() -> ControlResponse {
        guard let page = info.page else {
            return .error(WireError(.unavailable, "the page is off: peerd runs with --no-web (or \"web\": false)"))
        }
        switch page.url {
        case .success(let url): return .page(url: url)
        case .failure(let unavailable): return .error(WireError(.unavailable, unavailable.reason))
        }
    }

    private func connect(_ text: String) async -> ControlResponse {
        guard let address = PeerAddress(text, defaultPort: nil) else {
            return .error(WireError(.badRequest, Self.notAnAddress(text)))
        }
        do {
            try await dialer.add(address, remember: true)
        } catch {
            return .error(WireError(.storageFailed, "dialing \(address), but could not remember it: \(error)"))
        }
        return .connecting(address: address.description)
    }

    func status() async -> StatusRecord {
        StatusRecord(
            peer: info.identity,
            name: info.name,
            port: info.port,
            movies: await replica.movieCount,
            operations: await replica.operationCount,
            peersConnected: await directory.connectedCount,
            peersKnown: await directory.knownCount,
            uptimeSeconds: info.uptimeSeconds,
            stateDir: info.stateDir,
            socket: info.socketPath,
            mdns: info.mdns,
            version: PeerdVersion.current,
            tmdb: info.tmdb,
            search: info.tmdb ? true : !(await directory.catalogHolders().isEmpty),
            web: info.page?.address
        )
    }

    /// What `peerctl doctor` needs that only the daemon knows (proto/CONTROL.md, "diagnose").
    func diagnosis() async -> DiagnosisRecord {
        let peers = await directory.diagnostics()
        return DiagnosisRecord(
            at: Wallclock.millis(),
            peer: info.identity,
            name: info.name,
            port: info.port,
            listenAddress: info.listenAddress,
            stateDir: info.stateDir,
            socket: info.socketPath,
            discovery: await discovery.freshRecord(),
            dials: peers.dials,
            refusals: peers.refusals,
            inbound: peers.inbound,
            sessions: peers.sessions
        )
    }

    /// Why `text` is not the `host:port` the control protocol takes (CONTROL.md, "connect").
    static func notAnAddress(_ text: String) -> String {
        if let guess = PeerAddress(text) {
            return "'\(text)' has no port; the control protocol takes host:port, e.g. \(guess)"
        }
        return "'\(text)' is not an address; use host:port, e.g. 192.168.1.20:7601 or [fe80::1%eth0]:7601"
    }

    static func wireError(_ error: any Error) -> WireError {
        (error as? ReplicaService.Failure)?.wireError ?? WireError(.internal, "\(error)")
    }
}
