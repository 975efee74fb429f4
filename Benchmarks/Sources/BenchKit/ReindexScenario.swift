/// The `reindex` scenario: issue 3 asks that tombstones and merges keep memory bounded under churn ("index,
/// delete and reindex the same corpus ten times: memory grows less than 10%").
extension BenchRunner {
    /// `--reindex-rounds` times: delete every item by identifier (made visible), index the whole corpus again
    /// (made visible), then trim the heap and read RSS and the engine's index size, as after the build. Searchlight's
    /// adapter merges inside `commit()` (its writer has no background merges), so each round ends settled.
    ///
    /// Metrics: the build's and each round's `rss_mb` (growth over the same baseline as the build's: before the
    /// engine was created) and `index_mb`, each round's seconds, and the last round's growth over the build in
    /// percent. `built` is the build's RSS growth and index size in bytes.
    func reindexRounds<E: BenchEngine>(
        _ engine: E, items: [CorpusItem], rssBaseline: Int?, built: (rss: Int?, index: Int?)
    ) throws -> [(String, Double)] {
        func megabytes(_ bytes: Int) -> Double { Double(bytes) / 1_048_576 }
        var metrics: [(String, Double)] = [("rounds", Double(options.reindexRounds))]
        if let rss = built.rss { metrics.append(("build_rss_mb", megabytes(rss))) }
        if let index = built.index { metrics.append(("build_index_mb", megabytes(index))) }
        var last: (rss: Int?, index: Int?) = built
        for round in 1...options.reindexRounds {
            let start = monotonicNanoseconds()
            let removed = try engine.delete(items[...])
            try engine.replace(items[...])
            let seconds = Double(monotonicNanoseconds() - start) / 1e9
            ResidentMemory.trim()
            let process = ResidentMemory.current()
            last = (process.flatMap { now in rssBaseline.map { now - $0 } }, try engine.indexBytes())
            metrics.append(("round\(round)_s", seconds))
            if let rss = last.rss { metrics.append(("round\(round)_rss_mb", megabytes(rss))) }
            if let index = last.index { metrics.append(("round\(round)_index_mb", megabytes(index))) }
            let figures: [String?] = [
                "removed \(removed)", "\(formatNumber(seconds, digits: 2)) s",
                last.rss.map { "rss \(formatNumber(megabytes($0), digits: 1)) MB" },
                process.map { "process rss \(formatNumber(megabytes($0), digits: 1)) MB" },
                last.index.map { "index \(formatNumber(megabytes($0), digits: 1)) MB" },
                engine.indexShape(),
            ]
            log("\(E.name): reindex round \(round): " + figures.compactMap { $0 }.joined(separator: ", "))
        }
        if let first = built.rss, first > 0, let now = last.rss {
            metrics.append(("rss_growth_pct", Double(now - first) / Double(first) * 100))
        }
        if let first = built.index, first > 0, let now = last.index {
            metrics.append(("index_growth_pct", Double(now - first) / Double(first) * 100))
        }
        return metrics
    }
}
