import PeerdModel

/// The member a request acts for, bound for the task that answers it: the machine's own member, or
/// a profile that lives on it (`peerctl --profile sam`, the page's "who's watching", a device linked
/// to sam). Like a request's `ServiceContext` in swift-distributed-tracing, it travels with the
/// task rather than through every desk's signature: ``ReplicaService/write(_:at:)`` makes what the
/// request writes that member's, and ``MemberRoster/me`` is that member.
///
/// Work a request does not start (describes, admissions, the pick's timers) sees nil: the machine.
enum ActingMember {
    @TaskLocal static var current: Replica.Author?
}
