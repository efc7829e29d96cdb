package import PeerdModel

/// What the control side asks of the guest door: a pick's guest link, for `pickStatus`.
package protocol GuestLinks: Sendable {
    func link(for pick: PickOnList) async -> Result<String, GuestDoorProblem>
}

extension GuestDoor: GuestLinks {}
