import CAvahi

/// The only place that talks to libavahi-client, with its extensions (AvahiBridge+Publishing,
/// +HostName, +Browsing). Publishes one `_watchlist._tcp` service, browses
/// and resolves the same type, resolves its own host name (for `peerctl doctor`), and reports
/// everything as `AvahiEvent`s on `events`.
///
/// Avahi calls back on its own thread (an `AvahiThreadedPoll`); callbacks only call Avahi and yield
/// events. The client is made with `AVAHI_CLIENT_NO_FAIL`, so a missing daemon is a state to wait
/// in, and when the daemon goes away the client is freed and made again: publishing and browsing
/// resume by themselves when Avahi comes back.
package final class AvahiBridge: @unchecked Sendable {
    // @unchecked: `client`, `group`, `browser` and `serviceName` are touched only on Avahi's poll
    // thread (inside callbacks) or while holding `avahi_threaded_poll_lock`; the rest is immutable.
    package static let serviceType = "_watchlist._tcp"

    package let events: AsyncStream<AvahiEvent>
    let sink: AsyncStream<AvahiEvent>.Continuation
    let port: UInt16
    let txt: [(String, String)]
    var serviceName: String
    var poll: OpaquePointer?
    var client: OpaquePointer?
    var group: OpaquePointer?
    var browser: OpaquePointer?

    /// - Parameters:
    ///   - name: the service instance name to announce (e.g. the peer's name).
    ///   - txt: TXT record entries, written in the given order.
    package init(name: String, port: Int, txt: [(String, String)]) {
        (events, sink) = AsyncStream.makeStream(of: AvahiEvent.self)
        serviceName = name
        self.port = UInt16(clamping: port)
        self.txt = txt
    }

    /// Starts Avahi's thread and connects. Returns false (after reporting `unavailable`) only if
    /// Avahi's poll could not even be made.
    package func start() -> Bool {
        guard let poll = avahi_threaded_poll_new() else {
            sink.yield(.unavailable("could not start Avahi's event loop"))
            return false
        }
        self.poll = poll
        avahi_threaded_poll_lock(poll)
        connect()
        avahi_threaded_poll_unlock(poll)
        return avahi_threaded_poll_start(poll) == 0
    }

    /// Withdraws the service (Avahi sends goodbye packets), stops the thread and ends `events`.
    package func stop() {
        guard let poll else { return }
        avahi_threaded_poll_lock(poll)
        if let client { avahi_client_free(client) }  // frees the group and browser with it
        (client, group, browser) = (nil, nil, nil)
        avahi_threaded_poll_unlock(poll)
        avahi_threaded_poll_stop(poll)
        avahi_threaded_poll_free(poll)
        self.poll = nil
        sink.finish()
    }

    var context: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    static func bridge(_ context: UnsafeMutableRawPointer?) -> AvahiBridge {
        Unmanaged<AvahiBridge>.fromOpaque(context!).takeUnretainedValue()
    }

    static func errorText(_ code: Int32) -> String { String(cString: avahi_strerror(code)) }

    // Client: connecting, and reconnecting when avahi-daemon comes back.

    func connect() {
        var error: Int32 = 0
        client = avahi_client_new(
            avahi_threaded_poll_get(poll),
            AVAHI_CLIENT_NO_FAIL,
            { client, state, context in
                AvahiBridge.bridge(context).clientChanged(client, state)
            },
            context,
            &error
        )
        if client == nil { sink.yield(.unavailable(Self.errorText(error))) }
    }

    func clientChanged(_ client: OpaquePointer?, _ state: AvahiClientState) {
        switch state {
        case AVAHI_CLIENT_S_RUNNING:
            sink.yield(.running)
            publish(client)
            browse(client)
            resolveHostName(client)
        case AVAHI_CLIENT_S_COLLISION, AVAHI_CLIENT_S_REGISTERING:
            // The host name changed or collided: withdraw now, publish again once running.
            if let group { avahi_entry_group_reset(group) }
        case AVAHI_CLIENT_CONNECTING:
            sink.yield(.connecting("avahi-daemon is not running (or D-Bus is not reachable); waiting for it"))
        case AVAHI_CLIENT_FAILURE:
            let code = avahi_client_errno(client)
            sink.yield(.unavailable(Self.errorText(code)))
            if let client { avahi_client_free(client) }
            (self.client, group, browser) = (nil, nil, nil)
            connect()  // NO_FAIL: waits for the daemon to come back
        default:
            break
        }
    }

    /// The text of a C buffer filled up to its first NUL (`snprintf`-style output).
    static func string(fromNulTerminated buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
