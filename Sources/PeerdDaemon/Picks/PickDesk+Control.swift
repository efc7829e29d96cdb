import PeerdModel
import PeerdQR
import PeerdWeb
import PeerdWire

/// The pick requests of the control socket and the page (proto/CONTROL.md, "pick"): each answered
/// with the pick's state as this member sees it.
extension PickDesk {
    func respond(toOpening opening: PickOpening) async -> ControlResponse {
        switch await open(opening) {
        case .success(.opened(let state, let candidates, let after)):
            var record = await record(state, in: after)
            record.candidates = candidates
            return .pickState(record)
        case .success(.joined(let state, let after)):
            var record = await record(state, in: after)
            record.joined = true
            return .pickState(record)
        case .failure(let refusal): return await error(refusal, asking: "there is no pick")
        }
    }

    func respond(toVote pick: OperationID?, movie: MovieID?, yes: Bool?, ranking: [MovieID]?) async -> ControlResponse {
        let asking = "there is no pick to vote on; open one with `peerctl pick`"
        return await answer(await vote(pick, movie: movie, yes: yes, ranking: ranking, by: .member), asking)
    }

    func respond(toClose pick: OperationID?, force: Bool) async -> ControlResponse {
        await answer(await close(pick, force: force), "there is no pick")
    }

    func status(_ pick: OperationID?) async -> ControlResponse {
        let snapshot = await replica.snapshot
        guard let state = snapshot.pickState(pick) else {
            return .error(WireError(.badRequest, "there is no pick yet; open one with `peerctl pick`"))
        }
        return .pickState(await record(state, in: snapshot))
    }

    /// The pick a step was about, as it stands after it.
    private func answer(_ outcome: Result<Stepped, Refusal>, _ asking: String) async -> ControlResponse {
        switch outcome {
        case .success(let stepped):
            guard let state = stepped.after.list.picks.pick(stepped.pick) else {
                return .error(WireError(.internal, "pick \(stepped.pick) is gone"))
            }
            return .pickState(await record(state, in: stepped.after))
        case .failure(let refusal): return await error(refusal, asking: asking)
        }
    }

    private func error(_ refusal: Refusal, asking: String) async -> ControlResponse {
        .error(Self.words(for: refusal, in: await replica.snapshot, asking: asking))
    }

    /// `state` as this member sees it; its opener also gets the guest link.
    private func record(_ state: PickState, in snapshot: Replica) async -> PickRecord {
        var record = snapshot.pickRecord(state, for: roster.me)
        if state.isOpen, state.opener == roster.me, let guests {
            let pick = PickOnList(state.id, on: (ActingList.current ?? replica).listID)
            record.guests = Self.guestsRecord(await guests.link(for: pick))
        }
        return record
    }

    /// The guest link as a URL and a QR code, or why there is none.
    private static func guestsRecord(_ link: Result<String, GuestDoorProblem>) -> PickGuestsRecord {
        switch link {
        case .success(let url): PickGuestsRecord(url: url, svg: QRCode(url)?.svg)
        case .failure(let problem): PickGuestsRecord(problem: problem.description)
        }
    }
}
