import PeerdModel

/// The list a request reads and writes, bound for the task that answers it, as ``ActingMember`` binds
/// the member: the control envelope's `list` (`peerctl --list friends`, the page's list switcher).
/// Nil is the group's own list. ``ReplicaService/snapshot`` and ``ReplicaService/write(_:at:)`` of
/// the group's service read and write the bound list's service instead, so no desk passes it along.
enum ActingList {
    @TaskLocal static var current: ReplicaService?
}
