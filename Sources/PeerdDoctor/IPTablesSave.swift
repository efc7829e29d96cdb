/// Reads `iptables-save` into a ``FirewallRuleset``: the filter table's chains (INPUT is the input
/// chain), each `-A` rule's protocol, destination ports (`--dport`, `--dports`), state, input
/// interface and target. Options it doesn't know make a match of unknown outcome. Pure.
package enum IPTablesSave {
    /// A line without the spaces around it.
    private static func trimmed(_ line: Substring) -> String {
        String(String(line.drop(while: \.isWhitespace).reversed()).drop(while: \.isWhitespace).reversed())
    }

    package static func parse(_ text: String) -> FirewallRuleset {
        var chains: [FirewallRuleset.Chain] = []
        var table = ""
        for line in text.split(separator: "\n").map(trimmed) {
            if line.hasPrefix("*") {
                table = String(line.dropFirst())
            } else if line.hasPrefix(":"), table == "filter" {
                let words = line.dropFirst().split(separator: " ")
                guard let name = words.first.map(String.init) else { continue }
                chains.append(
                    FirewallRuleset.Chain(
                        family: "ip",
                        table: table,
                        name: name,
                        isInput: name == "INPUT",
                        policy: words.count > 1 && words[1] == "DROP" ? .drop : nil,
                        rules: []
                    )
                )
            } else if line.hasPrefix("-A "), table == "filter" {
                let words = Self.words(line)
                guard words.count > 1, let index = chains.firstIndex(where: { $0.name == words[1] }) else { continue }
                var rule = Self.rule(Array(words.dropFirst(2)))
                rule.handle = chains[index].rules.count + 1
                chains[index].rules.append(rule)
            }
        }
        return FirewallRuleset(tool: .iptables, chains: chains)
    }

    /// The words of a rule; a quoted `--comment "…"` is one word.
    static func words(_ line: String) -> [String] {
        var words: [String] = []
        var current = ""
        var quoted = false
        for character in line {
            if character == "\"" {
                quoted.toggle()
            } else if character == " ", !quoted {
                if !current.isEmpty { words.append(current) }
                current = ""
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// One rule's options: each option with the words up to the next option, `!` negating it.
    static func rule(_ words: [String]) -> FirewallRuleset.Rule {
        var options: [(name: String, values: [String], negated: Bool)] = []
        var negated = false
        for word in words {
            if word == "!" {
                negated = true
            } else if word.hasPrefix("-") {
                options.append((word, [], negated))
                negated = false
            } else if !options.isEmpty {
                options[options.count - 1].values.append(word)
            }
        }
        var rule = FirewallRuleset.Rule(matches: [], verdict: nil)
        let proto = options.first { ["-p", "--protocol"].contains($0.name) }?.values.first
        for option in options {
            if ["-j", "--jump", "-g", "--goto"].contains(option.name) {
                rule.verdict = target(option.values.first ?? "", goto: option.name.hasPrefix("-g"))
            } else if let match = match(option.name, option.values, negated: option.negated, proto: proto) {
                rule.matches.append(match)
            }
        }
        return rule
    }

    static func target(_ name: String, goto: Bool) -> FirewallRuleset.Verdict? {
        switch name {
        case "ACCEPT": .accept
        case "DROP": .drop
        case "REJECT": .reject
        case "RETURN": .return
        case "LOG", "NFLOG", "": nil
        default: goto ? .goto(name) : .jump(name)
        }
    }

    /// One option as a match; nil for those that only load a module (`-m udp`) or describe (`--comment`).
    static func match(_ name: String, _ values: [String], negated: Bool, proto: String?) -> FirewallRuleset.Match? {
        let value = values.first ?? ""
        switch name {
        case "-m", "--match", "--comment", "--reject-with", "--log-prefix", "--log-level": return nil
        case "-p", "--protocol": return .proto([value.lowercased()], negated: negated)
        case "--dport", "--destination-port", "--dports", "--destination-ports":
            let ranges = value.split(separator: ",").compactMap { part -> ClosedRange<Int>? in
                let bounds = part.split(separator: ":").compactMap { Int($0) }
                guard let low = bounds.first, let high = bounds.last, low <= high else { return nil }
                return low...high
            }
            return .destinationPort(ranges, proto: proto?.lowercased(), negated: negated)
        case "--state", "--ctstate":
            return .state(Set(value.lowercased().split(separator: ",").map(String.init)), negated: negated)
        case "-i", "--in-interface": return .inputInterface([value], negated: negated)
        default: return .unknown(([name] + values).joined(separator: " "))
        }
    }
}
