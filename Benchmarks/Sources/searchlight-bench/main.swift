import BenchKit
import Foundation

/// searchlight-bench: Searchlight beside SQLite FTS5 on the same items in the same process.
/// Usage: see `BenchOptions.usage` (or run with --help).

func fail(_ message: String, code: Int32) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(code)
}

func log(_ line: String) {
    FileHandle.standardError.write(Data(("[bench] " + line + "\n").utf8))
}

let options: BenchOptions
do {
    options = try BenchOptions.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    fail("\(error)", code: 2)
}

if options.listEngines {
    print(EngineRegistry.available.joined(separator: ","))
    exit(0)
}

let items: [CorpusItem]
let queries: [BenchQuery]
do {
    let start = monotonicNanoseconds()
    let corpus = try CorpusReader.items(from: CorpusReader.bytes(of: options.corpus))
    items = CorpusReader.replicate(corpus, times: options.replicate)
    let text: String
    do { text = try String(contentsOfFile: options.queries, encoding: .utf8) } catch {
        throw BenchOptions.Failure(message: "cannot read queries \(options.queries): \(error)")
    }
    queries = try BenchQuery.parseWorkload(text)
    log("loaded \(corpus.count) items × \(options.replicate) = \(items.count), \(queries.count) queries in \(formatNumber(Double(monotonicNanoseconds() - start) / 1e9, digits: 2)) s")
} catch {
    fail("\(error)", code: 2)
}

let runner = BenchRunner(options: options, log: log)
var reports: [EngineReport] = []
var failures: [String] = []
for name in options.engines {
    do {
        let report = try EngineRegistry.run(name, runner: runner, items: items, queries: queries)
        reports.append(report)
        if options.json { FileHandle.standardOutput.write(Data((report.jsonLine + "\n").utf8)) }
    } catch {
        failures.append("\(name): \(error)")
        log("engine \(name) failed: \(error)")
    }
}
if !options.json {
    let header = "latencies in microseconds per execution, clock \(options.clock.rawValue), \(options.rounds) timed rounds, limit \(options.limit)\n"
    FileHandle.standardOutput.write(Data((header + TableReport.render(reports)).utf8))
}

if !failures.isEmpty { fail("failed engines: " + failures.joined(separator: "; "), code: 1) }
if let tolerance = options.agreementTolerance,
   let problem = AgreementCheck.disagreement(reports, tolerance: tolerance) {
    fail("agreement check failed: " + problem, code: 3)
}
