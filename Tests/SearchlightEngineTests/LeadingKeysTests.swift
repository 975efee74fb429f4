import XCTest
@testable import SearchlightEngine

/// `LeadingKeys` names every document whose value starts with a normalized text: its byte-by-byte ASCII path
/// must key a value as normalizing it whole does, and its candidates must hold every real match.
final class LeadingKeysTests: XCTestCase {
    static let samples = ["", " ", "a", "ab", "abc", "abcd", "abcde", "  Thunderbird Mail", "THUNDER", "thunder bird",
                          "a b c d e", "ab  \t cd", "\r\n x", "x\u{0B}y\u{0C}z", "Crème Brûlée", "École", "ß-tool",
                          "中文 输入法", "a\u{00A0}b", "ab\u{85}cd", "Ｆｕｌｌ", "x11-apps", "Report.Numbers", "\u{1F}ctl",
                          "ab c\u{301}", "abcd\u{301}", "abcdefgh", "abcdefghi", "abcdefg\u{301}h", "a b c d e f g h i", "ΆΈΉ", "a\u{3000}b"]

    func testKeyOfAValueIsTheKeyOfItsNormalizedForm() {
        var g = DifferentialTests.Generator(state: 99)
        let alphabet: [String] = ["a", "B", "z", " ", "  ", "\t", "\n", "é", "Ö", "ß", "中", "\u{301}", "\u{00A0}", "-", "1"]
        var values = Self.samples
        for _ in 0..<2_000 { values.append((0..<g.int(9)).map { _ in g.pick(alphabet) }.joined()) }
        for value in values {
            let normalized = Folding.foldCollapsingWhitespace(value)
            let actual = Array(value.utf8).withUnsafeBufferPointer { LeadingKeys.leadingKey($0) }
            XCTAssertEqual(actual.key, LeadingKeys.key(Array(normalized.utf8)), value.debugDescription)
            XCTAssertEqual(actual.scalars, normalized.unicodeScalars.count, value.debugDescription)
        }
    }

    func testCandidatesHoldEveryDocumentWhoseValueStartsWithTheText() throws {
        var g = DifferentialTests.Generator(state: 7)
        let writer = IndexWriter()
        let title = try writer.registerField("title", .text(weight: 3, primary: true))
        let words = ["thunder", "thunderbird", "Thunder Bird", "the", "ab", "abc", "École", "ecole", "中文", "x"]
        var values: [[String]] = []
        for i in 0..<400 {
            // One to three values per document, so a document can match through any of them.
            let own = (0..<(1 + g.int(3))).map { _ in (0..<(1 + g.int(3))).map { _ in g.pick(words) }.joined(separator: " ") }
            values.append(own)
            try writer.upsert(Document(id: "d\(i)", values: own.map { (title, .text($0)) }))
            if i % 150 == 149 { _ = try writer.commit() }
        }
        writer.delete(ids: ["d5"])
        let snapshot = try writer.commit()
        var prefixes = ["", "t", "th", "thu", "thun", "thunder", "thunder b", "thunderb", "ab", "abc", "abcd", "ecole",
                        "ecole t", "中", "中文", "x", "x ", "zzz"]
        for value in words { prefixes.append(Folding.foldCollapsingWhitespace(value)) }
        for prefix in prefixes {
            let named = try XCTUnwrap(snapshot.documents(title, mayStartWith: prefix, limit: 10_000))
            XCTAssertEqual(named, named.sorted(), prefix)
            XCTAssertEqual(Set(named).count, named.count, prefix)
            var expected = Set<DocAddress>()
            for address in named { XCTAssertTrue(snapshot.isLive(address)) }
            for (i, own) in values.enumerated() where i != 5 {
                guard own.contains(where: { Folding.foldCollapsingWhitespace($0).hasPrefix(prefix) }) else { continue }
                expected.insert(try XCTUnwrap(snapshot.lookup(id: "d\(i)")))
            }
            XCTAssertTrue(expected.isSubset(of: Set(named)), "\(prefix): missing \(expected.subtracting(named))")
            // Eight bytes decide: a prefix of eight bytes or more names only documents sharing them.
            if prefix.utf8.count >= 8 {
                for address in named {
                    let texts = snapshot.text(title, of: address).map { Array(Folding.foldCollapsingWhitespace($0).utf8.prefix(8)) }
                    XCTAssertTrue(texts.contains(Array(prefix.utf8.prefix(8))), "\(prefix): \(address) \(texts)")
                }
            }
        }
        XCTAssertNil(snapshot.documents(title, mayStartWith: "t", limit: 3))
        // Each document's head: its one value's key and normalized length, or several.
        let leading = snapshot.leadingKeys(title)
        for (i, own) in values.enumerated() where i != 5 {
            let address = try XCTUnwrap(snapshot.lookup(id: "d\(i)"))
            let head = leading[Int(address.segment)].head(of: Int(address.doc))
            guard own.count == 1 else {
                XCTAssertEqual(head, .several, "d\(i)")
                continue
            }
            let normalized = Folding.foldCollapsingWhitespace(own[0])
            XCTAssertEqual(head, .one(key: LeadingKeys.key(Array(normalized.utf8)), scalars: normalized.unicodeScalars.count),
                           "d\(i)")
        }
    }

    /// With one value per document, a prefix's live documents are counted before any is listed: past the limit
    /// it names none, at it every one (deleted documents not counted).
    func testLimitCountsLiveDocumentsOnce() throws {
        let writer = IndexWriter()
        let title = try writer.registerField("title", .text(weight: 3, primary: true))
        for i in 0..<30 {
            try writer.upsert(Document(id: "d\(i)", values: [(title, .text(i % 3 == 0 ? "Other \(i)" : "Lib \(i)"))]))
            if i % 10 == 9 { _ = try writer.commit() }
        }
        writer.delete(ids: ["d1", "d2"])
        let snapshot = try writer.commit()
        let expected = (0..<30).filter { $0 % 3 != 0 && $0 != 1 && $0 != 2 }.map { snapshot.lookup(id: "d\($0)") }
        XCTAssertEqual(expected.count, 18)
        XCTAssertEqual(snapshot.documents(title, mayStartWith: "l", limit: 18), expected.compactMap { $0 })
        XCTAssertNil(snapshot.documents(title, mayStartWith: "l", limit: 17))
        XCTAssertEqual(snapshot.documents(title, mayStartWith: "o", limit: 10)?.count, 10)
        XCTAssertNil(snapshot.documents(title, mayStartWith: "o", limit: 9))
    }
}
