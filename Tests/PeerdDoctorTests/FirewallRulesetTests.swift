import PeerdDoctor
import Testing

/// Whether a firewall drops mDNS (UDP 5353) or peerd's port coming in, read from real `nft -j`
/// output and `iptables-save` output. Each nft fixture was made with `nft -f` from the rules quoted
/// above its test, in a scratch network namespace.
@Suite("Firewall rules")
struct FirewallRulesetTests {
    let mdns = FirewallRuleset.Probe(proto: "udp", port: 5353)
    let peerd = FirewallRuleset.Probe(proto: "tcp", port: 7601)

    func nft(_ name: String) throws -> FirewallRuleset { try NFTRuleset.parse(Fixtures.bytes(name)) }

    /// `table inet filter { chain input { type filter hook input priority 0; policy accept; udp dport 5353 drop; } }`
    @Test func aRuleThatDropsUDP5353IsFoundWithItsTableChainAndHandle() throws {
        let rules = try nft("nft-udp-5353-drop.json")
        let drop = try #require(rules.drop(mdns))
        #expect(drop.description == "table inet filter, chain input: rule handle 2 (udp dport 5353 drop)")
        #expect(drop.allowCommand(mdns) == "sudo nft insert rule inet filter input udp dport 5353 accept")
        #expect(rules.drop(FirewallRuleset.Probe(proto: "udp", port: 5353, ipv6: true)) != nil, "inet is both")
        #expect(rules.drop(peerd) == nil)
    }

    /// A policy of drop; `ct state established,related accept`, `ct state invalid drop`, `iif lo accept`,
    /// `tcp dport 22 accept`, `meta l4proto { tcp, udp } th dport { 7601, 8000-8100 } accept`, `counter`.
    @Test func aDropPolicyDropsWhatNoRuleAcceptsFirst() throws {
        let rules = try nft("nft-policy-drop.json")
        #expect(rules.drop(peerd) == nil, "th dport { 7601, … } accepts it")
        #expect(rules.drop(FirewallRuleset.Probe(proto: "udp", port: 8050)) == nil, "inside the range")
        let drop = try #require(rules.drop(mdns))
        #expect(drop.rule == nil && drop.description.contains("its policy drops"))
    }

    /// `set allowed { 22, 7601 }`; input: policy drop, `ct state vmap { established : accept, related : accept,
    /// invalid : drop }`, `iifname "lo" accept`, `jump lan`; lan: `tcp dport @allowed accept`,
    /// `udp dport 5353 reject`. Also table ip6 only6: `udp dport != 5353 accept`.
    @Test func jumpsNamedSetsAndVerdictMapsAreFollowed() throws {
        let rules = try nft("nft-jump-set-vmap.json")
        #expect(rules.drop(peerd) == nil, "7601 is in @allowed")
        let drop = try #require(rules.drop(mdns))
        #expect(drop.chain == "lan" && drop.base.name == "input" && drop.rule?.verdict == .reject)
        #expect(drop.allowCommand(mdns) == "sudo nft insert rule inet fw input udp dport 5353 accept")
        #expect(rules.drop(FirewallRuleset.Probe(proto: "tcp", port: 8080)) != nil, "the policy drops the rest")
    }

    /// table ip filter, INPUT: policy drop, `ip saddr 10.0.0.0/8 udp dport 5353 accept`,
    /// `tcp dport 7000-8000 reject with tcp reset`.
    @Test func aRuleThatMayAcceptIsNoDropAndARangeRejects() throws {
        let rules = try nft("nft-saddr-range-reject.json")
        #expect(rules.drop(mdns) == nil, "the source address decides, and it is unknown here: no claim")
        let drop = try #require(rules.drop(peerd))
        #expect(drop.description == "table ip filter, chain INPUT: rule handle 3 (tcp dport 7000-8000 reject)")
        #expect(rules.drop(FirewallRuleset.Probe(proto: "tcp", port: 7601, ipv6: true)) == nil, "an ip table is IPv4")
    }

    @Test func anEmptyRulesetDropsNothing() throws {
        let rules = try NFTRuleset.parse(Array(#"{"nftables": [{"metainfo": {"version": "1.0.6"}}]}"#.utf8))
        #expect(rules.chains.isEmpty && rules.drop(mdns) == nil)
        #expect(throws: NFTRuleset.Unreadable.self) { try NFTRuleset.parse(Array("not json".utf8)) }
    }

    @Test func ufwsChainsAreFollowedFromINPUTAndItsMDNSRuleMayAccept() throws {
        let rules = IPTablesSave.parse(try Fixtures.text("iptables-save-ufw.txt"))
        #expect(rules.chains.map(\.name) == ["INPUT", "FORWARD", "OUTPUT", "ufw-before-input", "ufw-user-input"])
        #expect(rules.drop(mdns) == nil, "ufw accepts 5353 to 224.0.0.251: a destination it can't judge, so no claim")
        #expect(rules.drop(peerd) == nil, "--dports 7601,8000:8100")
        let other = FirewallRuleset.Probe(proto: "tcp", port: 9999)
        let drop = try #require(rules.drop(other))
        #expect(drop.rule == nil && drop.allowCommand(other) == "sudo iptables -I INPUT -p tcp --dport 9999 -j ACCEPT")
    }

    @Test func iptablesRulesWithNegationsAndStatesAreRead() throws {
        let rules = IPTablesSave.parse(try Fixtures.text("iptables-save-drop.txt"))
        let mdnsDrop = try #require(rules.drop(mdns))
        #expect(
            mdnsDrop.description
                == "iptables table filter, chain INPUT: rule 1 (iifname != lo meta l4proto udp udp dport 5353 drop)"
        )
        let peerdDrop = try #require(rules.drop(peerd))
        #expect(peerdDrop.rule?.verdict == .reject && peerdDrop.rule?.handle == 2)
    }
}
