/// One row of the results table and of bench/results.json.
struct Measurement: Codable {
    var measure: String
    var value: Double
    var unit: String
    var target: String
    var met: Bool
    var detail: String
}
