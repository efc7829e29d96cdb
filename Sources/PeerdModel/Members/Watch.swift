/// One watch of a movie, logged by whoever was there (proto/PEER.md, "Watches"): it names the
/// members present, and counts as a `seen` mark of each of them, at the watch's place in the list's
/// order. The logger signs it; the members it names need not have made anything yet.
///
/// A class for the same reason as ``Mark``.
package final class Watch: Hashable, Sendable, Codable, CustomStringConvertible {
    package static let maxPresent = 64

    /// The members present, sorted by id, each once.
    package let with: [PeerID]
    /// The day it was watched, `YYYY-MM-DD`, when the logger said.
    package let on: String?

    /// Members are kept sorted, each once: the one form every peer writes.
    package init(with members: [PeerID], on: String? = nil) {
        self.with = Array(Set(members)).sorted()
        self.on = on
    }

    /// Why this watch can't be stored, or nil when it can.
    package var invalidReason: String? {
        if with.isEmpty || with.count > Self.maxPresent { return "a watch names 1 to \(Self.maxPresent) members" }
        if zip(with, with.dropFirst()).contains(where: { $0 >= $1 }) { return "with is sorted, each member once" }
        if let on, !Day.isDay(on) { return "a day is YYYY-MM-DD" }
        return nil
    }

    /// The `seen` mark it counts as for each member it names.
    package var seenMark: Mark { Mark(kind: .seen, on: on) }

    package var description: String {
        "watched" + (on.map { " on \($0)" } ?? "") + " by " + with.map(\.short).joined(separator: ", ")
    }

    package static func == (lhs: Watch, rhs: Watch) -> Bool {
        lhs === rhs || (lhs.with == rhs.with && lhs.on == rhs.on)
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(with)
        hasher.combine(on)
    }
}
