import CDBus

/// One D-Bus message: a reference that libdbus counts, given up with this object. Not `Sendable`:
/// it is made, sent and read on one bus thread (``BusThread``).
package final class BusMessage {
    package enum Kind: Equatable {
        case methodCall, methodReturn, error, signal, other
    }

    let pointer: OpaquePointer

    /// Adopts `pointer`'s reference (one from a `dbus_message_new…` or `dbus_connection_pop_message`).
    init(adopting pointer: OpaquePointer) { self.pointer = pointer }

    deinit { dbus_message_unref(pointer) }

    /// A method call carrying `arguments`; nil when libdbus is out of memory.
    package static func methodCall(
        to destination: String,
        path: String,
        interface: String,
        member: String,
        arguments: [BusValue]
    ) -> BusMessage? {
        dbus_message_new_method_call(destination, path, interface, member)
            .map(BusMessage.init(adopting:))?.appending(arguments)
    }

    /// A signal carrying `arguments`, for every connection whose match rules take it.
    package static func signal(path: String, interface: String, member: String, arguments: [BusValue]) -> BusMessage? {
        dbus_message_new_signal(path, interface, member).map(BusMessage.init(adopting:))?.appending(arguments)
    }

    /// The reply to this method call, carrying `arguments`.
    package func methodReturn(_ arguments: [BusValue]) -> BusMessage? {
        dbus_message_new_method_return(pointer).map(BusMessage.init(adopting:))?.appending(arguments)
    }

    private func appending(_ arguments: [BusValue]) -> BusMessage? {
        var iterator = DBusMessageIter()
        dbus_message_iter_init_append(pointer, &iterator)
        return arguments.allSatisfy { $0.append(to: &iterator) } ? self : nil
    }

    /// The arguments; nil when one is of a type ``BusValue`` doesn't have.
    package var arguments: [BusValue]? {
        var iterator = DBusMessageIter()
        guard dbus_message_iter_init(pointer, &iterator) != 0 else { return [] }
        return BusValue.readAll(&iterator)
    }

    package var kind: Kind {
        switch dbus_message_get_type(pointer) {
        case 1: .methodCall
        case 2: .methodReturn
        case 3: .error
        case 4: .signal
        default: .other
        }
    }

    /// For a method return or an error: the serial of the call it answers.
    package var replySerial: UInt32 { dbus_message_get_reply_serial(pointer) }
    /// The sending connection's unique name (":1.42"), which the bus fills in.
    package var sender: String? { dbus_message_get_sender(pointer).map { String(cString: $0) } }
    /// For an error: its name ("org.freedesktop.DBus.Error.ServiceUnknown").
    package var errorName: String? { dbus_message_get_error_name(pointer).map { String(cString: $0) } }

    /// For an error: its message, the first argument when it is a string.
    package var errorText: String {
        if case .string(let text)? = arguments?.first { return text }
        return ""
    }

    package func isSignal(interface: String, member: String) -> Bool {
        dbus_message_is_signal(pointer, interface, member) != 0
    }

    package func isMethodCall(interface: String, member: String) -> Bool {
        dbus_message_is_method_call(pointer, interface, member) != 0
    }

    /// libdbus's own signal, queued when the connection has closed.
    var isDisconnected: Bool { isSignal(interface: "org.freedesktop.DBus.Local", member: "Disconnected") }
}
