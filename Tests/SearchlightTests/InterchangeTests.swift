import Foundation
import XCTest
@testable import Searchlight

final class InterchangeTests: XCTestCase {
    private var temporaryFiles: [URL] = []

    override func tearDown() {
        for url in temporaryFiles { try? FileManager.default.removeItem(at: url) }
        super.tearDown()
    }

    private func temporaryFile(_ contents: String) -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("searchlight-\(UUID().uuidString).jsonl")
        _ = FileManager.default.createFile(atPath: url.path, contents: Data(contents.utf8))
        temporaryFiles.append(url)
        return url
    }

    private let corpusLine = #"{"uniqueIdentifier": "deb:0ad", "domainIdentifier": "debian.games", "attributeSet": {"contentType": "public.text", "title": "0ad", "displayName": "Real-time strategy game of ancient warfare", "contentDescription": "0 A.D. (pronounced \"zero ey-dee\") is a free, open-source ...", "keywords": ["strategy", "graphical", "x11"], "contentURL": "https://play0ad.com/", "customAttributes": {"version": "0.0.26-3", "installedSize": 28591, "priority": "optional", "section": "games"}}}"#

    func testCorpusShapeDecodes() throws {
        let item = try ItemJSON.decodeItem(from: Data(corpusLine.utf8))
        XCTAssertEqual(item.uniqueIdentifier, "deb:0ad")
        XCTAssertEqual(item.domainIdentifier, "debian.games")
        XCTAssertFalse(item.isUpdate)
        XCTAssertNil(item.explicitExpirationDate)
        let set = item.attributeSet
        XCTAssertEqual(set.title, "0ad")
        XCTAssertEqual(set.contentDescription, "0 A.D. (pronounced \"zero ey-dee\") is a free, open-source ...")
        XCTAssertEqual(set.keywords, ["strategy", "graphical", "x11"])
        XCTAssertEqual(set.contentURL, URL(string: "https://play0ad.com/"))
        XCTAssertEqual(set.contentTypeTree, ["public.text", "public.data", "public.content", "public.item"])
        XCTAssertEqual(set.value(forAttribute: "installedSize"), .number(.int(28591)))
        XCTAssertEqual(set.value(forAttribute: "section"), .string("games"))
        // Written back: same JSON object (member order aside), no derived contentTypeTree.
        let written = try ItemJSON.encode(item)
        let original = try JSONSerialization.jsonObject(with: Data(corpusLine.utf8)) as? NSDictionary
        let rewritten = try JSONSerialization.jsonObject(with: written) as? NSDictionary
        XCTAssertEqual(original, rewritten)
    }

    func testItemLevelMembersRoundTrip() throws {
        let set = CSSearchableItemAttributeSet(itemContentType: "public.message")
        set.title = nil
        set.textContent = "line one\nline \"two\"\t\u{1}✓ 😀"
        let item = CSSearchableItem(uniqueIdentifier: "m-1", domainIdentifier: "acct.inbox", attributeSet: set)
        item.isUpdate = true
        item.expirationDate = Date(timeIntervalSinceReferenceDate: 812_000_000.75)
        item.updateListenerOptions = [.summarization]
        let back = try roundTrip(item)
        XCTAssertEqual(back.uniqueIdentifier, "m-1")
        XCTAssertEqual(back.domainIdentifier, "acct.inbox")
        XCTAssertTrue(back.isUpdate)
        XCTAssertEqual(back.explicitExpirationDate, item.explicitExpirationDate)
        XCTAssertEqual(back.updateListenerOptions, .summarization)
        XCTAssertEqual(back.attributeSet.slot(forAttribute: "title"), .cleared)
        XCTAssertEqual(back.attributeSet.textContent, set.textContent)
        XCTAssertEqual(back.attributeSet.snapshot, set.snapshot)
    }

    func testUpdateListenerOptionsWithTheHighBitRoundTripLikeTheArchive() throws {
        // Any raw value is settable; the archive keeps all 64 bits, so the JSON must too (it trapped on writing).
        let item = CSSearchableItem(uniqueIdentifier: "o", domainIdentifier: nil, attributeSet: CSSearchableItemAttributeSet())
        item.updateListenerOptions = .init(rawValue: UInt.max)
        let back = try roundTrip(item)
        XCTAssertEqual(back.updateListenerOptions.rawValue, UInt.max)
        item.updateListenerOptions = .init(rawValue: 1 << 63 | 2)
        XCTAssertEqual(try roundTrip(item).updateListenerOptions.rawValue, 1 << 63 | 2)
    }

    func testArraysNestedPastTheKeptDepthImportLikeTheAPIBuildsThem() throws {
        // Read from JSON, arrays past the kept depth stop at the API's placeholder, so the item archives and
        // unarchives (it failed to unarchive) and validation still refuses it.
        let deep = String(repeating: "[1,", count: 60) + "2" + String(repeating: "]", count: 60)
        let item = try ItemJSON.decodeItem(from: Data(#"{"uniqueIdentifier":"d","attributeSet":{"customAttributes":{"k":\#(deep)}}}"#.utf8))
        XCTAssertEqual(item.validationProblems().first?.message, "item 'd': custom attribute 'k' nests arrays more than 31 deep; at most 31 are kept")
        let data = try NSKeyedArchiver.archivedData(withRootObject: item, requiringSecureCoding: true)
        let back = try XCTUnwrap(NSKeyedUnarchiver.unarchivedObject(ofClass: CSSearchableItem.self, from: data))
        XCTAssertEqual(back.attributeSet.snapshot, item.attributeSet.snapshot)
        var nested: Any = 2
        for _ in 0..<60 { nested = [1, nested] }
        let built = CSSearchableItemAttributeSet()
        built.setValue(nested, forCustomKey: CSCustomAttributeKey(keyName: "k")!)
        XCTAssertEqual(item.attributeSet.snapshot, built.snapshot)
    }

    func testClearedAttributesAreJSONNull() throws {
        let set = CSSearchableItemAttributeSet()
        set.keywords = nil
        set.setValue(nil, forCustomKey: CSCustomAttributeKey(keyName: "gone")!)
        let json = String(decoding: try ItemJSON.encode(set), as: UTF8.self)
        XCTAssertEqual(json, #"{"keywords":null,"customAttributes":{"gone":null}}"#)
        let update = try ItemJSON.decodeItem(from: Data(#"{"uniqueIdentifier":"1","isUpdate":true,"attributeSet":{"title":null,"rating":4}}"#.utf8))
        XCTAssertEqual(update.attributeSet.slot(forAttribute: "title"), .cleared)
        XCTAssertEqual(update.attributeSet.rating, 4)
    }

    func testNumbersKeepTheirKind() throws {
        let set = CSSearchableItemAttributeSet()
        set.rating = 4
        set.latitude = 37.0
        set.allDay = true
        set.pageCount = NSNumber(value: Int64.max)
        let json = String(decoding: try ItemJSON.encode(set), as: UTF8.self)
        XCTAssertTrue(json.contains(#""rating":4,"#), json)
        XCTAssertTrue(json.contains(#""latitude":37.0"#), json)
        XCTAssertTrue(json.contains(#""allDay":true"#), json)
        let back = try ItemJSON.decodeAttributeSet(from: Data(json.utf8))
        XCTAssertEqual(back.snapshot, set.snapshot)
        // Non-finite numbers cannot be written.
        set.latitude = NSNumber(value: Double.nan)
        let error = interchangeError { _ = try ItemJSON.encode(set) }
        XCTAssertEqual(error?.message, "attributeSet.latitude: cannot write the non-finite number nan")
    }

    func testISO8601Dates() {
        let cases = ["2026-11-21T23:05:57Z", "2001-01-01T00:00:00Z", "1969-07-20T20:17:40Z", "2024-02-29T12:00:00.5Z",
                     "2026-11-21T23:05:57.25Z", "2026-11-21T23:05:57.001Z"]
        for text in cases {
            guard let date = ISO8601DateCoding.date(from: text) else { XCTFail(text); continue }
            XCTAssertEqual(ISO8601DateCoding.string(from: date), text)
        }
        XCTAssertEqual(ISO8601DateCoding.date(from: "2001-01-01T01:00:00+01:00"), Date(timeIntervalSinceReferenceDate: 0))
        XCTAssertEqual(ISO8601DateCoding.date(from: "2000-12-31T19:00:00-05:00"), Date(timeIntervalSinceReferenceDate: 0))
        for bad in ["2026-11-21", "2026-13-01T00:00:00Z", "2026-11-21T23:05:57", "yesterday", "2026-11-21T23:05:57Zjunk", ""] {
            XCTAssertNil(ISO8601DateCoding.date(from: bad), bad)
        }
        // Nanosecond digits beyond a Double's precision read to the nearest date, which then writes shorter.
        let precise = ISO8601DateCoding.date(from: "2026-11-21T23:05:57.123456789Z")!
        XCTAssertEqual(precise.timeIntervalSince(ISO8601DateCoding.date(from: "2026-11-21T23:05:57Z")!), 0.123456789, accuracy: 1e-6)
        XCTAssertEqual(ISO8601DateCoding.string(from: precise).flatMap(ISO8601DateCoding.date(from:)), precise)
        // Arbitrary modern dates round-trip exactly.
        for seconds in stride(from: 600_000_000.0, to: 900_000_000.0, by: 12_345_678.901_234) {
            let date = Date(timeIntervalSinceReferenceDate: seconds)
            XCTAssertEqual(ISO8601DateCoding.string(from: date).flatMap(ISO8601DateCoding.date(from:)), date)
        }
    }

    /// Dates before year 0 or after 9999 are written in ISO 8601's expanded form (a sign, then at least four
    /// digits of year) and read back exactly; impossible calendar days are refused, not moved to the next month;
    /// a date no text holds (non-finite, or millions of years away) is an error naming it, never a stand-in.
    func testDatesOutsideFourDigitYearsAndImpossibleDays() throws {
        for t in [5e11, 3.2e11, -1e11, -6.4e10, -63_114_076_800, -63_082_540_800.5, 252_423_993_600] {
            let date = Date(timeIntervalSinceReferenceDate: t)
            let text = try XCTUnwrap(ISO8601DateCoding.string(from: date), "\(t)")
            XCTAssertEqual(ISO8601DateCoding.date(from: text), date, text)
            let set = CSSearchableItemAttributeSet()
            set.dueDate = date
            XCTAssertEqual(try ItemJSON.decodeAttributeSet(from: ItemJSON.encode(set)).dueDate, date, text)
        }
        XCTAssertEqual(ISO8601DateCoding.string(from: Date(timeIntervalSinceReferenceDate: 5e11)), "+17845-05-16T00:53:20Z")
        XCTAssertEqual(ISO8601DateCoding.string(from: Date(timeIntervalSinceReferenceDate: -1e11)), "-1168-02-16T14:13:20Z")
        XCTAssertEqual(ISO8601DateCoding.date(from: "0000-03-01T00:00:00Z"),
                       ISO8601DateCoding.date(from: "-0001-12-31T00:00:00Z").map { $0.addingTimeInterval(61 * 86_400) })
        for bad in ["2026-02-31T00:00:00Z", "2026-04-31T00:00:00Z", "2025-02-29T00:00:00Z", "1900-02-29T00:00:00Z",
                    "+2026-01-01T00:00:00Z", "+026-01-01T00:00:00Z", "-12-01-01T00:00:00Z", "+-2026-01-01T00:00:00Z"] {
            XCTAssertNil(ISO8601DateCoding.date(from: bad), bad)
        }
        XCTAssertNotNil(ISO8601DateCoding.date(from: "2000-02-29T00:00:00Z"))
        XCTAssertThrowsError(try ItemJSON.decodeItem(from: Data(#"{"uniqueIdentifier":"1","attributeSet":{"dueDate":"2026-02-31T00:00:00Z"}}"#.utf8)))
        for t in [Double.nan, .infinity, -.infinity, 1e15] {
            XCTAssertNil(ISO8601DateCoding.string(from: Date(timeIntervalSinceReferenceDate: t)), "\(t)")
            let set = CSSearchableItemAttributeSet()
            set.endDate = Date(timeIntervalSinceReferenceDate: t)
            let error = interchangeError { _ = try ItemJSON.encode(set) }
            XCTAssertTrue(error?.message.hasPrefix("attributeSet.endDate: cannot write the date") == true, "\(String(describing: error))")
        }
        // Indexing refuses a date that is not a time at all.
        let item = CSSearchableItem(uniqueIdentifier: "nan", domainIdentifier: nil, attributeSet: CSSearchableItemAttributeSet())
        item.attributeSet.dueDate = Date(timeIntervalSinceReferenceDate: .nan)
        XCTAssertTrue(item.validationProblems().contains { $0.message.contains("'dueDate'") && $0.message.contains("date") },
                      "\(item.validationProblems())")
    }

    func testDecodingErrorsNameThePath() {
        let cases: [(String, String)] = [
            (#"{"attributeSet":{}}"#, "uniqueIdentifier: missing"),
            (#"{"uniqueIdentifier":1}"#, "uniqueIdentifier: expected a string but found a number"),
            (#"{"uniqueIdentifier":"1","bogus":1}"#, "bogus: unknown item member"),
            (#"{"uniqueIdentifier":"1","attributeSet":{"titel":"x"}}"#, "attributeSet.titel: unknown attribute (not a CSSearchableItemAttributeSet property)"),
            (#"{"uniqueIdentifier":"1","attributeSet":{"keywords":["a",2]}}"#, "attributeSet.keywords[1]: expected a string but found a number"),
            (#"{"uniqueIdentifier":"1","attributeSet":{"rating":"5"}}"#, "attributeSet.rating: expected a number but found a string"),
            (#"{"uniqueIdentifier":"1","attributeSet":{"dueDate":"tomorrow"}}"#, #"attributeSet.dueDate: expected an ISO 8601 date-time like 2026-11-21T23:05:57Z but found "tomorrow""#),
            (#"{"uniqueIdentifier":"1","attributeSet":{"thumbnailData":"***"}}"#, "attributeSet.thumbnailData: expected base64 data"),
            (#"{"uniqueIdentifier":"1","attributeSet":{"customAttributes":{"bad key":1}}}"#, "attributeSet.customAttributes.bad key: custom attribute key name 'bad key' may contain only ASCII letters, digits and '_'"),
            (#"{"uniqueIdentifier":"1","attributeSet":{"customAttributes":{"k":{"what":1}}}}"#, #"attributeSet.customAttributes.k: expected a string, number, boolean, array, person object or {"$date"|"$data"|"$url"|"$null": …}"#),
            (#"{"uniqueIdentifier":"1","isUpdate":"yes"}"#, "isUpdate: expected true or false"),
            (#"[1]"#, "item: expected an object but found an array"),
        ]
        for (json, message) in cases {
            let error = interchangeError { _ = try ItemJSON.decodeItem(from: Data(json.utf8)) }
            XCTAssertEqual(error?.message, message, json)
        }
    }

    /// A repeated member replaced the earlier one without a word (a second `customAttributes` dropped the first's
    /// values); it is an error naming the member, on its line and column, at any depth and in large objects.
    func testDuplicateMembersAreErrorsNamingTheMemberAndLine() throws {
        let cases: [(String, Int, String)] = [
            (#"{"uniqueIdentifier":"a","uniqueIdentifier":"b"}"#, 25, "uniqueIdentifier"),
            (#"{"uniqueIdentifier":"a","attributeSet":{"customAttributes":{"x":1},"customAttributes":{"y":2}}}"#, 68, "customAttributes"),
            (#"{"uniqueIdentifier":"a","attributeSet":{"emailHeaders":{"caf\u00e9":["1"],"cafe\u0301":["2"]}}}"#, 75, "café"),
            ("{" + (0..<40).map { #""k\#($0)":1,"# }.joined() + #""k7":2}"#, 312, "k7"),
        ]
        for (json, column, name) in cases {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("searchlight-\(UUID().uuidString).jsonl")
            _ = FileManager.default.createFile(atPath: url.path, contents: Data(("{\"uniqueIdentifier\":\"ok\"}\n" + json + "\n").utf8))
            temporaryFiles.append(url)
            let reader = try JSONLinesReader(contentsOf: url)
            XCTAssertNotNil(try reader.next())
            let error = interchangeError { _ = try reader.next() }
            XCTAssertEqual(error?.line, 2, json)
            XCTAssertEqual(error?.column, column, json)
            XCTAssertEqual(error?.message, "duplicate member \"\(name)\" in object", json)
        }
        // Distinct members, many of them, still read.
        let wide = "{" + (0..<40).map { #""k\#($0)":1"# }.joined(separator: ",") + "}"
        XCTAssertNoThrow(try JSONParser.parse(Array(wide.utf8)))
        // Web pages' JSON-LD is read as browsers read it: repeated members kept.
        XCTAssertNoThrow(try JSONParser.parse(Array(#"{"a":1,"a":2}"#.utf8), allowsDuplicateMembers: true))
    }

    /// A tagged custom value (`{"$date": …}` and the like) read its tag and dropped every other member without a
    /// word (a second tag, a person's fields); such an object is now an error naming where it is.
    func testTaggedValuesWithOtherMembersAreErrors() {
        let cases: [(String, String)] = [
            (#"{"customAttributes":{"x":{"$date":"2020-01-01T00:00:00Z","junk":1}}}"#, "attributeSet.customAttributes.x"),
            (#"{"customAttributes":{"x":{"$data":"AA==","$url":"https://a"}}}"#, "attributeSet.customAttributes.x"),
            (#"{"customAttributes":{"x":[{"handleIdentifier":"h","$null":true}]}}"#, "attributeSet.customAttributes.x[0]"),
            (#"{"emailHeaders":{"To":[{"$url":"mailto:a","$null":true}]}}"#, "attributeSet.emailHeaders.To[0]"),
        ]
        for (json, path) in cases {
            let error = interchangeError { _ = try ItemJSON.decodeAttributeSet(from: Data(json.utf8)) }
            XCTAssertEqual(error?.message, "\(path): a tagged value ({\"$date\"|\"$data\"|\"$url\"|\"$null\": …}) has no other members", json)
        }
        // One tag alone still reads.
        XCTAssertNoThrow(try ItemJSON.decodeAttributeSet(from: Data(#"{"customAttributes":{"x":{"$null":true},"y":{"$url":"https://a"}}}"#.utf8)))
    }

    /// Flags in `customAttributeKeys` for a name `customAttributes` does not hold were dropped without a word; an
    /// error names the key now (a cleared attribute is written `null`, so its flags still have a value to go with).
    func testCustomKeyFlagsWithoutAValueAreErrors() throws {
        let json = #"{"customAttributes":{"a":1},"customAttributeKeys":{"a":{"unique":true},"b":{"unique":true}}}"#
        let error = interchangeError { _ = try ItemJSON.decodeAttributeSet(from: Data(json.utf8)) }
        XCTAssertEqual(error?.message, "attributeSet.customAttributeKeys.b: no attribute 'b' in customAttributes (a cleared one is null there)")
        let cleared = try ItemJSON.decodeAttributeSet(from: Data(#"{"customAttributes":{"b":null},"customAttributeKeys":{"b":{"unique":true}}}"#.utf8))
        XCTAssertEqual(cleared.snapshot.custom["b"]?.key.isUnique, true)
    }

    /// A declared type's `contentTypeTree` was left out as derived, so a reader without that declaration (another
    /// process: `searchlight index`) derived a shorter tree and the item came back changed. Only a system type's
    /// tree, the same in every process, is left out now.
    func testContentTypeTreeOfADeclaredTypeIsWritten() throws {
        let type = "com.example.interchange-tree-\(UUID().uuidString)"
        ContentTypeTree.register(type, conformingTo: ["public.plain-text"])
        let set = CSSearchableItemAttributeSet(itemContentType: type)
        let tree = try XCTUnwrap(set.contentTypeTree)
        XCTAssertTrue(tree.contains("public.text"), "\(tree)")
        let json = try ItemJSON.encode(set)
        ContentTypeTree.register(type, conformingTo: [])  // as a reader that never declared it
        XCTAssertEqual(try ItemJSON.decodeAttributeSet(from: json).contentTypeTree, tree)
        // A system type's tree is still derived, not written.
        let text = String(decoding: try ItemJSON.encode(CSSearchableItemAttributeSet(itemContentType: "public.text")), as: UTF8.self)
        XCTAssertEqual(text, #"{"contentType":"public.text"}"#)
    }

    /// Near 2001 a `Date` holds finer than nanoseconds, but the text stopped at nine fraction digits, so such a
    /// date came back changed (0.123456789123 s as 0.123456789); more digits are written when the date needs them.
    func testDatesFinerThanNanosecondsRoundTrip() throws {
        for t in [0.123456789123, 1e-10, 5_000_000.000_000_000_5, 0.5, 812_000_000.000_000_1, 3.9999999999, -0.25, -5.123456789123] {
            let date = Date(timeIntervalSinceReferenceDate: t)
            let text = try XCTUnwrap(ISO8601DateCoding.string(from: date))
            XCTAssertEqual(ISO8601DateCoding.date(from: text)?.timeIntervalSinceReferenceDate, t, text)
        }
        XCTAssertEqual(ISO8601DateCoding.string(from: Date(timeIntervalSinceReferenceDate: 0.5)), "2001-01-01T00:00:00.5Z")
    }

    /// Within half a second before 2001, -1 + fraction rounds away bits the date has: those must still round-trip.
    func testDatesJustBeforeTheReferenceDateRoundTrip() throws {
        for t in [-0.1, -0.3, -0.123456789, -1e-10, -0.4999999999, -0.75, -0.9999999999999] {
            let date = Date(timeIntervalSinceReferenceDate: t)
            let text = try XCTUnwrap(ISO8601DateCoding.string(from: date))
            XCTAssertEqual(ISO8601DateCoding.date(from: text)?.timeIntervalSinceReferenceDate, t, text)
        }
        XCTAssertEqual(ISO8601DateCoding.string(from: Date(timeIntervalSinceReferenceDate: -0.1)), "2000-12-31T23:59:59.9Z")
        XCTAssertEqual(ISO8601DateCoding.date(from: "2000-12-31T23:59:59.9Z")?.timeIntervalSinceReferenceDate, -0.1)
        XCTAssertEqual(ISO8601DateCoding.date(from: "2001-01-01T00:59:59.7+01:00")?.timeIntervalSinceReferenceDate, -0.3)
        var random = SeededGenerator(seed: 2001)
        for _ in 0..<2000 {
            let t = Double.random(in: -3...2, using: &random)
            let text = try XCTUnwrap(ISO8601DateCoding.string(from: Date(timeIntervalSinceReferenceDate: t)))
            XCTAssertEqual(ISO8601DateCoding.date(from: text)?.timeIntervalSinceReferenceDate, t, text)
        }
    }

    func testStrictParserErrorsHavePositions() {
        let cases: [(String, Int, Int, String)] = [
            ("{\"a\":1,}", 1, 8, "expected a string key in object but found '}'"),
            ("{\"a\" 1}", 1, 6, "expected ':' after object key \"a\" but found '1'"),
            ("[1 2]", 1, 4, "expected ',' or ']' in array but found '2'"),
            ("{\"a\":tru}", 1, 6, "invalid literal (expected 'true')"),
            ("{\"a\":01}", 1, 6, "invalid number: leading zeros are not allowed"),
            ("{\"a\":NaN}", 1, 6, "expected a JSON value but found 'N'"),
            ("{\"a\":\"x\ny\"}", 1, 8, "control character 0xa inside a string must be escaped"),
            ("{\"a\":\"\\q\"}", 1, 7, "invalid escape '\\q' in string"),
            ("{\"a\":\"\\ud800\"}", 1, 13, "unpaired UTF-16 high surrogate in \\u escape"),
            ("{\"a\":1} x", 1, 9, "unexpected data after the JSON value"),
            ("{\n  \"a\": [1,\n  ]\n}", 3, 3, "expected a JSON value but found ']'"),
            ("\"abc", 1, 1, "unterminated string"),
            ("", 1, 1, "expected a JSON value but found end of input"),
            ("1e999", 1, 1, "number 1e999 is out of range"),
        ]
        for (json, line, column, message) in cases {
            let error = interchangeError { _ = try JSONParser.parse(Array(json.utf8)) }
            XCTAssertEqual(error?.message, message, json)
            XCTAssertEqual(error?.line, line, json)
            XCTAssertEqual(error?.column, column, json)
        }
        let invalidUTF8: [UInt8] = [0x22, 0xC3, 0x28, 0x22]
        XCTAssertEqual(interchangeError { _ = try JSONParser.parse(invalidUTF8) }?.message, "invalid UTF-8 in string")
        let deep = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        XCTAssertEqual(interchangeError { _ = try JSONParser.parse(Array(deep.utf8)) }?.message, "nesting deeper than 64 levels")
    }

    /// Invalid UTF-8 is located at its first bad byte, not at the start of the string holding it.
    func testInvalidUTF8IsLocatedAtTheBadByte() throws {
        let cases: [([UInt8], Int, Int)] = [
            (Array(#"{"uniqueIdentifier":"abcdef"#.utf8) + [0xFF] + Array(#""}"#.utf8), 1, 28),
            (Array("{\"a\":1,\r\n \"b\":\"é\\n".utf8) + [0xC3, 0x28] + Array("\"}".utf8), 2, 11),
            (Array(#"{"a":"\u00e9 x"#.utf8) + [0xED, 0xA0, 0x80] + Array(#""}"#.utf8), 1, 15),
        ]
        for (bytes, line, column) in cases {
            let error = interchangeError { _ = try JSONParser.parse(bytes) }
            XCTAssertEqual(error?.message, "invalid UTF-8 in string")
            XCTAssertEqual(error?.line, line)
            XCTAssertEqual(error?.column, column)
        }
        let url = temporaryFile("{\"uniqueIdentifier\":\"1\"}\n")
        let handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        try handle.write(contentsOf: Array(#"{"uniqueIdentifier":"2","attributeSet":{"title":"ok "#.utf8) + [0xE2, 0x82] + Array(#""}}"#.utf8))
        try handle.close()
        let (items, errors) = try JSONLinesReader(contentsOf: url).readAll(policy: .collectErrors)
        XCTAssertEqual(items.map(\.uniqueIdentifier), ["1"])
        XCTAssertEqual(errors.map(\.description), ["line 2, column 53: invalid UTF-8 in string"])
    }

    func testParserValues() throws {
        let json = #"{"s":"a\u00e9\ud83d\ude00\/\"","i":-9223372036854775808,"big":18446744073709551616,"d":-1.5e3,"t":true,"f":false,"n":null,"e":[],"o":{}}"#
        let value = try JSONParser.parse(Array(json.utf8))
        XCTAssertEqual(value["s"], .string("aé😀/\""))
        XCTAssertEqual(value["i"], .int(Int64.min))
        XCTAssertEqual(value["big"], .double(18446744073709551616))
        XCTAssertEqual(value["d"], .double(-1500))
        XCTAssertEqual(value["t"], .bool(true))
        XCTAssertEqual(value["n"], .null)
        XCTAssertEqual(value["e"], .array([]))
        XCTAssertEqual(value["o"], .object([]))
        var out: [UInt8] = []
        try JSONSerializer.write(value, to: &out)
        XCTAssertEqual(try JSONParser.parse(out), value)
    }

    // MARK: JSON Lines

    func testReaderStreamsGoodInput() throws {
        let text = "\u{FEFF}" + corpusLine + "\r\n\n   \n" + #"{"uniqueIdentifier":"2"}"# + "\n" + #"{"uniqueIdentifier":"3"}"#
        let url = temporaryFile(text)
        // A tiny chunk size forces lines to span many reads.
        let reader = try JSONLinesReader(contentsOf: url, chunkSize: 7)
        var seen: [(String, Int)] = []
        let errors = try reader.forEach { item, line in seen.append((item.uniqueIdentifier, line)) }
        XCTAssertTrue(errors.isEmpty)
        XCTAssertEqual(seen.map(\.0), ["deb:0ad", "2", "3"])
        XCTAssertEqual(seen.map(\.1), [1, 4, 5])
        XCTAssertNil(try reader.next())
    }

    /// A line of JSON whitespace only is blank, carriage returns included (a "\r\r\n" ending, a stray "\r").
    func testLinesOfWhitespaceWithCarriageReturnsAreBlank() throws {
        let text = #"{"uniqueIdentifier":"1"}"# + "\r\r\n \r \n\t\r\n\r" + "\n" + #"{"uniqueIdentifier":"2"}"# + "\n\r"
        let (items, errors) = try JSONLinesReader(contentsOf: temporaryFile(text), chunkSize: 5).readAll(policy: .collectErrors)
        XCTAssertEqual(errors, [])
        XCTAssertEqual(items.map(\.uniqueIdentifier), ["1", "2"])
    }

    func testReaderBadLinesStopOrKeepGoing() throws {
        let text = [#"{"uniqueIdentifier":"1"}"#, #"{"uniqueIdentifier":"2",}"#, #"{"uniqueIdentifier":"3"}"#,
                    #"{"uniqueIdentifier":"4","attributeSet":{"nope":1}}"#, #"{"uniqueIdentifier":"5"}"#].joined(separator: "\n")
        let url = temporaryFile(text)

        let stopping = try JSONLinesReader(contentsOf: url, chunkSize: 16)
        do {
            _ = try stopping.readAll(policy: .stopOnFirstError)
            XCTFail("must stop at line 2")
        } catch {
            XCTAssertEqual(error.line, 2)
            XCTAssertEqual(error.column, 25)
            XCTAssertEqual(error.description, "line 2, column 25: expected a string key in object but found '}'")
        }
        // The reader is positioned after the bad line: the caller may continue.
        XCTAssertEqual(try stopping.next()?.uniqueIdentifier, "3")

        let (items, errors) = try JSONLinesReader(contentsOf: url).readAll(policy: .collectErrors)
        XCTAssertEqual(items.map(\.uniqueIdentifier), ["1", "3", "5"])
        XCTAssertEqual(errors.map(\.line), [2, 4])
        XCTAssertEqual(errors.last?.description, "line 4: attributeSet.nope: unknown attribute (not a CSSearchableItemAttributeSet property)")

        var count = 0
        let collected = try JSONLinesReader(contentsOf: url).forEach(policy: .collectErrors) { _, _ in count += 1 }
        XCTAssertEqual(count, 3)
        XCTAssertEqual(collected.count, 2)
    }

    func testForEachCollectsBadLinesButNotTheBodysErrors() throws {
        // Under .collectErrors an InterchangeError the body throws (a failed write of the item just read) was
        // collected as if the line were bad, and reading went on past it.
        let url = temporaryFile(#"{"uniqueIdentifier":"1"}"# + "\nnot json\n" + #"{"uniqueIdentifier":"3"}"# + "\n")
        var seen: [String] = []
        let error = interchangeError {
            try JSONLinesReader(contentsOf: url).forEach(policy: .collectErrors) { item, _ in
                seen.append(item.uniqueIdentifier)
                if item.uniqueIdentifier == "3" { throw InterchangeError(message: "write failed: disk full") }
            }
        }
        XCTAssertEqual(error?.message, "write failed: disk full")
        XCTAssertEqual(seen, ["1", "3"])
    }

    func testReaderFromPipeAndMissingFile() throws {
        let pipe = Pipe()
        let writer = pipe.fileHandleForWriting
        let payload = (1...50).map { #"{"uniqueIdentifier":"p\#($0)"}"# }.joined(separator: "\n") + "\n"
        DispatchQueue.global().async {
            writer.write(Data(payload.utf8))
            try? writer.close()
        }
        let reader = JSONLinesReader(fileHandle: pipe.fileHandleForReading, chunkSize: 64)
        let (items, errors) = try reader.readAll()
        XCTAssertEqual(items.count, 50)
        XCTAssertEqual(items.last?.uniqueIdentifier, "p50")
        XCTAssertTrue(errors.isEmpty)
        XCTAssertEqual(reader.lineNumber, 50)

        let missing = URL(fileURLWithPath: "/nonexistent/searchlight/items.jsonl")
        let error = interchangeError { _ = try JSONLinesReader(contentsOf: missing) }
        XCTAssertTrue(error?.message.hasPrefix("cannot open /nonexistent/searchlight/items.jsonl") == true)
    }

    func testWriterThenReaderRoundTrip() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("searchlight-\(UUID().uuidString).jsonl")
        temporaryFiles.append(url)
        var originals: [CSSearchableItem] = []
        for i in 0..<20 {
            let set = CSSearchableItemAttributeSet(itemContentType: i.isMultiple(of: 2) ? "public.text" : "public.image")
            set.title = "Item \(i)\nwith newline"
            set.rating = NSNumber(value: Double(i) / 4)
            set.authors = [CSPerson(displayName: nil, handles: ["h\(i)"], handleIdentifier: "email")]
            set.setValue(Date(timeIntervalSinceReferenceDate: Double(i) * 1000), forCustomKey: CSCustomAttributeKey(keyName: "when")!)
            originals.append(CSSearchableItem(uniqueIdentifier: "w\(i)", domainIdentifier: "dom", attributeSet: set))
        }
        let writer = try JSONLinesWriter(creatingFileAt: url, bufferSize: 100)
        for item in originals { try writer.write(item) }
        try writer.flush()
        XCTAssertEqual(writer.count, 20)
        let (items, _) = try JSONLinesReader(contentsOf: url).readAll()
        XCTAssertEqual(items.count, 20)
        for (a, b) in zip(originals, items) {
            XCTAssertEqual(a.uniqueIdentifier, b.uniqueIdentifier)
            XCTAssertEqual(a.attributeSet.snapshot, b.attributeSet.snapshot)
        }
    }

    func testWriterTruncatesInPlaceAndFollowsALink() throws {
        // "Creates (or truncates)": it replaced the path with a new file, so a link was broken off its target (and a
        // device such as /dev/null, for a process allowed to, was replaced by a regular file).
        let target = temporaryFile("old line\n")
        let link = target.deletingLastPathComponent().appendingPathComponent("searchlight-link-\(UUID().uuidString).jsonl")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        temporaryFiles.append(link)
        do {
            let writer = try JSONLinesWriter(creatingFileAt: link)
            try writer.write(CSSearchableItem(uniqueIdentifier: "a", domainIdentifier: nil, attributeSet: CSSearchableItemAttributeSet()))
            try writer.flush()
        }
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link.path), target.path)
        XCTAssertEqual(String(decoding: try Data(contentsOf: target), as: UTF8.self), #"{"uniqueIdentifier":"a","attributeSet":{}}"# + "\n")
        let missing = interchangeError { _ = try JSONLinesWriter(creatingFileAt: URL(fileURLWithPath: "/nonexistent-dir/x.jsonl")) }
        XCTAssertEqual(missing?.message.hasPrefix("cannot create /nonexistent-dir/x.jsonl"), true, missing?.message ?? "no error")
    }

    /// The writer's descriptor is closed on exec, as Foundation's and the store's are: a child process the app
    /// starts while writing must not inherit (and hold open) the output file.
    func testWriterDescriptorIsClosedOnExec() throws {
        let url = temporaryFile("")
        var fileStat = stat()
        XCTAssertEqual(stat(url.path, &fileStat), 0)
        let writer = try JSONLinesWriter(creatingFileAt: url)
        var flags: [Int32] = []
        for fd in Int32(0)..<4096 {
            var s = stat()
            if fstat(fd, &s) == 0, s.st_ino == fileStat.st_ino, s.st_dev == fileStat.st_dev { flags.append(fcntl(fd, F_GETFD)) }
        }
        XCTAssertEqual(flags.count, 1)
        XCTAssertEqual(flags.map { $0 & FD_CLOEXEC }, [FD_CLOEXEC])
        withExtendedLifetime(writer) {}
    }

    /// Columns count bytes of the line, so a leading byte-order mark's three count too.
    func testColumnsAfterAByteOrderMarkCountItsBytes() throws {
        let line = "\u{FEFF}" + #"{"uniqueIdentifier":"1",}"#
        let lineError = interchangeError { _ = try JSONLinesReader(contentsOf: temporaryFile(line)).readAll() }
        XCTAssertEqual(lineError?.description, "line 1, column 28: expected a string key in object but found '}'")
        let arrayError = interchangeError { _ = try ItemFileReader.readItems(from: temporaryFile("\u{FEFF}[" + #"{"a" 1}]"#)) }
        XCTAssertEqual(arrayError?.description, "line 1, column 10: expected ':' after object key \"a\" but found '1'")
        let secondLine = interchangeError { _ = try ItemFileReader.readItems(from: temporaryFile("\u{FEFF}[\n" + #"{"a" 1}]"#)) }
        XCTAssertEqual(secondLine?.description, "line 2, column 6: expected ':' after object key \"a\" but found '1'")
    }

    func testArrayFiles() throws {
        let url = temporaryFile("  \n[" + corpusLine + ",\n" + #"{"uniqueIdentifier":"2"}"# + "]\n")
        let (items, errors) = try ItemFileReader.readItems(from: url)
        XCTAssertEqual(items.map(\.uniqueIdentifier), ["deb:0ad", "2"])
        XCTAssertTrue(errors.isEmpty)

        let mixed = temporaryFile(#"[{"uniqueIdentifier":"1"}, {"nope":1}, {"uniqueIdentifier":"3"}]"#)
        let (kept, skipped) = try ItemFileReader.readItems(from: mixed, policy: .collectErrors)
        XCTAssertEqual(kept.map(\.uniqueIdentifier), ["1", "3"])
        XCTAssertEqual(skipped.map(\.message), ["array element 2: nope: unknown item member"])
        let error = interchangeError { _ = try ItemFileReader.readItems(from: mixed) }
        XCTAssertEqual(error?.message, "array element 2: nope: unknown item member")

        let broken = temporaryFile("[\n{\"uniqueIdentifier\":\"1\"},\n{\"uniqueIdentifier\" \"2\"}\n]")
        let syntax = interchangeError { _ = try ItemFileReader.readItems(from: broken) }
        XCTAssertEqual(syntax?.line, 3)
        XCTAssertEqual(syntax?.column, 21)

        // A JSON Lines file goes through the streaming reader.
        let lines = temporaryFile(#"{"uniqueIdentifier":"a"}"# + "\n" + #"{"uniqueIdentifier":"b"}"#)
        XCTAssertEqual(try ItemFileReader.readItems(from: lines).items.count, 2)
    }

    func testCodableConformance() throws {
        let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
        set.title = "Codable"
        set.keywords = ["x"]
        set.dueDate = Date(timeIntervalSinceReferenceDate: 800_000_000)
        let item = CSSearchableItem(uniqueIdentifier: "c", domainIdentifier: "d", attributeSet: set)
        let data = try JSONEncoder().encode(item)
        let back = try JSONDecoder().decode(CSSearchableItem.self, from: data)
        XCTAssertEqual(back.uniqueIdentifier, "c")
        XCTAssertEqual(back.attributeSet.snapshot, set.snapshot)
        let setBack = try JSONDecoder().decode(CSSearchableItemAttributeSet.self, from: JSONEncoder().encode(set))
        XCTAssertEqual(setBack.title, "Codable")
        XCTAssertThrowsError(try JSONDecoder().decode(CSSearchableItem.self, from: Data(#"{"attributeSet":{}}"#.utf8)))
    }
}

final class FixtureTests: XCTestCase {
    private func load(_ name: String) throws -> [CSSearchableItem] {
        let (items, errors) = try JSONLinesReader(contentsOf: fixturesDirectory.appendingPathComponent(name)).readAll()
        XCTAssertTrue(errors.isEmpty)
        for item in items { XCTAssertNoThrow(try item.validate(), item.uniqueIdentifier) }
        return items
    }

    func testFriends() throws {
        let items = try load("friends.jsonl")
        XCTAssertEqual(items.map(\.uniqueIdentifier), ["1", "2", "3", "4", "5", "6"])
        XCTAssertEqual(items.map { $0.attributeSet.title ?? "" }, ["Becky", "Ben", "Jane", "Pete", "Ray", "Tom"])
        for item in items {
            XCTAssertEqual(item.domainIdentifier, "com.ios9daybyday.SearchAPIs.people")
            XCTAssertEqual(item.attributeSet.contentType, "public.image")
            XCTAssertEqual(item.attributeSet.contentDescription,
                           "This is an entry all about the interesting person called \(item.attributeSet.title ?? "")")
        }
    }

    func testMovies() throws {
        let items = try load("movies.jsonl")
        XCTAssertEqual(items.map(\.uniqueIdentifier), (0..<5).map { "com.appcoda.SpotIt.\($0)" })
        for item in items {
            XCTAssertEqual(item.domainIdentifier, "movies")
            let set = item.attributeSet
            XCTAssertNotNil(set.title)
            XCTAssertNotNil(set.director)
            XCTAssertNotNil(set.rating)
            XCTAssertEqual(set.keywords?.suffix(set.performers?.count ?? 0).map { $0 }, set.performers)
        }
    }

    func testDocuments() throws {
        let items = try load("documents.jsonl")
        XCTAssertEqual(items.count, 1)
        XCTAssertEqual(items[0].uniqueIdentifier, "1")
        XCTAssertEqual(items[0].domainIdentifier, "file-1")
        XCTAssertEqual(items[0].attributeSet.title, "July Report.Numbers")
        XCTAssertEqual(items[0].attributeSet.contentDescription, "iWork Numbers Document")
        XCTAssertTrue(items[0].attributeSet.contentTypeTree?.contains("public.spreadsheet") == true)
    }

    func testDebianSamples() throws {
        let en = try load("debian-en-sample.jsonl")
        XCTAssertEqual(en.count, 2000)
        XCTAssertEqual(Set(en.map(\.uniqueIdentifier)).count, 2000)
        XCTAssertTrue(en.allSatisfy { $0.uniqueIdentifier.hasPrefix("deb:") && $0.attributeSet.title != nil })
        let cjk = try load("debian-cjk-sample.jsonl")
        XCTAssertEqual(cjk.count, 500)
        XCTAssertTrue(cjk.contains { ($0.attributeSet.contentDescription ?? "").unicodeScalars.contains { $0.value >= 0x3040 } })
    }
}
