/// The command line of `searchlight-bench`, parsed into typed options with clear errors.
public struct BenchOptions: Sendable, Equatable {
    public var corpus: String = ""
    public var queries: String = ""
    public var engines: [String] = EngineRegistry.available
    public var limit = 20
    public var replicate = 1
    public var json = false
    /// Timed rounds over the whole workload after one warm-up round.
    public var rounds = 5
    /// The clock for per-query timings.
    public var clock = QueryClock.monotonic
    public var scenarios: [Scenario] = []
    /// Domain removed by the `delete-domain` scenario.
    public var domain = "debian.libs"
    /// Items reindexed by the `churn` scenario, in batches of `churnBatch`.
    public var churnItems = 10_000
    public var churnBatch = 1_000
    /// Rounds of the `reindex` scenario: each deletes every item and indexes the corpus again.
    public var reindexRounds = 10
    /// When set, exit non-zero if the engines' `term` hit sums differ by more than this fraction.
    public var agreementTolerance: Double?
    /// `--list-engines`: print the built-in engines (comma-separated) and exit.
    public var listEngines = false
    /// `--slowest N`: log each engine's N queries whose best timed run was slowest (for profiling the tail).
    public var slowest = 0

    public static let usage = """
        usage: searchlight-bench --corpus FILE|- --queries FILE [--engines \(EngineRegistry.available.joined(separator: ","))]
                                 [--limit N] [--replicate K] [--json] [--rounds R] [--clock monotonic|thread-cpu]
                                 [--scenario delete-domain,churn,reindex] [--domain NAME] [--churn-items N] [--churn-batch N]
                                 [--reindex-rounds N]
                                 [--check-agreement FRACTION] [--slowest N]
          --corpus FILE|-   JSON Lines items (a .gz path is read through gzip -dc; - is standard input)
          --queries FILE    lines kind<TAB>query: words required, trailing * a prefix, "w1 w2" a phrase
          --engines LIST    engines to run, one after another, in this order (default: all available)
          --limit N         top N hits per query by relevance (default 20)
          --replicate K     index the corpus K times with fresh identifiers (K=16: ~1M items)
          --json            one JSON line per engine instead of the table
          --rounds R        timed rounds over the workload after one warm-up round (default 5)
          --clock C         per-query clock: monotonic (wall, default) or thread-cpu (this thread's CPU time)
          --scenario LIST   extra scenarios after the query workload: delete-domain, churn, reindex
          --reindex-rounds N  reindex: delete every item and index the corpus again N times (default 10)
          --list-engines    print the engines built into this binary and exit
          --check-agreement F  fail (exit 3) if two engines' term-query hit sums differ by more than F (e.g. 0.25)
          --slowest N       log each engine's N queries whose best timed run was slowest, with kind and hits
        """

    public struct Failure: Error, CustomStringConvertible, Equatable {
        public var message: String
        public var description: String { message + "\n" + BenchOptions.usage }
        public init(message: String) { self.message = message }
    }

    public init() {}

    public static func parse(_ arguments: [String]) throws -> BenchOptions {
        var options = BenchOptions()
        var index = 0
        func value(_ flag: String) throws -> String {
            index += 1
            guard index < arguments.count else { throw Failure(message: "\(flag) needs a value") }
            return arguments[index]
        }
        func positive(_ flag: String) throws -> Int {
            let text = try value(flag)
            guard let number = Int(text), number > 0 else {
                throw Failure(message: "\(flag) needs a positive whole number, got \(text)")
            }
            return number
        }
        while index < arguments.count {
            let flag = arguments[index]
            switch flag {
            case "--corpus": options.corpus = try value(flag)
            case "--queries": options.queries = try value(flag)
            case "--engines":
                let names = try value(flag).split(separator: ",").map { String($0).trimmed }
                for name in names where !EngineRegistry.all.contains(name) {
                    throw Failure(message: "unknown engine \(name); known: \(EngineRegistry.all.joined(separator: ", "))")
                }
                for name in names where !EngineRegistry.available.contains(name) {
                    throw Failure(message: "engine \(name) is not built into this harness yet")
                }
                guard !names.isEmpty else { throw Failure(message: "--engines needs at least one engine") }
                options.engines = names
            case "--limit": options.limit = try positive(flag)
            case "--replicate": options.replicate = try positive(flag)
            case "--rounds": options.rounds = try positive(flag)
            case "--json": options.json = true
            case "--clock":
                let name = try value(flag)
                guard let clock = QueryClock(rawValue: name) else {
                    throw Failure(message: "unknown clock \(name); known: monotonic, thread-cpu")
                }
                options.clock = clock
            case "--scenario", "--scenarios":
                options.scenarios = try value(flag).split(separator: ",").map { name in
                    guard let scenario = Scenario(rawValue: String(name).trimmed) else {
                        throw Failure(message: "unknown scenario \(name); known: \(Scenario.allCases.map(\.rawValue).joined(separator: ", "))")
                    }
                    return scenario
                }
            case "--domain": options.domain = try value(flag)
            case "--churn-items": options.churnItems = try positive(flag)
            case "--churn-batch": options.churnBatch = try positive(flag)
            case "--reindex-rounds": options.reindexRounds = try positive(flag)
            case "--check-agreement":
                let text = try value(flag)
                guard let fraction = Double(text), fraction >= 0 else {
                    throw Failure(message: "--check-agreement needs a fraction such as 0.25, got \(text)")
                }
                options.agreementTolerance = fraction
            case "--slowest": options.slowest = try positive(flag)
            case "--list-engines": options.listEngines = true; return options
            case "-h", "--help": throw Failure(message: "")
            default: throw Failure(message: "unknown argument \(flag)")
            }
            index += 1
        }
        guard !options.corpus.isEmpty else { throw Failure(message: "--corpus is required") }
        guard !options.queries.isEmpty else { throw Failure(message: "--queries is required") }
        return options
    }
}

/// Workloads beyond the core build + query run.
public enum Scenario: String, CaseIterable, Sendable {
    /// Remove every item of one domain (`--domain`) and make it visible.
    case deleteDomain = "delete-domain"
    /// Reindex existing items in batches, then rerun the queries once.
    case churn
    /// Delete every item by identifier and index the corpus again, `--reindex-rounds` times, reading memory
    /// after each round: whether tombstones and merges keep memory bounded under churn (issue 3).
    case reindex
}

extension String {
    var trimmed: String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
