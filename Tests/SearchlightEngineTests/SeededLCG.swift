/// A seeded linear congruential generator (Knuth's MMIX constants) for tests that replay exactly: `below(n)` draws
/// from the high bits. The engine tests' older suites keep their own inline copies of the same recurrence.
struct SeededLCG {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    /// A value in `0..<bound`.
    mutating func below(_ bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(bound))
    }
}
