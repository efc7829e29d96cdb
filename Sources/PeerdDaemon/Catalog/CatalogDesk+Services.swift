import PeerdCatalog
import PeerdModel
import PeerdWire

/// `services` and `list` with `streaming` (proto/CONTROL.md): where the group watches.
extension CatalogDesk {
    /// The group's settings; with a region or names, set first (a signed `settings` operation).
    /// Names are resolved among the services TMDB lists in the region (``ServiceNames``), through
    /// this daemon's token or a peer's; a region alone keeps the services (TMDB's ids are the same
    /// in every region), and an empty list of names clears them.
    func services(region: String?, names: [String]?) async -> ControlResponse {
        let current = await replica.groupSnapshot.list.settingsOperation
        guard region != nil || names != nil else { return .services(servicesRecord(current)) }
        let region = region?.uppercased() ?? current?.settings?.region ?? languageRegion
        guard GroupSettings.isRegion(region) else {
            return .error(WireError(.badRequest, "a region is a two-letter country code, like US or DE"))
        }
        var chosen = current?.settings?.services ?? []
        if let names, !names.isEmpty {
            switch await resolve(names, in: region) {
            case .success(let services): chosen = services
            case .failure(let error): return .error(error)
            }
        } else if names != nil {
            chosen = []
        }
        let settings = GroupSettings(region: region, services: chosen)
        if settings == current?.settings { return .services(servicesRecord(current)) }
        do {
            let submitted = try await replica.submit(.settings(settings), at: Wallclock.millis())
            guard case .settingsSet(let op) = submitted else {
                return .error(WireError(.internal, "setting the services made \(submitted)"))
            }
            return .services(servicesRecord(op))
        } catch {
            return .error(ReplicaService.wireError(error))
        }
    }

    private var languageRegion: String { TMDBResponses.region(of: tmdbLanguage) }

    private func servicesRecord(_ operation: Operation?) -> ServicesRecord {
        ServicesRecord(settings: operation, languageRegion: languageRegion)
    }

    private func resolve(_ names: [String], in region: String) async -> Result<[GroupSettings.Service], WireError> {
        switch await found(.providers(region: region)) {
        case .success((.providers(let available), _, _)):
            return ServiceNames.resolve(names, among: available, region: region).mapError {
                WireError(.badRequest, $0.description)
            }
        case .success: return .failure(WireError(.internal, "TMDB's services came back as something else"))
        case .failure(let error):
            return .failure(
                WireError(error.code, "can't look up the streaming services in \(region): \(error.message)")
            )
        }
    }
}
