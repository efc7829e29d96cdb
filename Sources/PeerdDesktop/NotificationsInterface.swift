/// Names from the freedesktop Desktop Notifications Specification (version 1.2).
package enum NotificationsInterface {
    package static let name = "org.freedesktop.Notifications"
    package static let path = "/org/freedesktop/Notifications"
    package static let notify = "Notify"
    /// `ActionInvoked(u id, s action_key)`: the user chose one of a notification's actions.
    package static let actionInvoked = "ActionInvoked"
    /// `NotificationClosed(u id, u reason)`: it expired, was dismissed or closed; its id is done with.
    package static let notificationClosed = "NotificationClosed"
    /// The action key of clicking the notification itself.
    package static let defaultAction = "default"

    /// The match rule that has the bus route `member` signals of the interface to this connection.
    static func signalRule(_ member: String) -> String {
        "type='signal',interface='\(name)',member='\(member)'"
    }
}
