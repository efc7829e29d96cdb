import PeerdCatalog
import PeerdModel
import PeerdSecurity
import PeerdWeb
import PeerdWire
import ServiceLifecycle
import SystemPackage

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
    let members: MemberDesk
    /// The group's lists: which one a request names, making one, who is on one.
    let lists: ListsDesk
    /// Linked devices; nil with `--no-devices`.
    let devices: DeviceDesk?
    /// The news of wanted movies.
    let news: NewsDesk
    /// The group's relays; nil in a daemon without a relay client (tests).
    let relays: RelayDesk?

    /// The desks of a daemon's parts: `catalog` is TMDB when this daemon holds a token, `asker`
    /// a holder's when it holds none; `guests` the guest door (nil with `--no-guests`), `devices`
    /// the linked devices (nil with `--no-devices`).
    init(
        replica: ReplicaService,
        lists spaces: ListSpaces,
        directory: PeerDirectory,
        dialer: PeerDialer,
        trust: TrustService,
        catalog access: (any CatalogAccess)?,
        asker: CatalogAsker? = nil,
        shelf: CatalogShelf? = nil,
        discovery: DiscoveryStatus,
        info: DaemonInfo,
        guests: (any GuestLinks)? = nil,
        imports journals: ImportJournals? = nil,
        profiles: ProfileBook? = nil,
        devices: DeviceLedger? = nil,
        newsLooks: NewsLooks? = nil,
        relays: RelayDesk? = nil
    ) {
        self.relays = relays
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
        list = ListDesk(replica: replica, roster: roster, catalog: access, ceilings: catalog)
        marks = MarkDesk(replica: replica, roster: roster)
        members = MemberDesk(
            replica: replica,
            trust: trust,
            directory: directory,
            roster: roster,
            profiles: profiles,
            devices: devices
        )
        lists = ListsDesk(spaces: spaces, replica: replica, roster: roster)
        picks = PickDesk(
            replica: replica,
            roster: roster,
            connected: { await directory.connectedPeers },
            catalog: catalog,
            guests: guests
        )
        imports = journals.map { [list] in
            ImportDesk(replica: replica, catalog: access, asker: asker, journals: $0, ceilings: list)
        }
        self.devices = devices.map {
            DeviceDesk(ledger: $0, machine: info.identity, machineName: info.name)
        }
        let looks = newsLooks ?? NewsLooks(stateDirectory: FilePath(info.stateDir))
        news = NewsDesk(replica: replica, roster: roster, looks: looks)
    }

    /// The answer to a request of the kind `body` is.
    func respond(to body: some ControlRequestBody) async -> ControlResponse { await respond(to: ControlRequest(body)) }

    /// The answer to `request`, acting for the member its `profile` names (``ActingMember``).
    func respond(to request: ControlRequest) async -> ControlResponse {
        switch await acting(for: request, { await respondOnList(to: request) }) {
        case .failure(let error): return .error(error)
        case .success(let response): return response
        }
    }

    /// What `work` makes acting for the member `request`'s `profile` names (``ActingMember``), or
    /// why it can't act for them.
    private func acting<Made: Sendable>(
        for request: ControlRequest,
        _ work: () async -> Made
    ) async -> Result<Made, WireError> {
        guard let profile = request.profile else { return .success(await work()) }
        switch await members.acting(profile) {
        case .failure(let error): return .failure(error)
        case .success(let author): return .success(await ActingMember.$current.withValue(author) { await work() })
        }
    }

    /// The answer to `request`, reading and writing the list its `list` names (``ActingList``)
    /// when it is a request of a list; one about the group ignores `list` (proto/CONTROL.md, "Lists").
    private func respondOnList(to request: ControlRequest) async -> ControlResponse {
        guard request.takesList, request.list != nil else { return await route(request) }
        switch await lists.space(request.list) {
        case .failure(let error): return .error(error)
        case .success(let list): return await ActingList.$current.withValue(list) { await route(request) }
        }
    }

    /// The changes `follow` streams: the list's `request` names, or why there is no such list.
    func changes(for request: ControlRequest) async -> Result<AsyncStream<[WatchListChange]>, WireError> {
        switch await space(for: request) {
        case .failure(let error): return .failure(error)
        case .success(let list): return .success(await (list ?? replica).changes())
        }
    }

    /// What `news` with `follow` streams: its answer, then each later batch, acting for the member
    /// its `profile` names; or why it can't act for them.
    func newsFollow(for request: ControlRequest, _ news: NewsRequest) async -> Result<
        AsyncStream<ControlResponse>, WireError
    > {
        await acting(for: request) { await self.news.follow(news) }
    }

    /// The service of the list `request`'s `inList` names (nil: the group's own), as the member its
    /// `profile` names may read it: `follow` and the page's event stream follow it.
    func space(for request: ControlRequest) async -> Result<ReplicaService?, WireError> {
        await acting(for: request) { await lists.space(request.list) }.flatMap { $0 }
    }

    /// The answer to `request`, from the desk of its feature; the request's type is its body's.
    private func route(_ request: ControlRequest) async -> ControlResponse {
        switch request.body {
        case let add as AddRequest: return await list.add(add.movie, allowUnrated: add.allowUnrated == true)
        case let remove as RemoveRequest: return await list.remove(remove.movie)
        case let page as ListRequest:
            return await list.list(limit: page.limit, after: page.after, streaming: page.streaming, filter: page.filter)
        case let mark as MarkRequest: return await marks.mark(mark.movie, mark.marks)
        case let watch as WatchRequest: return await marks.watch(watch.movie, with: watch.with, on: watch.on)
        case let page as HistoryRequest:
            return await marks.history(movie: page.movie, since: page.since, limit: page.limit, before: page.before)
        case let opening as PickOpening: return await picks.respond(toOpening: opening)
        case let vote as VoteRequest:
            return await picks.respond(toVote: vote.pick, movie: vote.movie, yes: vote.yes, ranking: vote.ranking)
        case let status as PickStatusRequest: return await picks.status(status.pick)
        case let close as PickCloseRequest: return await picks.respond(toClose: close.pick, force: close.force)
        case let search as SearchRequest:
            return await catalog.search(search.query, year: search.year, page: search.page)
        case let discover as DiscoverRequest: return await catalog.discover(discover.list, page: discover.page)
        case let similar as SimilarRequest: return await catalog.similar(similar.movie, page: similar.page)
        case is GenresRequest: return await catalog.genres()
        case let services as ServicesRequest:
            return await catalog.services(region: services.region, names: services.services)
        case let show as ShowRequest: return await catalog.show(show.movie)
        case let refresh as RefreshRequest: return await catalog.refresh(refresh.movie)
        case is MembersRequest: return await members.members()
        case is ProfilesRequest: return await members.profiles()
        case let profile as AddProfileRequest: return await members.addProfile(profile.name)
        case is ListsRequest: return await lists.lists()
        case let create as ListCreateRequest: return await lists.create(create)
        case let change as ListMemberRequest: return await lists.change(change)
        case let removal as RemoveMemberRequest: return await members.remove(removal.peer)
        case let forget as ForgetRequest:
            // `forget` was a local revocation; it is now the group's removal, answered as before.
            let removed = await members.remove(forget.peer)
            guard case .memberRemoved(let record) = removed else { return removed }
            return .forgotten(peer: record.peer, name: record.name)
        case let batch as ImportBatch:
            guard let imports else { return .error(WireError(.unavailable, "this peerd takes no imports")) }
            return await imports.importRows(batch)
        case let link as DeviceLinkRequest:
            guard let devices else { return Self.noDevices }
            // A removed peerd's devices were unlinked with it; it links no new one.
            if let words = await trust.removal {
                return .error(ReplicaService.Failure.refused(.removedFromGroup(words)).wireError)
            }
            return await devices.link(link)
        case let request as NewsRequest: return await news.news(request)
        case let request as RelayRequest:
            guard let relays else { return .error(WireError(.unavailable, "this peerd has no relay client")) }
            return await relays.respond(to: request)
        case is DeviceListRequest: return devices?.list() ?? Self.noDevices
        case let unlink as DeviceUnlinkRequest:
            guard let devices else { return Self.noDevices }
            return await devices.unlink(unlink.device)
        default: return await respondOwn(to: request)
        }
    }

    private static let noDevices = ControlResponse.error(
        WireError(.unavailable, "linked devices are off: peerd runs with --no-devices (or \"devices\": false)")
    )

    /// The requests about this daemon and its peers.
    private func respondOwn(to request: ControlRequest) async -> ControlResponse {
        switch request.body {
        case is PeersRequest:
            return .peers(
                await directory.records(now: .now, relayed: await replica.origins(), trust: await trust.trustStates())
            )
        case let invite as InviteRequest:
            do {
                let relay = await relays?.inviteRelay()
                let (code, expiresAt) = try await trust.invite(expiresIn: invite.expiresIn, relay: relay)
                return .invite(code: code.description, expiresAt: expiresAt)
            } catch {
                return .error(WireError(.badRequest, error.description))
            }
        case let join as JoinRequest: return await self.join(join.code, address: join.address)
        case let trusted as TrustRequest:
            do {
                return .trusted(peer: try await trust.trust(trusted.peer))
            } catch {
                return .error(WireError(.badRequest, error.description))
            }
        case is StatusRequest: return .status(await status())
        case let connect as ConnectRequest: return await self.connect(connect.address)
        case is PageRequest: return page()
        case is DiagnoseRequest: return .diagnosis(await diagnosis())
        default: return .error(WireError(.internal, "\(request.type) is streamed by the control server"))
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
        let list = ActingList.current ?? replica
        var record = StatusRecord(
            peer: info.identity,
            name: info.name,
            port: info.port,
            movies: await list.movieCount,
            operations: await list.operationCount,
            peersConnected: await directory.connectedCount,
            peersKnown: await directory.knownCount,
            uptimeSeconds: info.uptimeSeconds,
            stateDir: info.stateDir,
            socket: info.socketPath,
            mdns: info.mdns,
            version: PeerdVersion.current,
            tmdb: info.tmdb,
            search: info.tmdb ? true : !(await directory.catalogHolders().isEmpty),
            web: info.page?.address,
            removed: await trust.removal
        )
        if let acting = ActingMember.current { (record.profile, record.profileName) = (acting.id, acting.name) }
        if let id = list.listID {
            (record.list, record.listName) = (id, await lists.spaces.records().first { $0.id == id }?.name)
        }
        return record
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
            sessions: peers.sessions,
            removed: await trust.removal,
            relays: await relays?.records()
        )
    }

    /// Why `text` is not the `host:port` the control protocol takes (CONTROL.md, "connect").
    static func notAnAddress(_ text: String) -> String {
        if let guess = PeerAddress(text) {
            return "'\(text)' has no port; the control protocol takes host:port, e.g. \(guess)"
        }
        return "'\(text)' is not an address; use host:port, e.g. 192.168.1.20:7601 or [fe80::1%eth0]:7601"
    }
}
