/// Percentiles over measured durations.
struct Sample {
    private(set) var values: [Double] = []

    mutating func add(_ duration: Duration) {
        let parts = duration.components
        values.append(Double(parts.seconds) * 1000 + Double(parts.attoseconds) / 1e15)
    }

    /// The p-th percentile in milliseconds (nearest rank).
    func percentile(_ p: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }

    var count: Int { values.count }
}
