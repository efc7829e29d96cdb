/// The notifications this notifier has on the desktop with a link to open, and which server showed
/// each: what decides whether an `ActionInvoked` opens anything. Pure, so tests drive it without a bus.
///
/// Ids are the server's, so a signal counts only from the connection that answered the `Notify`
/// (its unique name, which the bus never gives out twice): another program on the bus can't open
/// links by emitting the signal, nor can a restarted server's reused ids.
struct NoticeLedger {
    private struct Key: Hashable {
        var id: UInt32
        var server: String
    }

    /// Links by notification, and their order, oldest first, to forget the oldest beyond ``limit``
    /// (a server that never says `NotificationClosed`).
    private var links: [Key: String] = [:]
    private var order: [Key] = []
    let limit: Int

    init(limit: Int = 256) { self.limit = limit }

    /// `server` showed notification `id`; remembered when it has a link to open.
    mutating func shown(id: UInt32, by server: String, openURL: String?) {
        guard let openURL else { return }
        let key = Key(id: id, server: server)
        if links.updateValue(openURL, forKey: key) == nil { order.append(key) }
        if order.count > limit { links[order.removeFirst()] = nil }
    }

    /// The link to open for `ActionInvoked(id, key)` from `sender`, if any: only the default action
    /// of a notification this notifier sent with a link.
    func actionInvoked(id: UInt32, key: String, by sender: String?) -> String? {
        guard key == NotificationsInterface.defaultAction, let sender else { return nil }
        return links[Key(id: id, server: sender)]
    }

    /// `NotificationClosed(id)` from `sender`: its link is done with.
    mutating func closed(id: UInt32, by sender: String?) {
        guard let sender, links.removeValue(forKey: Key(id: id, server: sender)) != nil else { return }
        order.removeAll { $0 == Key(id: id, server: sender) }
    }

    var count: Int { links.count }
}
