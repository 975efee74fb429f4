/// Everything measured for one engine in one run.
public struct EngineReport: Sendable {
    public var engine: String
    public var docs: Int
    public var buildSeconds: Double
    /// RSS growth (bytes) from before creating the engine to after building it, heap trimmed at both ends.
    public var rssBytes: Int?
    /// The engine's own account of its index size, where it has one (FTS5: page_count × page_size).
    public var indexBytes: Int?
    /// Latency per query kind, in the order kinds first appear in the workload.
    public var kinds: [(kind: String, stats: LatencyStats)]
    /// Scenario figures: scenario name → ordered (metric, value) pairs.
    public var scenarios: [(name: String, metrics: [(String, Double)])]
    /// CPU time of the building thread (robust to other processes sharing the cores); nil if not taken.
    public var buildCPUSeconds: Double?
    /// CPU of every thread during the build (the engine's helper threads included).
    public var buildProcessCPUSeconds: Double?
    /// The clock the query latencies were taken with.
    public var clock = QueryClock.monotonic

    public init(
        engine: String, docs: Int, buildSeconds: Double, rssBytes: Int?, indexBytes: Int?,
        kinds: [(kind: String, stats: LatencyStats)], scenarios: [(name: String, metrics: [(String, Double)])]
    ) {
        self.engine = engine
        self.docs = docs
        self.buildSeconds = buildSeconds
        self.rssBytes = rssBytes
        self.indexBytes = indexBytes
        self.kinds = kinds
        self.scenarios = scenarios
    }

    public var docsPerSecond: Double { buildSeconds > 0 ? Double(docs) / buildSeconds : 0 }

    public func stats(for kind: String) -> LatencyStats? { kinds.first { $0.kind == kind }?.stats }

    /// One JSON object on one line, keys in a fixed order.
    public var jsonLine: String {
        var json = JSONLine()
        json.add("engine", engine)
        json.add("docs", docs)
        json.add("build_s", buildSeconds, digits: 3)
        json.add("docs_per_s", docsPerSecond, digits: 0)
        if let buildCPUSeconds { json.add("build_cpu_s", buildCPUSeconds, digits: 3) }
        if let buildProcessCPUSeconds { json.add("build_process_cpu_s", buildProcessCPUSeconds, digits: 3) }
        json.add("rss_mb", rssBytes.map { Double($0) / 1_048_576 }, digits: 1)
        json.add("index_mb", indexBytes.map { Double($0) / 1_048_576 }, digits: 1)
        var queries = JSONLine()
        for (kind, stats) in kinds {
            var entry = JSONLine()
            entry.add("n", stats.queries)
            entry.add("p50_us", stats.p50, digits: 2)
            entry.add("p99_us", stats.p99, digits: 2)
            entry.add("mean_us", stats.mean, digits: 2)
            entry.add("hits", stats.hits)
            queries.addRaw(kind, entry.text)
        }
        json.addRaw("queries", queries.text)
        if clock != .monotonic { json.add("clock", clock.rawValue) }
        if !scenarios.isEmpty {
            var all = JSONLine()
            for (name, metrics) in scenarios {
                var entry = JSONLine()
                for (metric, value) in metrics { entry.add(metric, value, digits: 3) }
                all.addRaw(name, entry.text)
            }
            json.addRaw("scenarios", all.text)
        }
        return json.text
    }
}

/// A minimal ordered JSON object writer (keys stay in insertion order, numbers rounded for reading).
struct JSONLine {
    private var members: [String] = []

    static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 {
                    out += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                        + String(scalar.value, radix: 16)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    mutating func addRaw(_ key: String, _ raw: String) { members.append(Self.quote(key) + ": " + raw) }
    mutating func add(_ key: String, _ value: String) { addRaw(key, Self.quote(value)) }
    mutating func add(_ key: String, _ value: Int) { addRaw(key, String(value)) }
    mutating func add(_ key: String, _ value: Double?, digits: Int) {
        guard let value, value.isFinite else { return addRaw(key, "null") }
        addRaw(key, formatNumber(value, digits: digits))
    }

    var text: String { "{" + members.joined(separator: ", ") + "}" }
}

/// A decimal rendering with a fixed number of fraction digits (no Foundation formatter, no locale).
public func formatNumber(_ value: Double, digits: Int) -> String {
    guard value.isFinite else { return "nan" }
    if digits <= 0 { return String(Int64(value.rounded())) }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = Int64((abs(value) * scale).rounded())
    let whole = scaled / Int64(scale)
    var fraction = String(scaled % Int64(scale))
    fraction = String(repeating: "0", count: digits - fraction.count) + fraction
    return (value < 0 && scaled != 0 ? "-" : "") + "\(whole).\(fraction)"
}
