/// A firewall's input rules as far as `peerctl doctor` needs them, read from nftables
/// (``NFTRuleset``) or iptables (``IPTablesSave``), and the question it asks of them: would a new
/// packet from the LAN to this UDP or TCP port be dropped? Pure.
///
/// Each match is answered yes, no or maybe (a source address, an interface name: unknown here).
/// Only a drop that certainly applies is reported, and a rule that may accept ends the question
/// without one: the check names a rule only when it is sure.
package struct FirewallRuleset: Hashable, Sendable {
    package enum Tool: String, Hashable, Sendable {
        case nftables, iptables
    }

    package enum Verdict: Hashable, Sendable {
        case accept, drop, reject
        case jump(String), goto(String)
        case `return`
    }

    package enum Match: Hashable, Sendable {
        /// The layer 4 protocol is (`negated`: isn't) one of these.
        case proto(Set<String>, negated: Bool)
        /// The destination port is in these ranges; `proto` when the match names one (`udp dport`).
        case destinationPort([ClosedRange<Int>], proto: String?, negated: Bool)
        /// Connection tracking state (a new packet is `new`).
        case state(Set<String>, negated: Bool)
        /// The input interface (a packet from the LAN never comes on `lo`; other names are unknown).
        case inputInterface(Set<String>, negated: Bool)
        /// IPv4 or IPv6 only.
        case family(ipv6: Bool)
        /// Anything else: its words, for the rule's description.
        case unknown(String)
    }

    package struct Rule: Hashable, Sendable {
        package var matches: [Match]
        /// Nil for a rule that only counts or logs.
        package var verdict: Verdict?
        /// nftables' rule handle, or iptables' rule number in its chain.
        package var handle: Int?

        package init(matches: [Match], verdict: Verdict?, handle: Int? = nil) {
            self.matches = matches
            self.verdict = verdict
            self.handle = handle
        }
    }

    package struct Chain: Hashable, Sendable {
        /// `inet`, `ip`, `ip6` (nftables); `ip` for iptables.
        package var family: String
        package var table: String
        package var name: String
        /// True for a base chain on the input hook (nftables), or iptables' INPUT.
        package var isInput: Bool
        /// A base chain's policy; nil is accept.
        package var policy: Verdict?
        package var rules: [Rule]

        package init(family: String, table: String, name: String, isInput: Bool, policy: Verdict?, rules: [Rule]) {
            self.family = family
            self.table = table
            self.name = name
            self.isInput = isInput
            self.policy = policy
            self.rules = rules
        }

        /// Whether packets of this address family pass through it.
        func sees(ipv6: Bool) -> Bool {
            family == "inet" || family == (ipv6 ? "ip6" : "ip")
        }
    }

    /// A packet from the LAN opening a connection (or an mDNS datagram) to this port.
    package struct Probe: Hashable, Sendable {
        package var proto: String
        package var port: Int
        package var ipv6: Bool

        package init(proto: String, port: Int, ipv6: Bool = false) {
            self.proto = proto
            self.port = port
            self.ipv6 = ipv6
        }
    }

    /// Where a probe is dropped: the base chain it entered, and the rule (or the policy) that drops it.
    package struct Drop: Hashable, Sendable {
        package var tool: Tool
        package var base: Chain
        /// The chain of the dropping rule (the base chain, or one it jumps to).
        package var chain: String
        /// Nil when the base chain's policy drops it.
        package var rule: Rule?
    }

    package var tool: Tool
    package var chains: [Chain]

    package init(tool: Tool, chains: [Chain]) {
        self.tool = tool
        self.chains = chains
    }

    /// The first input chain that certainly drops `probe`, and where.
    package func drop(_ probe: Probe) -> Drop? {
        for base in chains where base.isInput && base.sees(ipv6: probe.ipv6) {
            switch evaluate(base, probe, depth: 0) {
            case .dropped(let chain, let rule): return Drop(tool: tool, base: base, chain: chain, rule: rule)
            case .fellThrough where base.policy == .drop || base.policy == .reject:
                return Drop(tool: tool, base: base, chain: base.name, rule: nil)
            case .fellThrough, .accepted, .unknown: continue
            }
        }
        return nil
    }
}
