import Foundation
import SearchlightEngine
import SearchlightQueryLanguage
import Synchronization
import XCTest
@testable import Searchlight

/// A UTC Gregorian calendar, so `$time.*` resolves the same everywhere.
let utcCalendar: Calendar = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
    return calendar
}()

/// Iterates `sequence` in a task that is cancelled before it iterates (`early`) or once the first element has
/// come; returns how many elements came and the error the iteration ended with.
func iterateCancelled<S: AsyncSequence & Sendable>(_ sequence: S, early: Bool) async -> (count: Int, error: (any Error)?) {
    let started = AsyncStream<Void>.makeStream()
    let task = Task { () -> (Int, (any Error)?) in
        defer { started.continuation.finish() }
        if early { withUnsafeCurrentTask { $0?.cancel() } }
        var count = 0
        do {
            for try await _ in sequence {
                count += 1
                if count == 1 { started.continuation.yield() }
                try? await Task.sleep(nanoseconds: 1_000_000)
            }
        } catch {
            return (count, error)
        }
        return (count, nil)
    }
    for await _ in started.stream { break }
    task.cancel()
    return await task.value
}

/// A container holding `items` (indexed and committed), on `clock`.
func makeContainer(_ items: [CSSearchableItem], clock: TestClock = TestClock(),
                   file: StaticString = #filePath, line: UInt = #line) -> SearchlightContainer {
    let container = SearchlightContainer(clock: clock.function)
    let index = CSSearchableIndex(name: "query-tests", container: container)
    for chunk in stride(from: 0, to: items.count, by: 500) {
        let slice = Array(items[chunk..<min(chunk + 500, items.count)])
        let error = index.completion { index.indexSearchableItems(slice, completionHandler: $0) }
        XCTAssertNil(error, "indexing failed: \(String(describing: error))", file: file, line: line)
    }
    // Settled: a background merge published between a test's snapshot and a query's would move documents to
    // other addresses, and tied scores are ordered by address (EngagementRankingTests failed so, now and then).
    container.waitForBackgroundMerges()
    return container
}

/// Identifiers matching a query string through the indexed evaluator, sorted.
func evaluate(_ query: String, in container: SearchlightContainer) throws -> [String] {
    let snapshot = container.snapshot()
    var evaluator = QueryEvaluator(snapshot: snapshot, calendar: utcCalendar)
    let expression = try QueryEvaluator.parse(query)
    return evaluator.matches(expression).compactMap { snapshot.engine.id(of: $0) }.sorted()
}

/// A custom key (force-unwrap-free: tests use valid names).
func customKey(_ name: String) -> CSCustomAttributeKey {
    guard let key = CSCustomAttributeKey(keyName: name) else {
        XCTFail("bad key \(name)")
        return CSCustomAttributeKey(keyName: "invalid_key_fallback")!
    }
    return key
}

/// Runs a query to completion with handlers and returns the batches, the error and the final count.
func runQuery(_ query: CSSearchQuery, timeout: TimeInterval = 20) -> (batches: [[CSSearchableItem]], error: (any Error)?, completions: Int) {
    let box = Mutex<(batches: [[CSSearchableItem]], error: (any Error)?, completions: Int)>(([], nil, 0))
    let done = DispatchSemaphore(value: 0)
    query.foundItemsHandler = { items in box.withLock { $0.batches.append(items) } }
    query.completionHandler = { error in
        box.withLock {
            $0.error = error
            $0.completions += 1
        }
        done.signal()
    }
    query.start()
    _ = done.wait(timeout: .now() + timeout)
    // Give a wrongly repeated completion a chance to show up.
    Thread.sleep(forTimeInterval: 0.02)
    return box.withLock { $0 }
}

/// Titles in many scripts and Unicode forms (decomposed Hangul and kana, compatibility and variation-selected
/// ideographs, half-width kana, Arabic and Hebrew points, ß, İ, a ligature, a soft hyphen) among 300 fillers, so
/// the evaluator takes its postings path (a tiny index is scanned).
let scriptsContainer: SearchlightContainer = {
    var items = [
        // 한국어 문서, written as conjoining jamo (NFD: how macOS file names store Hangul).
        makeItem("hangulNFD", title: "\u{1112}\u{1161}\u{11AB}\u{1100}\u{116E}\u{11A8}\u{110B}\u{1165} 문서"),
        // がっこう with a combining voiced sound mark (NFD).
        makeItem("kanaNFD", title: "か\u{3099}っこう"),
        // U+F900 is a CJK compatibility ideograph; its canonical (NFC) form is U+8C48.
        makeItem("compatIdeograph", title: "\u{F900}子"),
        makeItem("halfwidth", title: "ｶﾀｶﾅ ﾃｽﾄ"),
        makeItem("arabic", title: "مُحَمَّد رسول"),
        makeItem("hebrew", title: "שָׁלוֹם עולם"),
        makeItem("sharp", title: "Große Straße"),
        makeItem("turkish", title: "İstanbul"),
        makeItem("ligature", title: "ﬁnal report"),
        // 葛 with an ideographic variation selector (U+E0100), as Japanese place and person names are written.
        makeItem("ivs", title: "葛\u{E0100}飾区"),
        makeItem("shy", title: "Wiki\u{00AD}pedia"),
        // كتاب stretched with tatweel (U+0640), as Arabic titles are justified or styled.
        makeItem("tatweel", title: "كتـــاب"),
        // ශ්‍රී (Sri) with the ZERO WIDTH JOINER that gives its conjunct the shape Sinhala writes it in.
        makeItem("zwj", title: "ශ්\u{200D}රී පාද"),
        // क्षमा with the ZERO WIDTH NON-JOINER after the virama that asks for a half form (not the ligature).
        makeItem("zwnj", title: "क्\u{200C}षमा याचना"),
        // Emoji: one beside a word, one with its variation selector, a zero-width joiner sequence, a flag.
        makeItem("emoji", title: "Fête🎉 ❤️ 👨\u{200D}👩\u{200D}👧 🇫🇷"),
    ]
    for n in 0..<300 { items.append(makeItem("filler\(n)", title: "filler item number \(n)", description: "beta gamma")) }
    return makeContainer(items)
}()
