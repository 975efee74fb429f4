@testable import SearchlightEngine
import Synchronization
import XCTest

/// The near terms a vocabulary keeps (`NearTermsCache`): every answer is the fresh walk's, a word and budget
/// walked before is not walked again, the cache never passes its capacity, and concurrent readers agree.
final class NearTermsCacheTests: XCTestCase {
    typealias Generator = DifferentialTests.Generator

    /// A segment's vocabulary over two fields of random words (some sharing prefixes, some CJK and accented).
    private func vocabulary(seed: UInt64) throws -> SegmentVocabulary {
        let writer = IndexWriter()
        let title = try writer.registerField("title", .text(weight: 2, primary: true))
        let body = try writer.registerField("body", .text())
        var g = Generator(state: seed)
        let stems = ["wire", "shark", "net", "work", "pack", "et", "anal", "yzer", "café", "中文", "x11"]
        func word() -> String { (0..<(1 + g.int(3))).map { _ in g.pick(stems) }.joined() }
        for i in 0..<400 {
            try writer.upsert(Document(id: "d\(i)", values: [(title, .text(word())),
                                                             (body, .text((0..<6).map { _ in word() }.joined(separator: " ")))]))
        }
        let snapshot = try writer.commit()
        return snapshot.segments[0].vocabulary(for: snapshot.schema.defaultFieldNumbers)
    }

    func testCachedNearTermsAreTheWalks() throws {
        let vocabulary = try vocabulary(seed: 5)
        XCTAssertEqual(vocabulary.nearTermsCache.count, 0)
        var g = Generator(state: 8)
        var asked = Set<NearTermsCache.Key>()
        var found = 0
        for _ in 0..<300 {
            // A term of the vocabulary with a letter changed, dropped or doubled, or left as it is.
            var word = vocabulary.withTerm(g.int(vocabulary.count)) { Array($0) }
            let at = g.int(word.count)
            switch g.int(4) {
            case 0: word[at] = UInt8(ascii: "a") + UInt8(g.int(26))
            case 1: word.remove(at: at)
            case 2: word.insert(word[at], at: at)
            default: break
            }
            let maxEdits = g.int(3)
            let walked = vocabulary.fuzzy(word, maxEdits: maxEdits)
            XCTAssertEqual(vocabulary.nearTerms(word, maxEdits: maxEdits), walked, "\(word) \(maxEdits)")
            XCTAssertEqual(vocabulary.nearTerms(word, maxEdits: maxEdits), walked, "read again: \(word) \(maxEdits)")
            asked.insert(NearTermsCache.Key(word: word, maxEdits: maxEdits))
            found += walked.count
        }
        XCTAssertGreaterThan(found, 300, "the words were too far from the vocabulary to test anything")
        XCTAssertEqual(vocabulary.nearTermsCache.count, asked.count)
        XCTAssertGreaterThan(vocabulary.nearTermsCache.memoryBytes, asked.count * 64)
    }

    func testAWordIsWalkedOnceAndTheCacheStaysBounded() {
        let cache = NearTermsCache()
        let walks = Mutex(0)
        func near(_ word: String, _ maxEdits: Int) -> [Int] {
            cache.near(Array(word.utf8), maxEdits: maxEdits) {
                walks.withLock { $0 += 1 }
                return [word.utf8.count, maxEdits]
            }
        }
        XCTAssertEqual(near("wiresh", 1), [6, 1])
        XCTAssertEqual(near("wiresh", 1), [6, 1])
        XCTAssertEqual(walks.withLock { $0 }, 1, "walked again")
        XCTAssertEqual(near("wiresh", 2), [6, 2], "another budget is another walk")
        XCTAssertEqual(walks.withLock { $0 }, 2)
        XCTAssertEqual(cache.near(Array("wiresh".utf8), maxEdits: 1, prefix: true) { [7] }, [7], "near prefixes: another walk")
        XCTAssertEqual(cache.near(Array("wiresh".utf8), maxEdits: 1, prefix: true) { [8] }, [7])
        XCTAssertEqual(near("wiresh", 1), [6, 1])
        for i in 0..<(NearTermsCache.capacity + 10) {
            XCTAssertEqual(near("w\(i)", 1), ["w\(i)".utf8.count, 1])
            XCTAssertLessThanOrEqual(cache.count, NearTermsCache.capacity)
        }
        XCTAssertEqual(near("wiresh", 1), [6, 1], "forgotten when the cache was emptied, walked again")
    }

    func testConcurrentReadersAgree() throws {
        let vocabulary = try vocabulary(seed: 9)
        let words: [[UInt8]] = ["wireshrak", "netwrok", "packet", "cafe", "中文", "x1", "anlyzer"].map { Array($0.utf8) }
        let expected = words.map { vocabulary.fuzzy($0, maxEdits: 2) }
        let answers = Mutex<[[[Int]]]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let mine = words.map { vocabulary.nearTerms($0, maxEdits: 2) }
            answers.withLock { $0.append(mine) }
        }
        XCTAssertTrue(expected.contains { !$0.isEmpty })
        XCTAssertTrue(answers.withLock { $0 } == Array(repeating: expected, count: 8))
    }
}
