import CAvahi

/// Publishing our `_watchlist._tcp` service, and renaming it when its name collides.
extension AvahiBridge {
    func publish(_ client: OpaquePointer?) {
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
}
