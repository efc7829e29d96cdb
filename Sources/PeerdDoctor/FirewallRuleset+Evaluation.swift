/// Following a probe through the chains: each rule's matches answered, jumps followed, the first
/// verdict that certainly applies taken.
extension FirewallRuleset {
    enum Answer: Hashable, Sendable {
        case yes, no, maybe
    }

    enum Outcome: Hashable, Sendable {
        case accepted
        /// A rule that may or may not apply would decide: nothing can be said.
        case unknown
        case dropped(chain: String, rule: Rule)
        /// No verdict in the chain (or a `return`): the caller's next rule, or a base chain's policy.
        case fellThrough
    }

    /// Jumps deeper than this are not followed.
    static let maxDepth = 16

    func evaluate(_ chain: Chain, _ probe: Probe, depth: Int) -> Outcome {
        guard depth < Self.maxDepth else { return .unknown }
        for rule in chain.rules {
            let answer = Self.answer(rule.matches, probe)
            guard answer != .no, let verdict = rule.verdict else { continue }
            switch verdict {
            case .accept: return answer == .yes ? .accepted : .unknown
            case .drop, .reject:
                if answer == .yes { return .dropped(chain: chain.name, rule: rule) }
            case .return: return answer == .yes ? .fellThrough : .unknown
            case .jump(let target), .goto(let target):
                let next = chains.first { $0.name == target && $0.table == chain.table && $0.family == chain.family }
                guard let next else {
                    if answer == .yes { return .unknown }
                    continue
                }
                switch (evaluate(next, probe, depth: depth + 1), answer) {
                case (.fellThrough, .yes): if case .goto = verdict { return .fellThrough }
                case (.fellThrough, _), (.dropped, .maybe): continue
                case (let inner, .yes): return inner
                default: return .unknown
                }
            }
        }
        return .fellThrough
    }

    /// All of a rule's matches: no if any is no, yes if all are yes, else maybe.
    static func answer(_ matches: [Match], _ probe: Probe) -> Answer {
        var result = Answer.yes
        for match in matches {
            switch answer(match, probe) {
            case .no: return .no
            case .maybe: result = .maybe
            case .yes: break
            }
        }
        return result
    }

    static func answer(_ match: Match, _ probe: Probe) -> Answer {
        func flip(_ value: Bool, _ negated: Bool) -> Answer { value != negated ? .yes : .no }
        switch match {
        case .proto(let protos, let negated): return flip(protos.contains(probe.proto), negated)
        case .destinationPort(let ranges, let proto, let negated):
            if let proto, proto != probe.proto { return .no }
            return flip(ranges.contains { $0.contains(probe.port) }, negated)
        case .state(let states, let negated): return flip(states.contains("new"), negated)
        case .inputInterface(let names, let negated):
            return names == ["lo"] ? flip(false, negated) : .maybe
        case .family(let ipv6): return ipv6 == probe.ipv6 ? .yes : .no
        case .unknown: return .maybe
        }
    }
}

extension FirewallRuleset.Drop {
    /// `table inet filter, chain input: rule handle 7 (udp dport 5353 drop)`, or the policy.
    package var description: String {
        let place =
            tool == .nftables
            ? "table \(base.family) \(base.table), chain \(chain)" : "iptables table \(base.table), chain \(chain)"
        guard let rule else { return "\(place): its policy drops what no rule accepted first" }
        let handle = rule.handle.map { tool == .nftables ? "rule handle \($0)" : "rule \($0)" } ?? "a rule"
        return "\(place): \(handle) (\(rule.description))"
    }

    /// The command that lets `probe` in: an accept rule at the top of the base chain.
    package func allowCommand(_ probe: FirewallRuleset.Probe) -> String {
        switch tool {
        case .nftables:
            "sudo nft insert rule \(base.family) \(base.table) \(base.name) \(probe.proto) dport \(probe.port) accept"
        case .iptables:
            "sudo \(probe.ipv6 ? "ip6tables" : "iptables") -I \(base.name) -p \(probe.proto) --dport \(probe.port) "
                + "-j ACCEPT"
        }
    }
}

extension FirewallRuleset.Rule {
    /// The rule in nft's words, as far as it was understood.
    package var description: String {
        let verdict: String =
            switch self.verdict {
            case .accept?: "accept"
            case .drop?: "drop"
            case .reject?: "reject"
            case .jump(let target)?: "jump \(target)"
            case .goto(let target)?: "goto \(target)"
            case .return?: "return"
            case nil: "counter"
            }
        return (matches.map(\.description) + [verdict]).joined(separator: " ")
    }
}

extension FirewallRuleset.Match {
    package var description: String {
        func set(_ words: [String]) -> String { words.count == 1 ? words[0] : "{ \(words.joined(separator: ", ")) }" }
        func not(_ negated: Bool) -> String { negated ? "!= " : "" }
        switch self {
        case .proto(let protos, let negated): return "meta l4proto \(not(negated))\(set(protos.sorted()))"
        case .destinationPort(let ranges, let proto, let negated):
            let ports = ranges.map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)-\($0.upperBound)" }
            return "\(proto ?? "th") dport \(not(negated))\(set(ports))"
        case .state(let states, let negated): return "ct state \(not(negated))\(set(states.sorted()))"
        case .inputInterface(let names, let negated): return "iifname \(not(negated))\(set(names.sorted()))"
        case .family(let ipv6): return "meta nfproto \(ipv6 ? "ipv6" : "ipv4")"
        case .unknown(let words): return words
        }
    }
}
