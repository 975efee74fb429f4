import Foundation
import XCTest
@testable import Searchlight
import SearchlightQueryLanguage

/// Runs `body` on a thread with a 512 KB stack, the default for every secondary thread on Apple platforms
/// (`Thread`, GCD queues, Swift concurrency's pool), and waits for it. A recursion too deep for that stack
/// crashes the test process, so each walk over untrusted input is tested at its deepest accepted input here.
func onSmallStack<T>(_ body: @escaping () throws -> T) throws -> T {
    let box = SmallStackResult<T>(), done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) let body = body
    let thread = Thread {
        box.result = Result { try body() }
        done.signal()
    }
    thread.stackSize = 512 * 1024
    thread.start()
    done.wait()
    return try box.result!.get()
}

private final class SmallStackResult<T>: @unchecked Sendable { var result: Result<T, any Error>? }

/// Every walk driven by the input's depth holds on a 512 KB stack at the deepest input it accepts (debug build).
final class SmallStackTests: XCTestCase {
    private static func nestedArrays(_ depth: Int) -> String {
        String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)
    }

    private static func nestedObjects(_ depth: Int) -> String {
        String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
    }

    func testJSONParserAtItsLimit() throws {
        let limit = JSONParser.maximumDepth
        for json in [Self.nestedArrays(limit), Self.nestedObjects(limit)] {
            let parsed = try onSmallStack { try JSONParser.parse(Array(json.utf8)) }
            XCTAssertEqual(try onSmallStack { parsed == parsed }, true)
            XCTAssertEqual(try onSmallStack { () throws -> Int in var out: [UInt8] = []; try JSONSerializer.write(parsed, to: &out); return out.count }, json.utf8.count)
            let decoded = try onSmallStack { try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8)) }
            XCTAssertEqual(decoded, parsed)
            XCTAssertEqual(try onSmallStack { try JSONEncoder().encode(parsed).count }, json.utf8.count)
        }
        for json in [Self.nestedArrays(limit + 1), Self.nestedObjects(limit + 1)] {
            let message = try onSmallStack { interchangeError { _ = try JSONParser.parse(Array(json.utf8)) }?.message }
            XCTAssertEqual(message, "nesting deeper than \(limit) levels")
            let refused = try onSmallStack { () -> Bool in
                do { _ = try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8)); return false } catch { return error is DecodingError }
            }
            XCTAssertTrue(refused)
        }
    }

    func testItemJSONAtTheParserLimit() throws {
        let limit = JSONParser.maximumDepth
        let deep = String(repeating: "[", count: limit - 3) + #""x""# + String(repeating: "]", count: limit - 3)
        let json = #"{"uniqueIdentifier":"a","attributeSet":{"customAttributes":{"deep":"# + deep + "}}}"
        _ = try onSmallStack { () -> String in
            do { return try ItemJSON.decodeItem(from: Data(json.utf8)).uniqueIdentifier } catch { return "\(error)" }
        }
    }

    private func page(jsonLD: String) -> String {
        #"<title>t</title><script type="application/ld+json">"# + jsonLD + "</script><p>body text</p>"
    }

    func testJSONLDAtTheParserLimit() throws {
        let limit = JSONParser.maximumDepth
        let objects = String(repeating: #"{"@type":"Thing","name":"n","subjectOf":"#, count: limit) + "1"
            + String(repeating: "}", count: limit)
        let graph = #"{"@graph":["# + String(repeating: ##"{"@type":"Thing","@id":"#x","subjectOf":"##, count: limit - 2)
            + ##"{"@id":"#x"}"## + String(repeating: "}", count: limit - 2) + "]}"
        let arrays = #"{"@type":"Product","name":"p","offers":"# + Self.nestedArrays(limit - 1) + "}"
        for jsonLD in [objects, graph, arrays] {
            let html = page(jsonLD: jsonLD)
            let title = try onSmallStack { try WebMarkupIndexer().item(fromHTML: Data(html.utf8), url: URL(string: "https://e.com/")!).attributeSet.title }
            XCTAssertNotNil(title)
        }
        let tooDeep = page(jsonLD: Self.nestedObjects(limit + 1))
        let issues = try onSmallStack { try WebMarkupIndexer().extract(html: Data(tooDeep.utf8), url: URL(string: "https://e.com/")!).issues }
        XCTAssertTrue(issues.contains { $0.message.contains("nesting deeper than \(limit) levels") }, "\(issues)")
    }

    func testMicrodataAtTheHTMLLimit() throws {
        let depth = HTMLMarkupReader.maximumDepth
        let html = "<title>t</title>" + String(repeating: "<div itemscope itemtype=https://schema.org/Thing itemprop=subjectOf><span itemprop=name>n</span>", count: depth)
            + "deep" + String(repeating: "</div>", count: depth)
        let title = try onSmallStack { try WebMarkupIndexer().item(fromHTML: Data(html.utf8), url: URL(string: "https://e.com/")!).attributeSet.title }
        XCTAssertEqual(title, "t")
    }

    func testQueryStringsAtTheParserLimit() throws {
        let limit = QueryParser.maximumNestingDepth
        for query in [String(repeating: "(", count: limit) + "a == 1" + String(repeating: ")", count: limit),
                      String(repeating: "!", count: limit) + "a == 1",
                      String(repeating: "(!", count: limit / 2) + "a == 1" + String(repeating: ")", count: limit / 2)] {
            let printed = try onSmallStack { try QueryEvaluator.parse(query).description }
            XCTAssertFalse(printed.isEmpty)
        }
        let tooDeep = String(repeating: "(", count: limit + 1) + "a == 1" + String(repeating: ")", count: limit + 1)
        let error = try onSmallStack { () -> CSSearchQueryError? in
            do { _ = try QueryEvaluator.parse(tooDeep); return nil } catch { return error as? CSSearchQueryError }
        }
        XCTAssertEqual(error?.code, .invalidQuery)
    }

    private static func nestedValue(_ depth: Int) -> Any {
        var value: Any = "leaf"
        for _ in 0..<depth { value = [value, 1] as [Any] }
        return value
    }

    func testNestedAttributeValuesAtTheModelLimit() throws {
        let depth = AttributeValue.maximumNestingDepth
        let key = try XCTUnwrap(CSCustomAttributeKey(keyName: "deep"))
        let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
        set.setValue(Self.nestedValue(depth), forCustomKey: key)
        let item = CSSearchableItem(uniqueIdentifier: "a", domainIdentifier: nil, attributeSet: set)
        let ok = try onSmallStack { () -> Bool in
            var writer = StoredValueWriter()
            writer.storage(set.snapshot)
            var reader = StoredValueReader(writer.bytes)
            guard let back = reader.storage() else { return false }
            let archived = try NSKeyedArchiver.archivedData(withRootObject: item, requiringSecureCoding: true)
            let unarchived = try NSKeyedUnarchiver.unarchivedObject(ofClass: CSSearchableItem.self, from: archived)
            let json = try JSONEncoder().encode(item)
            let decoded = try JSONDecoder().decode(CSSearchableItem.self, from: json)
            _ = set.value(forCustomKey: key)
            return back == set.snapshot && unarchived?.attributeSet.snapshot == set.snapshot
                && decoded.attributeSet.snapshot == set.snapshot && item.validationProblems().isEmpty
        }
        XCTAssertTrue(ok)
    }

    func testUserInfoAtItsLimit() throws {
        let depth = UserInfoValue.maximumDepth
        var value: Any = "leaf"
        for i in 0..<depth { value = i.isMultiple(of: 2) ? [value] as [Any] : ["k": value] as [String: Any] }
        let info: [AnyHashable: Any] = ["root": value]
        let ok = try onSmallStack { () -> Bool in
            let dict = try UserInfoValue.dictionary(info)
            var writer = StoredValueWriter()
            writer.userInfoDictionary(dict)
            var reader = StoredValueReader(writer.bytes)
            return reader.userInfoDictionary() == dict && !UserInfoValue.canonicalText(dict).isEmpty
        }
        XCTAssertTrue(ok)
    }
}
