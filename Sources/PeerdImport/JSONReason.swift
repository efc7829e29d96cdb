/// Where and why JSONDecoder stopped, in a few words: `at [3].movie.year: expected a number`.
enum JSONReason {
    static func of(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        switch error {
        case .typeMismatch(let type, let context):
            return "\(at(context))expected \(name(of: type))"
        case .valueNotFound(let type, let context):
            return "\(at(context))expected \(name(of: type)), found null"
        case .keyNotFound(let key, let context):
            return "\(at(context))no \"\(key.stringValue)\""
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "it is not valid JSON" : "\(at(context))\(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    private static func at(_ context: DecodingError.Context) -> String {
        guard !context.codingPath.isEmpty else { return "" }
        let path = context.codingPath.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }
        return "at \(path.joined().drop { $0 == "." }): "
    }

    private static func name(of type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Int64.Type, is Double.Type: "a number"
        case is Bool.Type: "true or false"
        case is [Any].Type: "an array"
        default: "an object"
        }
    }
}
