import CAvahi

#if canImport(Glibc)
import Glibc
#endif

/// The only place that talks to libavahi-client. Publishes one `_watchlist._tcp` service, browses
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
    private let sink: AsyncStream<AvahiEvent>.Continuation
    private let port: UInt16
    private let txt: [(String, String)]
    private var serviceName: String
    private var poll: OpaquePointer?
    private var client: OpaquePointer?
    private var group: OpaquePointer?
    private var browser: OpaquePointer?

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

    private var context: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    private static func bridge(_ context: UnsafeMutableRawPointer?) -> AvahiBridge {
        Unmanaged<AvahiBridge>.fromOpaque(context!).takeUnretainedValue()
    }

    private static func errorText(_ code: Int32) -> String { String(cString: avahi_strerror(code)) }

    // MARK: Client

    private func connect() {
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

    private func clientChanged(_ client: OpaquePointer?, _ state: AvahiClientState) {
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

    // MARK: Publishing

    private func publish(_ client: OpaquePointer?) {
        if group == nil {
            group = avahi_entry_group_new(
                client,
                { group, state, context in
                    AvahiBridge.bridge(context).groupChanged(group, state)
                },
                context
            )
        }
        guard let group, avahi_entry_group_is_empty(group) != 0 else { return }
        var list: UnsafeMutablePointer<AvahiStringList>? = nil
        for (key, value) in txt.reversed() { list = avahi_string_list_add_pair(list, key, value) }
        defer { avahi_string_list_free(list) }
        let added = avahi_entry_group_add_service_strlst(
            group,
            AvahiIfIndex(AVAHI_IF_UNSPEC),
            AvahiProtocol(AVAHI_PROTO_UNSPEC),
            AvahiPublishFlags(0),
            serviceName,
            Self.serviceType,
            nil,
            nil,
            port,
            list
        )
        if added == AVAHI_ERR_COLLISION {
            return rename(client)
        }
        guard added == 0, avahi_entry_group_commit(group) == 0 else {
            sink.yield(.publishFailed(Self.errorText(avahi_client_errno(client))))
            return
        }
    }

    private func groupChanged(_ group: OpaquePointer?, _ state: AvahiEntryGroupState) {
        switch state {
        case AVAHI_ENTRY_GROUP_ESTABLISHED:
            sink.yield(.published(name: serviceName))
        case AVAHI_ENTRY_GROUP_COLLISION:
            rename(avahi_entry_group_get_client(group))
        case AVAHI_ENTRY_GROUP_FAILURE:
            sink.yield(.publishFailed(Self.errorText(avahi_client_errno(avahi_entry_group_get_client(group)))))
        default:
            break
        }
    }

    /// Picks Avahi's alternative name ("alice #2") and publishes again.
    private func rename(_ client: OpaquePointer?) {
        let old = serviceName
        if let alternative = avahi_alternative_service_name(serviceName) {
            serviceName = String(cString: alternative)
            avahi_free(alternative)
        }
        sink.yield(.renamed(from: old, to: serviceName))
        if let group { avahi_entry_group_reset(group) }
        publish(client)
    }

    // MARK: Our host name

    /// Resolves our own `<host>.local` again (it is resolved when Avahi starts running), for
    /// `peerctl doctor`: an answer that failed while the network did may come now.
    package func resolveHostNameAgain() {
        guard let poll else { return }
        avahi_threaded_poll_lock(poll)
        if let client, avahi_client_get_state(client) == AVAHI_CLIENT_S_RUNNING { resolveHostName(client) }
        avahi_threaded_poll_unlock(poll)
    }

    /// Resolves our own `<host>.local` through Avahi, as any program using nss-mdns would; the
    /// resolver frees itself.
    private func resolveHostName(_ client: OpaquePointer?) {
        guard let fqdn = avahi_client_get_host_name_fqdn(client) else { return }
        let name = String(cString: fqdn)
        sink.yield(.hostName(name))
        let resolver = avahi_host_name_resolver_new(
            client,
            AvahiIfIndex(AVAHI_IF_UNSPEC),
            AvahiProtocol(AVAHI_PROTO_UNSPEC),
            fqdn,
            AvahiProtocol(AVAHI_PROTO_UNSPEC),
            AvahiLookupFlags(0),
            { resolver, _, _, event, name, address, _, context in
                AvahiBridge.bridge(context).hostResolved(resolver, event, name, address)
                avahi_host_name_resolver_free(resolver)
            },
            context
        )
        if resolver == nil {
            sink.yield(.hostNotResolved(name: name, reason: Self.errorText(avahi_client_errno(client))))
        }
    }

    private func hostResolved(
        _ resolver: OpaquePointer?,
        _ event: AvahiResolverEvent,
        _ name: UnsafePointer<CChar>?,
        _ address: UnsafePointer<AvahiAddress>?
    ) {
        let host = name.map { String(cString: $0) } ?? ""
        guard event == AVAHI_RESOLVER_FOUND, let address else {
            let code = avahi_client_errno(avahi_host_name_resolver_get_client(resolver))
            sink.yield(.hostNotResolved(name: host, reason: Self.errorText(code)))
            return
        }
        var text = [CChar](repeating: 0, count: Int(AVAHI_ADDRESS_STR_MAX))
        avahi_address_snprint(&text, text.count, address)
        sink.yield(.hostResolved(name: host, address: Self.string(fromNulTerminated: text)))
    }

    // MARK: Browsing

    private func browse(_ client: OpaquePointer?) {
        guard browser == nil else { return }
        browser = avahi_service_browser_new(
            client,
            AvahiIfIndex(AVAHI_IF_UNSPEC),
            AvahiProtocol(AVAHI_PROTO_UNSPEC),
            Self.serviceType,
            nil,
            AvahiLookupFlags(0),
            { _, interface, proto, event, name, type, domain, _, context in
                AvahiBridge.bridge(context).browsed(interface, proto, event, name, type, domain)
            },
            context
        )
        if browser == nil { sink.yield(.browseFailed(Self.errorText(avahi_client_errno(client)))) }
    }

    private func browsed(
        _ interface: AvahiIfIndex,
        _ proto: AvahiProtocol,
        _ event: AvahiBrowserEvent,
        _ name: UnsafePointer<CChar>?,
        _ type: UnsafePointer<CChar>?,
        _ domain: UnsafePointer<CChar>?
    ) {
        switch event {
        case AVAHI_BROWSER_NEW:
            // Resolve with the same address family the service was seen on; the resolver frees itself.
            let resolver = avahi_service_resolver_new(
                client,
                interface,
                proto,
                name,
                type,
                domain,
                proto,
                AvahiLookupFlags(0),
                { resolver, interface, proto, event, name, _, _, _, address, port, txt, _, context in
                    if event == AVAHI_RESOLVER_FOUND, let name, let address {
                        AvahiBridge.bridge(context).resolved(interface, proto, name, address, port, txt)
                    }
                    avahi_service_resolver_free(resolver)
                },
                context
            )
            if resolver == nil { sink.yield(.browseFailed(Self.errorText(avahi_client_errno(client)))) }
        case AVAHI_BROWSER_REMOVE:
            if let name {
                sink.yield(
                    .removed(
                        name: String(cString: name),
                        interface: interface,
                        ipv6: proto == AvahiProtocol(AVAHI_PROTO_INET6)
                    )
                )
            }
        case AVAHI_BROWSER_FAILURE:
            sink.yield(.browseFailed(Self.errorText(avahi_client_errno(client))))
        default:
            break
        }
    }

    private func resolved(
        _ interface: AvahiIfIndex,
        _ proto: AvahiProtocol,
        _ name: UnsafePointer<CChar>,
        _ address: UnsafePointer<AvahiAddress>,
        _ port: UInt16,
        _ txt: UnsafeMutablePointer<AvahiStringList>?
    ) {
        var text = [CChar](repeating: 0, count: Int(AVAHI_ADDRESS_STR_MAX))
        avahi_address_snprint(&text, text.count, address)
        var interfaceName = [CChar](repeating: 0, count: Int(IF_NAMESIZE))
        let hasName = if_indextoname(UInt32(bitPattern: interface), &interfaceName) != nil
        var entries: [String: String] = [:]
        var item = txt
        while let current = item {
            var key: UnsafeMutablePointer<CChar>?
            var value: UnsafeMutablePointer<CChar>?
            if avahi_string_list_get_pair(current, &key, &value, nil) == 0, let key {
                entries[String(cString: key)] = value.map { String(cString: $0) } ?? ""
            }
            avahi_free(key)
            avahi_free(value)
            item = avahi_string_list_get_next(current)
        }
        sink.yield(
            .resolved(
                ResolvedService(
                    name: String(cString: name),
                    interface: interface,
                    interfaceName: hasName ? Self.string(fromNulTerminated: interfaceName) : nil,
                    ipv6: proto == AvahiProtocol(AVAHI_PROTO_INET6),
                    address: Self.string(fromNulTerminated: text),
                    port: Int(port),
                    txt: entries
                )
            )
        )
    }

    /// The text of a C buffer filled up to its first NUL (`snprintf`-style output).
    static func string(fromNulTerminated buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
