/// The smoke check: two engines indexing the same items should return about as many hits for `term` queries.
///
/// Hits are capped by `--limit`, so for most terms both engines return the full page; differences come from
/// tokenization (e.g. how `c++` or `x86_64` split). A relative difference above the tolerance means one
/// engine is missing (or inventing) matches wholesale.
public enum AgreementCheck {
    /// nil when the engines agree within `tolerance` on `kind`, else a message saying how far apart they are.
    /// With two or more engines, a workload without `kind` queries, or `kind` queries no engine finds anything
    /// for, is a failure too: there is nothing to compare, and passing would hide it.
    public static func disagreement(_ reports: [EngineReport], kind: String = "term", tolerance: Double) -> String? {
        guard reports.count >= 2 else { return nil }
        let counted = reports.compactMap { report in report.stats(for: kind).map { (report.engine, $0.hits) } }
        guard counted.count == reports.count else {
            return "not every engine ran \(kind) queries (the workload needs some): nothing to compare"
        }
        let largest = counted.map(\.1).max() ?? 0
        let smallest = counted.map(\.1).min() ?? 0
        if largest == 0 { return "no engine found a single \(kind) hit: nothing to compare" }
        let difference = Double(largest - smallest) / Double(largest)
        if difference <= tolerance { return nil }
        let listing = counted.map { "\($0.0)=\($0.1)" }.joined(separator: ", ")
        return "engines disagree on \(kind) hits by \(formatNumber(difference * 100, digits: 1))% (\(listing)); tolerance \(formatNumber(tolerance * 100, digits: 1))%"
    }
}
