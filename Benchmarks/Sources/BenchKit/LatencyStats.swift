/// Latency summary of one query kind over all timed executions (nearest-rank percentiles, microseconds).
public struct LatencyStats: Sendable, Equatable {
    public var queries: Int
    public var executions: Int
    public var p50: Double
    public var p99: Double
    public var mean: Double
    /// Sum of result counts over the kind's queries (one execution each), to compare engines.
    public var hits: Int

    /// `nanoseconds` holds every timed execution; `hits` is per query, counted once.
    public init(nanoseconds: [UInt64], queries: Int, hits: Int) {
        let sorted = nanoseconds.sorted()
        self.queries = queries
        self.executions = sorted.count
        self.hits = hits
        func rank(_ p: Double) -> Double {
            guard !sorted.isEmpty else { return 0 }
            let index = max(0, min(sorted.count - 1, Int((p * Double(sorted.count)).rounded(.up)) - 1))
            return Double(sorted[index]) / 1000
        }
        p50 = rank(0.50)
        p99 = rank(0.99)
        mean = sorted.isEmpty ? 0 : Double(sorted.reduce(0, +)) / Double(sorted.count) / 1000
    }
}
