/// The engines this harness knows, and how to run each one through the generic runner.
public enum EngineRegistry {
    /// Every engine name the harness accepts, in default run order.
    public static let all = ["searchlight", "fts5"]

    /// The engines built into this binary.
    public static let available: [String] = ["searchlight", "fts5"]

    /// Runs the named engine and returns its report.
    public static func run(
        _ name: String, runner: BenchRunner, items: [CorpusItem], queries: [BenchQuery]
    ) throws -> EngineReport {
        switch name {
        case SearchlightEngineAdapter.name:
            return try runner.run({ try SearchlightEngineAdapter() }, items: items, queries: queries)
        case FTS5Engine.name:
            return try runner.run({ try FTS5Engine() }, items: items, queries: queries)
        default:
            throw BenchOptions.Failure(message: "engine \(name) is not built into this harness")
        }
    }
}
