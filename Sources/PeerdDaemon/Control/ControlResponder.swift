import PeerdCatalog
import PeerdModel
import PeerdSecurity
import PeerdWeb
import PeerdWire
import ServiceLifecycle

/// Answers `peerctl`'s requests. `follow` is streamed by `ControlServer`; everything else is here.
struct ControlResponder: Sendable {
    let replica: ReplicaService
    let directory: PeerDirectory
    let dialer: PeerDialer
    let trust: TrustService
    /// TMDB, when this daemon holds a token.
    let catalog: (any CatalogAccess)?
    /// Asks a peer that holds a token, when this daemon holds none.
    var asker: CatalogAsker? = nil
    /// TMDB's genres and list pages kept on disk (``CatalogShelf``).
    var shelf: CatalogShelf? = nil
    /// How mDNS discovery stands, for `diagnose`.
    let discovery: DiscoveryStatus
    let info: DaemonInfo
    /// The guest door, for a pick's guest link; nil with `--no-guests`.
    var guests: (any GuestLinks)? = nil
    /// Imports' journals and the pace of their lookups.
    var imports: ImportDesk? = nil

    static let maxPageSize = 10_000

    func respond(to request: ControlRequest) async -> ControlResponse {
        switch request {
        case .add(let movie): return await add(movie)
        case .remove(let movieID): return await remove(movieID)
        case .list(let limit, let after, let streaming, let filter):
            return await list(limit: limit, after: after, streaming: streaming, filter: filter)
        case .mark(let movie, let marks): return await mark(movie, marks)
        case .watch(let movie, let with, let on): return await watch(movie, with: with, on: on)
        case .history(let movie, let since, let limit, let before):
            return await history(movie: movie, since: since, limit: limit, before: before)
        case .pick(let opening): return await openPick(opening)
        case .vote(let pick, let movie, let yes, let ranking):
            return await vote(pick: pick, movie: movie, yes: yes, ranking: ranking)
        case .pickStatus(let pick): return await pickStatus(pick)
        case .pickClose(let pick, let force): return await closePick(pick, force: force)
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
        case .search(let query, let year, let page): return await search(query, year: year, page: page)
        case .discover, .similar, .genres: return await browse(request)
        case .services(let region, let names): return await services(region: region, names: names)
        case .show(let movie): return await show(movie)
        case .refresh(let movie): return await refresh(movie)
        case .page: return page()
        case .diagnose: return .diagnosis(await diagnosis())
        case .importRows(let batch): return await importRows(batch)
        case .follow: return .error(WireError(.internal, "follow is streamed by the control server"))
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

    private func remove(_ movieID: MovieID) async -> ControlResponse {
        do {
            let submitted = try await replica.submit(.remove(movieID), at: Wallclock.millis())
            guard case .removed(let op) = submitted else {
                return .error(WireError(.internal, "a removal made \(submitted)"))
            }
            return .removed(movie: op.movie, operation: op.id)
        } catch {
            return .error(Self.wireError(error))
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
