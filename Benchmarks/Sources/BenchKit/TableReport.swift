/// The human-readable report: one block per figure, one column per engine, and ratios against FTS5.
public enum TableReport {
    public static func render(_ reports: [EngineReport]) -> String {
        guard !reports.isEmpty else { return "no engine ran\n" }
        let names = reports.map(\.engine)
        let baseline = reports.first { $0.engine == FTS5Engine.name }
        let subject = reports.first { $0.engine != FTS5Engine.name }
        var ratioTitle = ""
        if let subject, let baseline { ratioTitle = "\(subject.engine)/\(baseline.engine)" }
        let showRatio = !ratioTitle.isEmpty

        var rows: [[String]] = [["figure"] + names + (showRatio ? [ratioTitle] : [])]
        func row(_ label: String, _ value: (EngineReport) -> Double?, digits: Int) {
            var cells = [label]
            for report in reports { cells.append(value(report).map { formatNumber($0, digits: digits) } ?? "-") }
            if showRatio {
                if let a = subject.flatMap(value), let b = baseline.flatMap(value), b != 0 {
                    cells.append(formatNumber(a / b, digits: 2) + "x")
                } else {
                    cells.append("-")
                }
            }
            rows.append(cells)
        }
        row("docs", { Double($0.docs) }, digits: 0)
        row("build s", { $0.buildSeconds }, digits: 2)
        row("docs/s", { $0.docsPerSecond }, digits: 0)
        row("build cpu s", { $0.buildCPUSeconds }, digits: 2)
        row("build all-threads cpu s", { $0.buildProcessCPUSeconds }, digits: 2)
        row("rss MB", { $0.rssBytes.map { Double($0) / 1_048_576 } }, digits: 1)
        row("index MB", { $0.indexBytes.map { Double($0) / 1_048_576 } }, digits: 1)
        var kinds: [String] = []
        for report in reports { for (kind, _) in report.kinds where !kinds.contains(kind) { kinds.append(kind) } }
        for kind in kinds {
            row("\(kind) p50 us", { $0.stats(for: kind)?.p50 }, digits: 1)
            row("\(kind) p99 us", { $0.stats(for: kind)?.p99 }, digits: 1)
            row("\(kind) mean us", { $0.stats(for: kind)?.mean }, digits: 1)
            row("\(kind) hits (n=\(reports.compactMap { $0.stats(for: kind)?.queries }.max() ?? 0))",
                { $0.stats(for: kind).map { Double($0.hits) } }, digits: 0)
        }
        var scenarioMetrics: [(String, String)] = []
        for report in reports {
            for (name, metrics) in report.scenarios {
                for (metric, _) in metrics where !scenarioMetrics.contains(where: { $0 == (name, metric) }) {
                    scenarioMetrics.append((name, metric))
                }
            }
        }
        for (name, metric) in scenarioMetrics {
            row("\(name) \(metric)", { report in
                report.scenarios.first { $0.name == name }?.metrics.first { $0.0 == metric }?.1
            }, digits: 2)
        }

        var widths = [Int](repeating: 0, count: rows[0].count)
        for cells in rows { for (column, cell) in cells.enumerated() { widths[column] = max(widths[column], cell.count) } }
        var out = ""
        for (number, cells) in rows.enumerated() {
            let padded = cells.enumerated().map { column, cell -> String in
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                return column == 0 ? cell + pad : pad + cell
            }
            out += padded.joined(separator: "  ") + "\n"
            if number == 0 { out += widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ") + "\n" }
        }
        return out
    }
}
