import CDBus

/// A failure libdbus reports in a `DBusError`: its name and message.
package struct BusError: Error, Sendable, CustomStringConvertible {
    package var name: String
    package var message: String

    package init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    package var description: String { "\(name): \(message)" }

    /// Runs `body` with a fresh `DBusError` and throws what it set, if anything.
    static func check<Result>(_ body: (inout DBusError) -> Result) throws(BusError) -> Result {
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        let result = body(&error)
        if dbus_error_is_set(&error) != 0 {
            throw BusError(
                name: error.name.map { String(cString: $0) } ?? "unknown",
                message: error.message.map { String(cString: $0) } ?? ""
            )
        }
        return result
    }
}

/// A private connection to a bus, registered with it (it has a unique name). Not `Sendable`: it is
/// opened on one thread and then handed to its ``BusThread``, the only one that uses it after that.
package final class BusConnection {
    let pointer: OpaquePointer
    private var isClosed = false

    private init(_ pointer: OpaquePointer) { self.pointer = pointer }

    deinit { close() }

    /// Connects to the bus at `address` (as in `DBUS_SESSION_BUS_ADDRESS`) and says hello: two round trips.
    package static func open(address: String) throws(BusError) -> BusConnection {
        // libdbus has set up its locks itself since 1.7; this asks for them anyway, once, and is cheap after.
        dbus_threads_init_default()
        let opened = try BusError.check { dbus_connection_open_private(address, &$0) }
        guard let opened else { throw BusError(name: "unknown", message: "libdbus returned no connection") }
        let connection = BusConnection(opened)
        // A private connection's default, said out loud: libdbus must never _exit() the daemon when the bus goes.
        dbus_connection_set_exit_on_disconnect(opened, 0)
        let registered = try BusError.check { dbus_bus_register(opened, &$0) }
        guard registered != 0 else { throw BusError(name: "unknown", message: "the bus refused the hello") }
        return connection
    }

    /// Has the bus route the messages `rule` matches here (one round trip).
    package func addMatch(_ rule: String) throws(BusError) {
        try BusError.check { dbus_bus_add_match(pointer, rule, &$0) }
    }

    /// Becomes the owner of `name`, or throws: it is not queued behind another owner.
    package func requestName(_ name: String) throws(BusError) {
        let reply = try BusError.check { dbus_bus_request_name(pointer, name, 4 /* DO_NOT_QUEUE */, &$0) }
        guard reply == 1 /* PRIMARY_OWNER */ else {
            throw BusError(name: "org.freedesktop.DBus.Error.NameTaken", message: "\(name) has an owner already")
        }
    }

    /// One round trip to the bus itself: everything this connection sent before has been routed once it returns.
    package func roundTrip() throws(BusError) {
        _ = try BusError.check { dbus_bus_name_has_owner(pointer, "org.freedesktop.DBus", &$0) }
    }

    /// Queues `message` to be written; its serial, or nil when libdbus is out of memory.
    package func send(_ message: BusMessage) -> UInt32? {
        var serial: UInt32 = 0
        return dbus_connection_send(pointer, message.pointer, &serial) != 0 ? serial : nil
    }

    /// Writes what is queued and reads what has come, without waiting for either; false once the
    /// connection has closed.
    func readWrite() -> Bool { dbus_connection_read_write(pointer, 0) != 0 }

    /// The socket to poll(2) for what ``readWrite()`` would read or write; nil when libdbus has none.
    var socket: Int32? {
        var descriptor: Int32 = -1
        return dbus_connection_get_socket(pointer, &descriptor) != 0 ? descriptor : nil
    }

    /// True while libdbus holds bytes it has not yet written.
    var hasMessagesToSend: Bool { dbus_connection_has_messages_to_send(pointer) != 0 }

    /// True while libdbus holds messages already read that ``popMessage()`` would return, so that the
    /// socket may have nothing more to say.
    var hasMessagesRead: Bool { dbus_connection_get_dispatch_status(pointer) == DBUS_DISPATCH_DATA_REMAINS }

    /// The next message read, if any.
    func popMessage() -> BusMessage? { dbus_connection_pop_message(pointer).map(BusMessage.init(adopting:)) }

    /// Closes the connection (a private one must be, before its last reference goes).
    func close() {
        guard !isClosed else { return }
        isClosed = true
        dbus_connection_close(pointer)
        dbus_connection_unref(pointer)
    }
}
