import Hummingbird
import NIOCore
import PeerdModel
import PeerdWire

/// The guest door's two requests that change something: a join and a vote.
extension GuestResponder {
    /// A body over this is refused (413) while it streams in: a name or a vote is a few dozen bytes.
    static var maxBodyBytes: Int { 1024 }

    struct JoinBody: Decodable { var name: String }
    struct VoteBody: Decodable {
        var movie: Int
        var yes: Bool
    }

    func join(_ request: Request, pick: PickOnList, from address: String) async -> Response {
        let body: JoinBody
        switch await Self.decode(JoinBody.self, from: request) {
        case .success(let decoded): body = decoded
        case .failure(let refusal): return refusal.response
        }
        let name = String(body.name.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        guard (1...40).contains(name.unicodeScalars.count),
            !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            return Self.error(400, "bad-request", "a name is 1 to 40 characters, none of them control characters")
        }
        if let wait = ledger.admit(.join, from: address) { return Self.tooMany(wait) }
        let guest = Pick.Guest(id: Self.newGuestID(), name: name)
        return Self.json(GuestJoinRecord(guest: guest, token: ledger.key.token(for: guest, in: pick)), status: .ok)
    }

    func vote(_ request: Request, pick: PickOnList) async -> Response {
        guard let guest = guest(of: request, in: pick) else {
            return Self.error(401, "unauthorized", "join first: this vote carries no guest token of this pick")
        }
        let body: VoteBody
        switch await Self.decode(VoteBody.self, from: request) {
        case .success(let decoded): body = decoded
        case .failure(let refusal): return refusal.response
        }
        guard let movie = MovieID(body.movie) else {
            return Self.error(400, "bad-request", "movie \(body.movie) is not a TMDB id")
        }
        if let wait = ledger.admitVote(by: guest) { return Self.tooMany(wait) }
        switch await desk.vote(on: pick, movie: movie, yes: body.yes, by: guest) {
        case .state(let state): return Self.json(state, status: .ok)
        case .refused(let status, let error): return Self.json(error, status: .init(code: status))
        }
    }

    struct Refusal: Error {
        let response: Response
    }

    static func decode<Body: Decodable>(_ type: Body.Type, from request: Request) async -> Result<Body, Refusal> {
        let bytes: ByteBuffer
        do {
            bytes = try await request.body.collect(upTo: maxBodyBytes)
        } catch {
            return .failure(Refusal(response: Self.error(413, "bad-request", "a body is at most 1 KiB")))
        }
        do throws(WireError) {
            return .success(try WireCoding.decode(Body.self, from: bytes))
        } catch {
            return .failure(Refusal(response: Self.error(400, "bad-request", error.message)))
        }
    }

    /// 16 hex digits from the system's CSPRNG.
    static func newGuestID() -> String {
        var generator = SystemRandomNumberGenerator()
        let value = UInt64.random(in: .min ... .max, using: &generator)
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
