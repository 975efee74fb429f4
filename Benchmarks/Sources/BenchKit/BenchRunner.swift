/// Runs the workload against one engine: build, RSS, warm-up, timed rounds, then any scenarios.
public struct BenchRunner {
    public var options: BenchOptions
    /// Progress lines (stderr in the CLI); never part of the report.
    public var log: (String) -> Void

    public init(options: BenchOptions, log: @escaping (String) -> Void = { _ in }) {
        self.options = options
        self.log = log
    }

    /// Builds and measures one engine. The engine is created inside and released before returning, so the
    /// next engine's RSS baseline does not include it.
    public func run<E: BenchEngine>(
        _ make: () throws -> E, items: [CorpusItem], queries: [BenchQuery]
    ) throws -> EngineReport {
        ResidentMemory.trim()
        let rssBefore = ResidentMemory.current()
        let engine = try make()
        log("\(E.name): building \(items.count) items")
        let buildCPUStart = threadCPUNanoseconds(), buildProcessCPUStart = processCPUNanoseconds()
        let buildSeconds = try measureSeconds { try engine.build(items) }
        let buildCPUSeconds = Double(threadCPUNanoseconds() - buildCPUStart) / 1e9
        let buildProcessCPUSeconds = Double(processCPUNanoseconds() - buildProcessCPUStart) / 1e9
        ResidentMemory.trim()
        let rssAfter = ResidentMemory.current()
        let rssGrowth = rssBefore.flatMap { before in rssAfter.map { $0 - before } }
        let indexBytes = try engine.indexBytes()
        let components = engine.memoryComponents()
        if !components.isEmpty {
            let parts = components.map { "\($0.name) \(formatNumber(Double($0.bytes) / 1_048_576, digits: 2)) MB" }
            log("\(E.name): memory " + parts.joined(separator: ", "))
        }
        if let shape = engine.indexShape() { log("\(E.name): index \(shape)") }
        log("\(E.name): built in \(formatNumber(buildSeconds, digits: 2)) s; running \(queries.count) queries × \(options.rounds) rounds")

        let compiled = try queries.map { try engine.compile($0) }
        let kinds = try timeWorkload(engine, compiled: compiled, queries: queries, rounds: options.rounds)
        // Searches build derived structures (champion lists, prefix lists, frequency columns): what they hold now.
        let before = Dictionary(components.map { ($0.name, $0.bytes) }, uniquingKeysWith: { a, _ in a })
        let derived = engine.memoryComponents().filter { before[$0.name] != $0.bytes }
        if !derived.isEmpty {
            let parts = derived.map { "\($0.name) \(formatNumber(Double($0.bytes) / 1_048_576, digits: 2)) MB" }
            log("\(E.name): memory after the queries, where it changed: " + parts.joined(separator: ", "))
        }

        var scenarios: [(name: String, metrics: [(String, Double)])] = []
        for scenario in options.scenarios {
            log("\(E.name): scenario \(scenario.rawValue)")
            switch scenario {
            case .deleteDomain:
                let inDomain = items.lazy.filter { $0.domainIdentifier == options.domain }.count
                var removed = 0
                let seconds = try measureSeconds { removed = try engine.deleteDomain(options.domain) }
                scenarios.append((scenario.rawValue, [
                    ("items_in_domain", Double(inDomain)), ("removed", Double(removed)), ("delete_ms", seconds * 1000),
                ]))
            case .churn:
                // Spread over the corpus, skipping the deleted domain when that scenario ran first.
                let skipDomain = options.scenarios.contains(.deleteDomain) ? options.domain : nil
                let candidates = items.indices.filter { items[$0].domainIdentifier != skipDomain }
                let count = min(options.churnItems, candidates.count)
                let stride = max(1, candidates.count / max(1, count))
                let chosen = (0..<count).map { items[candidates[$0 * stride]] }
                var batchTimes: [UInt64] = []
                var offset = 0
                while offset < chosen.count {
                    let end = min(chosen.count, offset + options.churnBatch)
                    let start = monotonicNanoseconds()
                    try engine.replace(chosen[offset..<end])
                    batchTimes.append(monotonicNanoseconds() - start)
                    offset = end
                }
                let total = Double(batchTimes.reduce(0, +)) / 1e9
                let after = try timeWorkload(engine, compiled: compiled, queries: queries, rounds: 1)
                var metrics: [(String, Double)] = [
                    ("items", Double(chosen.count)), ("batch", Double(options.churnBatch)),
                    ("total_s", total), ("items_per_s", total > 0 ? Double(chosen.count) / total : 0),
                    ("batch_p50_ms", LatencyStats(nanoseconds: batchTimes, queries: 0, hits: 0).p50 / 1000),
                ]
                for (kind, stats) in after {
                    metrics.append(("after_\(kind)_p50_us", stats.p50))
                    metrics.append(("after_\(kind)_p99_us", stats.p99))
                }
                scenarios.append((scenario.rawValue, metrics))
            case .reindex:
                scenarios.append((scenario.rawValue, try reindexRounds(
                    engine, items: items, rssBaseline: rssBefore,
                    built: (rss: rssGrowth, index: indexBytes))))
            }
        }
        var report = EngineReport(
            engine: E.name, docs: items.count, buildSeconds: buildSeconds,
            rssBytes: rssGrowth,
            indexBytes: indexBytes, kinds: kinds, scenarios: scenarios)
        report.clock = options.clock
        report.buildCPUSeconds = buildCPUSeconds
        report.buildProcessCPUSeconds = buildProcessCPUSeconds
        return report
    }

