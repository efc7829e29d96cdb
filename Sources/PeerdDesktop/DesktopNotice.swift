/// One notification: what the desktop shows.
package struct DesktopNotice: Sendable, Hashable {
    /// How much the desktop should make of a notification: the spec's "urgency" hint, sent as a byte.
    package enum Urgency: UInt8, Sendable, Hashable {
        case low = 0
        case normal = 1
    }

    /// "Arrival is now on Netflix"
    package var summary: String
    /// "Wanted by alice and sam · JustWatch via TMDB, read 6 Dec"
    package var body: String
    /// A cached poster file, an absolute path: sent as the app icon and as the "image-path" hint.
    package var imagePath: String?
    package var urgency: Urgency
    /// When set, the notification has a "default" action (labelled "Open") that opens it.
    package var openURL: String?

    package init(
        summary: String,
        body: String,
        imagePath: String? = nil,
        urgency: Urgency = .normal,
        openURL: String? = nil
    ) {
        self.summary = summary
        self.body = body
        self.imagePath = imagePath
        self.urgency = urgency
        self.openURL = openURL
    }
}

extension DesktopNotice {
    /// The arguments of org.freedesktop.Notifications.Notify, `susssasa{sv}i`: app name, replaces id
    /// (0: a new notification), app icon, summary, body, actions (key, label, …), hints, expire timeout
    /// (-1: the server decides).
    func notifyArguments(appName: String) -> [BusValue] {
        var hints: [String: BusValue] = ["urgency": .byte(urgency.rawValue), "desktop-entry": .string("peerd")]
        if let imagePath { hints["image-path"] = .string(imagePath) }
        return [
            .string(appName), .uint32(0), .string(imagePath ?? ""), .string(summary), .string(body),
            .strings(openURL == nil ? [] : [NotificationsInterface.defaultAction, "Open"]),
            .dictionary(hints), .int32(-1),
        ]
    }
}
