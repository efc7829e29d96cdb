/// One `match` statement of `nft -j`: `{"op": "==", "left": {"payload": …}, "right": 5353}`.
extension NFTRuleset {
    static func match(op: String?, left: LooseJSON?, right: LooseJSON?, sets: SetLookup) -> FirewallRuleset.Match {
        let negated = op == "!="
        guard let (kind, detail) = left?.single else { return .unknown("?") }
        let key = detail["key"]?.string ?? detail["field"]?.string ?? ""
        let understood: FirewallRuleset.Match? =
            switch kind {
            case "payload": payload(detail, right, negated: negated, sets: sets)
            case "meta": meta(key, right, negated: negated)
            case "ct" where key == "state": words(right).map { .state(Set($0), negated: negated) }
            default: nil
            }
        return understood ?? .unknown("\(kind) \(key)")
    }

    /// `udp dport 5353`, `th dport { 7601, 8000-8100 }`, `ip protocol udp`, `ip6 nexthdr udp`.
    private static func payload(
        _ detail: LooseJSON,
        _ right: LooseJSON?,
        negated: Bool,
        sets: SetLookup
    ) -> FirewallRuleset.Match? {
        let proto = detail["protocol"]?.string
        switch (proto, detail["field"]?.string) {
        case (_, "dport"):
            return ports(right, sets: sets).map {
                .destinationPort($0, proto: proto == "th" ? nil : proto, negated: negated)
            }
        case ("ip", "protocol"), ("ip6", "nexthdr"):
            return words(right).map { .proto(Set($0), negated: negated) }
        default:
            return nil
        }
    }

    /// `meta l4proto udp`, `iif lo`, `iifname "eth0"`, `meta nfproto ipv6`.
    private static func meta(_ key: String, _ right: LooseJSON?, negated: Bool) -> FirewallRuleset.Match? {
        guard let words = words(right) else { return nil }
        switch key {
        case "l4proto": return .proto(Set(words), negated: negated)
        case "iif", "iifname": return .inputInterface(Set(words), negated: negated)
        case "nfproto" where words.count == 1 && !negated: return .family(ipv6: words[0] == "ipv6")
        default: return nil
        }
    }

    /// A word, a list of words or a set of them; protocol numbers 6 and 17 as `tcp` and `udp`.
    static func words(_ value: LooseJSON?) -> [String]? {
        switch value {
        case .string(let word)?: return [word]
        case .number(6)?: return ["tcp"]
        case .number(17)?: return ["udp"]
        case .array(let values)?:
            let words = values.compactMap { self.words($0)?.first }
            return words.count == values.count ? words : nil
        case .object?: return words(value?["set"])
        default: return nil
        }
    }

    /// A port, a range, a set of them, or a named set (`@allowed`); nil for anything else.
    static func ports(_ value: LooseJSON?, sets: SetLookup) -> [ClosedRange<Int>]? {
        switch value {
        case .number?:
            return value?.int.map { [$0...$0] }
        case .string(let text)?:
            if let port = Int(text) { return [port...port] }
            return sets.elements(text).flatMap { ports(.array($0), sets: sets) }
        case .array(let values)?:
            let ranges = values.compactMap { ports($0, sets: sets) }
            return ranges.count == values.count ? ranges.flatMap { $0 } : nil
        case .object?:
            if let set = value?["set"] { return ports(set, sets: sets) }
            if let elem = value?["elem"]?["val"] { return ports(elem, sets: sets) }
            guard let bounds = value?["range"]?.array, bounds.count == 2, let low = bounds[0].int,
                let high = bounds[1].int, low <= high
            else { return nil }
            return [low...high]
        default:
            return nil
        }
    }
}
