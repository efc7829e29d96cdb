#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads `nft -j list ruleset` into a ``FirewallRuleset``: every chain with its rules, each rule's
/// matches as far as they concern a packet's protocol, destination port, connection state, input
/// interface and family, and its verdict (verdict maps become one rule per entry). Pure.
package enum NFTRuleset {
    package struct Unreadable: Error, Hashable, Sendable {
        package var reason: String
    }

    /// Statements that change nothing about a packet's fate.
    static let harmless: Set<String> = ["counter", "log", "mangle", "notrack", "comment"]

    package static func parse(_ json: [UInt8]) throws(Unreadable) -> FirewallRuleset {
        let root: LooseJSON
        do {
            root = try JSONDecoder().decode(LooseJSON.self, from: Data(json))
        } catch {
            throw Unreadable(reason: "nft -j printed something that isn't JSON: \(error)")
        }
        guard let items = root["nftables"]?.array else { throw Unreadable(reason: "nft -j printed no \"nftables\"") }
        return parse(items)
    }

    static func parse(_ items: [LooseJSON]) -> FirewallRuleset {
        var sets: [String: [LooseJSON]] = [:]
        var chains: [FirewallRuleset.Chain] = []
        for item in items {
            guard let (kind, body) = item.single else { continue }
            let family = body["family"]?.string ?? "", table = body["table"]?.string ?? ""
            switch kind {
            case "set": sets["\(family) \(table) \(body["name"]?.string ?? "")"] = body["elem"]?.array ?? []
            case "chain":
                chains.append(
                    FirewallRuleset.Chain(
                        family: family,
                        table: table,
                        name: body["name"]?.string ?? "",
                        isInput: body["hook"]?.string == "input" && (body["type"]?.string ?? "filter") == "filter",
                        policy: body["policy"]?.string == "drop" ? .drop : nil,
                        rules: []
                    )
                )
            case "rule":
                let chain = body["chain"]?.string ?? ""
                guard let index = chains.firstIndex(where: { ($0.family, $0.table, $0.name) == (family, table, chain) })
                else { continue }
                let lookup = SetLookup(sets: sets, prefix: "\(family) \(table) ")
                chains[index].rules += rules(body["expr"]?.array ?? [], handle: body["handle"]?.int, sets: lookup)
            default: continue
            }
        }
        return FirewallRuleset(tool: .nftables, chains: chains)
    }

    /// The named sets of one table.
    struct SetLookup {
        var sets: [String: [LooseJSON]]
        var prefix: String

        func elements(_ reference: String) -> [LooseJSON]? {
            guard reference.hasPrefix("@") else { return nil }
            return sets[prefix + reference.dropFirst()]
        }
    }

    /// One rule's statements, in order, up to its verdict. A verdict map is one rule per entry.
    static func rules(_ statements: [LooseJSON], handle: Int?, sets: SetLookup) -> [FirewallRuleset.Rule] {
        var matches: [FirewallRuleset.Match] = []
        for statement in statements {
            guard let (key, value) = statement.single else {
                matches.append(.unknown("?"))
                continue
            }
            if key == "match" {
                matches.append(match(op: value["op"]?.string, left: value["left"], right: value["right"], sets: sets))
            } else if key == "vmap" {
                return verdictMap(value, before: matches, handle: handle, sets: sets)
            } else if let verdict = verdict(key, value) {
                return [FirewallRuleset.Rule(matches: matches, verdict: verdict, handle: handle)]
            } else if !harmless.contains(key) {
                matches.append(.unknown(key))
            }
        }
        return [FirewallRuleset.Rule(matches: matches, verdict: nil, handle: handle)]
    }

    static func verdict(_ key: String, _ value: LooseJSON) -> FirewallRuleset.Verdict? {
        switch key {
        case "accept": .accept
        case "drop": .drop
        case "reject": .reject
        case "return": .return
        case "jump": value["target"]?.string.map { .jump($0) }
        case "goto": value["target"]?.string.map { .goto($0) }
        default: nil
        }
    }

    /// `ct state vmap { established : accept, invalid : drop }`: a rule per entry.
    static func verdictMap(
        _ map: LooseJSON,
        before matches: [FirewallRuleset.Match],
        handle: Int?,
        sets: SetLookup
    ) -> [FirewallRuleset.Rule] {
        let entries = map["data"]?["set"]?.array ?? []
        return entries.compactMap { entry in
            guard let pair = entry.array, pair.count == 2, let (key, value) = pair[1].single,
                let verdict = verdict(key, value)
            else { return nil }
            let keyMatch = match(op: "==", left: map["key"], right: pair[0], sets: sets)
            return FirewallRuleset.Rule(matches: matches + [keyMatch], verdict: verdict, handle: handle)
        }
    }
}
