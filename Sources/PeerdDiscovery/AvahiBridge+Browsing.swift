import CAvahi

#if canImport(Glibc)
import Glibc
#endif

/// Browsing for `_watchlist._tcp` services and resolving each one found to an address, port and TXT.
extension AvahiBridge {
    func browse(_ client: OpaquePointer?) {
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
}
