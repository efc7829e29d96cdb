import CAvahi

/// Resolving our own `<host>.local` through Avahi, for `peerctl doctor`.
extension AvahiBridge {
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
    func resolveHostName(_ client: OpaquePointer?) {
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
}
