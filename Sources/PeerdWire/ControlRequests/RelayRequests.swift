/// The group's relays (proto/CONTROL.md, "relay"): with no `add` or `remove`, the relays and this
/// daemon's membership of each; `add` puts a relay URL (`relay://host:port/?id=…`, as `strelaysrv`
/// prints it) into the group's setting, `remove` takes one out. Either is a signed `relays`
/// operation, so every member joins (or leaves) the relay. The relays are the group's: `inList`
/// does not apply. Like `connect` and `invite`, it stays with `peerctl`: the page shows each
/// session's path, and says nothing of where the group meets.
package struct RelayRequest: ControlRequestBody {
    package static let tag = "relay"
    package static let allowedFromPage = false
    package static let takesList = false
    package var add: String?
    package var remove: String?

    package init(add: String? = nil, remove: String? = nil) {
        self.add = add
        self.remove = remove
    }
}