    /// One warm-up execution per query (which also counts hits), then `rounds` timed passes over the whole
    /// workload in file order; each execution is timed on its own. The warm-up is reported apart, as the kinds'
    /// `first_` figures: the first search after the build, which pays for whatever an engine builds on first use.
    func timeWorkload<E: BenchEngine>(
        _ engine: E, compiled: [E.CompiledQuery], queries: [BenchQuery], rounds: Int
    ) throws -> [(kind: String, stats: LatencyStats)] {
        var kindOrder: [String] = []
        var kindIndex: [String: Int] = [:]
        var queryKind: [Int] = []
        for query in queries {
            if kindIndex[query.kind] == nil {
                kindIndex[query.kind] = kindOrder.count
                kindOrder.append(query.kind)
            }
            queryKind.append(kindIndex[query.kind] ?? 0)
        }
        var hits = [Int](repeating: 0, count: kindOrder.count)
        var counts = [Int](repeating: 0, count: kindOrder.count)
        var queryHits = [Int](repeating: 0, count: compiled.count)
        var firstTimings = [[UInt64]](repeating: [], count: kindOrder.count)
        for (position, query) in compiled.enumerated() {
            let start = options.clock.now()
            queryHits[position] = try engine.search(query, limit: options.limit)
            firstTimings[queryKind[position]].append(options.clock.now() - start)
            hits[queryKind[position]] += queryHits[position]
            counts[queryKind[position]] += 1
        }
        var best = [UInt64](repeating: .max, count: compiled.count)
        var timings = [[UInt64]](repeating: [], count: kindOrder.count)
        for kind in 0..<kindOrder.count { timings[kind].reserveCapacity(counts[kind] * rounds) }
        let limit = options.limit
        let clock = options.clock
        for _ in 0..<rounds {
            for (position, query) in compiled.enumerated() {
                let start = clock.now()
                let found = try engine.search(query, limit: limit)
                let elapsed = clock.now() - start
                blackHole(found)
                timings[queryKind[position]].append(elapsed)
                best[position] = min(best[position], elapsed)
            }
        }
        for position in best.indices.sorted(by: { best[$0] > best[$1] }).prefix(options.slowest) {
            log("\(E.name) slowest: \(formatNumber(Double(best[position]) / 1000, digits: 1)) us  \(queries[position].kind)  \(queries[position].text)  (\(queryHits[position]) hits)")
        }
        return kindOrder.enumerated().map { kind, name in
            (name, LatencyStats(nanoseconds: timings[kind], queries: counts[kind], hits: hits[kind]))
        } + kindOrder.enumerated().map { kind, name in
            ("first_" + name, LatencyStats(nanoseconds: firstTimings[kind], queries: counts[kind], hits: hits[kind]))
        }
    }
}
