import Foundation
import XCTest
@testable import Searchlight

final class CustomAttributeTests: XCTestCase {
    func testKeyNameValidationAndDefaults() {
        let key = CSCustomAttributeKey(keyName: "com_mycompany_myapp_keyname")
        XCTAssertNotNil(key)
        XCTAssertEqual(key?.keyName, "com_mycompany_myapp_keyname")
        XCTAssertEqual(key?.isSearchable, true)
        XCTAssertEqual(key?.isSearchableByDefault, false)
        XCTAssertEqual(key?.isUnique, false)
        XCTAssertEqual(key?.isMultiValued, false)
        for bad in ["", "kMDItemTitle", "has space", "dot.ted", "dash-ed", "ünicode", "semi;colon"] {
            XCTAssertNil(CSCustomAttributeKey(keyName: bad), "'\(bad)' must be rejected")
        }
        let flagged = CSCustomAttributeKey(keyName: "tags", searchable: false, searchableByDefault: true, unique: true, multiValued: true)
        XCTAssertEqual(flagged?.isSearchable, false)
        XCTAssertEqual(flagged?.isSearchableByDefault, true)
        XCTAssertEqual(flagged?.isUnique, true)
        XCTAssertEqual(flagged?.isMultiValued, true)
        XCTAssertEqual(CSCustomAttributeKey(keyName: "x"), CSCustomAttributeKey(keyName: "x"))
        XCTAssertNotEqual(CSCustomAttributeKey(keyName: "x"), flagged)
        XCTAssertEqual(CustomAttributeKeyInfo.problem(withKeyName: "kMDfoo"),
                       "custom attribute key name 'kMDfoo' starts with the reserved prefix 'kMD'")
    }

    func testAllowedValueTypes() throws {
        let set = CSSearchableItemAttributeSet()
        func key(_ n: String) -> CSCustomAttributeKey { CSCustomAttributeKey(keyName: n)! }
        let date = Date(timeIntervalSinceReferenceDate: 812_345_678)
        set.setValue("text", forCustomKey: key("s"))
        set.setValue(NSNumber(value: 12), forCustomKey: key("n"))
        set.setValue(2.5, forCustomKey: key("d"))
        set.setValue(true, forCustomKey: key("b"))
        set.setValue(date, forCustomKey: key("date"))
        set.setValue(Data([9, 8]), forCustomKey: key("data"))
        set.setValue(NSNull(), forCustomKey: key("null"))
        set.setValue(CSPerson(displayName: "Ann", handles: ["a@x"], handleIdentifier: "email"), forCustomKey: key("person"))
        set.setValue(["a", "b"], forCustomKey: key("strings"))
        set.setValue([NSNumber(value: 1), NSNumber(value: 2.5)], forCustomKey: key("numbers"))
        set.setValue([date, date], forCustomKey: key("dates"))
        set.setValue(["mixed", NSNumber(value: 1)] as [Any], forCustomKey: key("mixed"))
        set.setValue(URL(string: "https://example.com")!, forCustomKey: key("url"))

        XCTAssertEqual(set.value(forCustomKey: key("s")) as Any? as? String, "text")
        XCTAssertEqual(set.value(forCustomKey: key("n")) as? NSNumber, 12)
        XCTAssertEqual(set.value(forAttribute: "n"), .number(.int(12)))
        XCTAssertEqual(set.value(forAttribute: "d"), .number(.double(2.5)))
        XCTAssertEqual(set.value(forAttribute: "b"), .number(.bool(true)))
        XCTAssertEqual(set.value(forCustomKey: key("date")) as Any? as? Date, date)
        XCTAssertEqual(set.value(forCustomKey: key("data")) as Any? as? Data, Data([9, 8]))
        XCTAssertTrue(set.value(forCustomKey: key("null")) is NSNull)
        XCTAssertEqual((set.value(forCustomKey: key("person")) as? CSPerson)?.displayName, "Ann")
        XCTAssertEqual(set.value(forCustomKey: key("strings")) as Any? as? [String], ["a", "b"])
        XCTAssertEqual(set.value(forAttribute: "numbers"), .array([.number(.int(1)), .number(.double(2.5))]))
        XCTAssertEqual(set.value(forAttribute: "dates"), .dates([date, date]))
        XCTAssertNil(set.value(forCustomKey: key("missing")))
        XCTAssertTrue(CSSearchableItem(uniqueIdentifier: "ok", domainIdentifier: nil, attributeSet: set).validationProblems().isEmpty)

        // Every custom shape survives JSON exactly.
        let item = CSSearchableItem(uniqueIdentifier: "c1", domainIdentifier: nil, attributeSet: set)
        let back = try roundTrip(item)
        XCTAssertEqual(back.attributeSet.snapshot, set.snapshot)
    }

    /// A `CGFloat` (Foundation's Swift number Apple bridges to an NSNumber double) is a number like `Double`, not
    /// a value of an unsupported type that fails the item.
    func testCGFloatIsADoubleNumber() {
        let set = CSSearchableItemAttributeSet()
        let key = CSCustomAttributeKey(keyName: "width")!
        set.setValue(CGFloat(1.5), forCustomKey: key)
        XCTAssertEqual(set.value(forAttribute: "width"), .number(.double(1.5)))
        set.setValue([CGFloat(2), CGFloat(0.25)], forCustomKey: key)
        XCTAssertEqual(set.value(forAttribute: "width"), .array([.number(.double(2)), .number(.double(0.25))]))
        XCTAssertTrue(CSSearchableItem(uniqueIdentifier: "w", domainIdentifier: nil, attributeSet: set).validationProblems().isEmpty)
    }

    /// A Swift `Decimal` bridges to `NSDecimalNumber`, an `NSNumber`, which Apple's `setValue(_:forCustomKey:)` takes:
    /// it is a number (alone or in an array), found by a numeric query, not a value of an unsupported type that
    /// fails the item. A Decimal NaN is refused as a non-finite number, as a Double NaN is.
    func testDecimalIsANumber() throws {
        let key = CSCustomAttributeKey(keyName: "price")!
        let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
        set.setValue(Decimal(string: "12.5")!, forCustomKey: key)
        XCTAssertEqual((set.value(forCustomKey: key) as? NSNumber)?.doubleValue, 12.5)
        let item = CSSearchableItem(uniqueIdentifier: "p", domainIdentifier: nil, attributeSet: set)
        XCTAssertEqual(item.validationProblems(), [])
        XCTAssertEqual(try evaluate("price > 12", in: makeContainer([item])), ["p"])
        set.setValue([Decimal(1), Decimal(string: "0.25")!], forCustomKey: key)
        XCTAssertEqual((set.value(forCustomKey: key) as? NSArray)?.compactMap { ($0 as? NSNumber)?.doubleValue },
                       [1, 0.25])
        XCTAssertEqual(item.validationProblems(), [])
        set.setValue(Decimal.nan, forCustomKey: key)
        let problems = item.validationProblems()
        XCTAssertEqual(problems.count, 1)
        XCTAssertTrue(problems.first?.message.contains("custom attribute 'price' holds the non-finite number") == true,
                      problems.first?.message ?? "")
    }

    /// An array of optionals (`[String?]`) bridges to an NSArray holding NSNull for each nil, which Apple takes: its
    /// nils are NSNull values and its strings stay searchable, where each nil was a value of the unsupported type
    /// `Optional<String>` that failed the item.
    func testAnArrayOfOptionalsHoldsNullForItsNils() throws {
        let key = CSCustomAttributeKey(keyName: "aliases")!
        let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
        set.setValue(["ann", nil] as [String?], forCustomKey: key)
        XCTAssertEqual(set.value(forAttribute: "aliases"), .array([.string("ann"), .null]))
        let read = try XCTUnwrap(set.value(forCustomKey: key) as? NSArray)
        XCTAssertEqual(read.count, 2)
        XCTAssertTrue(read[1] is NSNull)
        let item = CSSearchableItem(uniqueIdentifier: "o", domainIdentifier: nil, attributeSet: set)
        XCTAssertEqual(item.validationProblems(), [])
        XCTAssertEqual(try evaluate(#"aliases == "ann""#, in: makeContainer([item])), ["o"])
        set.setValue([Int?.none, 3] as [Int?], forCustomKey: key)
        XCTAssertEqual(set.value(forAttribute: "aliases"), .array([.null, .number(.int(3))]))
    }

    /// A custom array mixing dates with other kinds (`["launch", date]`, `[date, 5]`) is searchable by its dates, as
    /// a homogeneous date array is: only its numbers went into the key's numeric column, so date comparisons and
    /// presence of the date never found it.
    func testDatesInAMixedCustomArrayAreQueryable() throws {
        let key = CSCustomAttributeKey(keyName: "when")!
        let date = Date(timeIntervalSinceReferenceDate: 800_000_000)  // 2026-05-09T06:13:20Z
        func item(_ id: String, _ value: Any) -> CSSearchableItem {
            let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
            set.setValue(value, forCustomKey: key)
            return CSSearchableItem(uniqueIdentifier: id, domainIdentifier: nil, attributeSet: set)
        }
        let container = makeContainer([item("dates", [date]), item("text", ["launch", date] as [Any]),
                                       item("number", [date, NSNumber(value: 5)] as [Any])])
        XCTAssertEqual(try evaluate("when > $time.iso(2026-01-01T00:00:00Z)", in: container),
                       ["dates", "number", "text"])
        XCTAssertEqual(try evaluate("when == $time.iso(2026-05-09T06:13:20Z)", in: container),
                       ["dates", "number", "text"])
        XCTAssertEqual(try evaluate("when < 10", in: container), ["number"])
        XCTAssertEqual(try evaluate(#"when == "launch""#, in: container), ["text"])
        let fetched = CSSearchableIndex(name: "mixed", container: container).fetchSearchableItems(withIdentifiers: ["text"])
        XCTAssertEqual(fetched.first?.attributeSet.value(forAttribute: "when"), .array([.string("launch"), .date(date)]))
    }

    /// Values read back typed as Apple declares them (`(any NSSecureCoding)?`), each the Foundation object Apple
    /// hands back, whether it was set as a Swift value or as that object.
    func testCustomValuesReadBackAsSecureCodingObjects() throws {
        func key(_ n: String) -> CSCustomAttributeKey { CSCustomAttributeKey(keyName: n)! }
        let set = CSSearchableItemAttributeSet(contentType: .text)
        let date = Date(timeIntervalSinceReferenceDate: 812_345_678)
        set.setValue("zcode" as NSString, forCustomKey: key("genre"))
        set.setValue(NSNumber(value: 1999), forCustomKey: key("year"))
        set.setValue(["hanrychen"] as NSArray, forCustomKey: key("names"))
        set.setValue(date, forCustomKey: key("date"))
        set.setValue(Data([1, 2]), forCustomKey: key("data"))
        set.setValue(URL(string: "https://example.com/a")!, forCustomKey: key("url"))
        set.setValue(NSNull(), forCustomKey: key("null"))
        set.setValue(CSPerson(displayName: "Ann", handles: ["a@x"], handleIdentifier: "email"), forCustomKey: key("person"))
        set.setValue(["mixed", NSNumber(value: 1)] as [Any], forCustomKey: key("mixed"))
        set.setValue(nil, forCustomKey: key("cleared"))

        let genre: (any NSSecureCoding)? = set.value(forCustomKey: key("genre"))
        XCTAssertEqual(genre as? NSString, "zcode")
        XCTAssertEqual(genre as Any? as? String, "zcode")
        XCTAssertEqual(set.value(forCustomKey: key("year")) as? NSNumber, 1999)
        XCTAssertEqual(set.value(forCustomKey: key("year")) as Any? as? Int, 1999)
        XCTAssertEqual(set.value(forCustomKey: key("names")) as? NSArray, ["hanrychen"] as NSArray)
        XCTAssertEqual(set.value(forCustomKey: key("names")) as Any? as? [String], ["hanrychen"])
        XCTAssertEqual(set.value(forCustomKey: key("date")) as? NSDate, date as NSDate)
        XCTAssertEqual(set.value(forCustomKey: key("data")) as? NSData, Data([1, 2]) as NSData)
        XCTAssertEqual(set.value(forCustomKey: key("url")) as? NSURL, URL(string: "https://example.com/a")! as NSURL)
        XCTAssertTrue(set.value(forCustomKey: key("null")) is NSNull)
        let person = try XCTUnwrap(set.value(forCustomKey: key("person")) as? CSPerson)
        XCTAssertEqual(person.handles, ["a@x"])
        let archived = try NSKeyedArchiver.archivedData(withRootObject: person, requiringSecureCoding: true)
        XCTAssertEqual(try NSKeyedUnarchiver.unarchivedObject(ofClass: CSPerson.self, from: archived), person)
        let mixed = try XCTUnwrap(set.value(forCustomKey: key("mixed")) as? NSArray)
        XCTAssertEqual(mixed.count, 2)
        XCTAssertEqual(mixed[0] as? NSString, "mixed")
        XCTAssertEqual(mixed[1] as? NSNumber, 1)
        XCTAssertNil(set.value(forCustomKey: key("cleared")))
        XCTAssertNil(set.value(forCustomKey: key("missing")))
    }

    /// Copying a custom attribute from one attribute set to another through Apple's typed API
    /// (`value(forCustomKey:)` hands back an `(any NSSecureCoding)?`, `setValue(_:forCustomKey:)` takes one) must
    /// keep the value and leave the item valid.
    func testCustomValuesCopyThroughTheSecureCodingAPI() {
        func key(_ n: String) -> CSCustomAttributeKey { CSCustomAttributeKey(keyName: n)! }
        let source = CSSearchableItemAttributeSet()
        let date = Date(timeIntervalSinceReferenceDate: 812_345_678)
        let values: [(String, Any)] = [("s", "text"), ("n", NSNumber(value: 12)), ("d", 2.5), ("b", true), ("date", date),
                                       ("data", Data([1, 2])), ("null", NSNull()), ("url", URL(string: "https://example.com/x")!),
                                       ("strings", ["a", "b"]), ("dates", [date, date]), ("mixed", ["m", NSNumber(value: 1)] as [Any]),
                                       ("person", CSPerson(displayName: "Ann", handles: ["a@x"], handleIdentifier: "email")),
                                       ("urls", [URL(string: "https://a.example")!, URL(string: "https://b.example")!])]
        for (name, value) in values { source.setValue(value, forCustomKey: key(name)) }
        let copy = CSSearchableItemAttributeSet()
        for (name, _) in values { copy.setValue(source.value(forCustomKey: key(name)), forCustomKey: key(name)) }
        for (name, _) in values {
            XCTAssertEqual(copy.value(forAttribute: name), source.value(forAttribute: name), name)
        }
        let problems = CSSearchableItem(uniqueIdentifier: "x", domainIdentifier: nil, attributeSet: copy).validationProblems()
        XCTAssertTrue(problems.isEmpty, "\(problems)")
    }

    func testNonDefaultKeyFlagsRoundTrip() throws {
        let set = CSSearchableItemAttributeSet()
        let key = CSCustomAttributeKey(keyName: "tags", searchable: true, searchableByDefault: true, unique: false, multiValued: true)!
        set.setValue(["x", "y"], forCustomKey: key)
        let json = String(decoding: try ItemJSON.encode(set), as: UTF8.self)
        XCTAssertTrue(json.contains("\"customAttributeKeys\""), json)
        let back = try ItemJSON.decodeAttributeSet(from: Data(json.utf8))
        XCTAssertEqual(back.snapshot.custom["tags"]?.key.isSearchableByDefault, true)
        XCTAssertEqual(back.snapshot, set.snapshot)
    }

    /// `searchableByDefault` is each item's own key flag. The key's text field took the flags of the item written
    /// last, so indexing one item changed how every other item's values were searched: free text lost "one".
    func testAnotherItemsKeyFlagsDoNotChangeHowAnIndexedValueIsSearched() {
        func item(_ id: String, _ key: CSCustomAttributeKey, _ value: String) -> CSSearchableItem {
            let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
            set.setValue(value, forCustomKey: key)
            return CSSearchableItem(uniqueIdentifier: id, domainIdentifier: nil, attributeSet: set)
        }
        let byDefault = CSCustomAttributeKey(keyName: "tag", searchable: true, searchableByDefault: true,
                                             unique: false, multiValued: false)!
        let plain = CSCustomAttributeKey(keyName: "tag")!
        let container = makeContainer([item("one", byDefault, "zanzibar")])
        XCTAssertEqual(runUserQuery("zanzibar", in: container).items.map(\.uniqueIdentifier), ["one"])
        let index = CSSearchableIndex(name: "flags", container: container)
        XCTAssertNil(index.completion {
            index.indexSearchableItems([item("two", plain, "zanzibar"), item("three", byDefault, "zanzibar")],
                                       completionHandler: $0)
        })
        // Free text finds the values searched by default only, whichever item was written last.
        XCTAssertEqual(runUserQuery("zanzibar", in: container).items.map(\.uniqueIdentifier).sorted(), ["one", "three"])
        XCTAssertNil(index.completion { index.indexSearchableItems([item("four", plain, "zanzibar")], completionHandler: $0) })
        XCTAssertEqual(runUserQuery("zanzibar", in: container).items.map(\.uniqueIdentifier).sorted(), ["one", "three"])
        // The query language names the key and finds all of them; fetch gives each value and its flags back.
        XCTAssertEqual(try evaluate(#"tag == "zanzibar""#, in: container), ["four", "one", "three", "two"])
        let fetched = index.fetchSearchableItems(withIdentifiers: ["one", "two"])
        XCTAssertEqual(fetched.map { $0.attributeSet.value(forCustomKey: plain) as Any? as? String }, ["zanzibar", "zanzibar"])
        XCTAssertEqual(fetched.map { $0.attributeSet.snapshot.custom["tag"]?.key.isSearchableByDefault }, [true, false])
    }

    func testUnsupportedValueIsRejectedByValidationNotACrash() {
        struct Opaque {}
        let set = CSSearchableItemAttributeSet()
        set.setValue(Opaque(), forCustomKey: CSCustomAttributeKey(keyName: "weird")!)
        set.setValue(["fine", Opaque()] as [Any], forCustomKey: CSCustomAttributeKey(keyName: "weirdArray")!)
        let item = CSSearchableItem(uniqueIdentifier: "item-9", domainIdentifier: nil, attributeSet: set)
        let problems = item.validationProblems()
        XCTAssertEqual(problems.count, 2)
        XCTAssertTrue(problems[0].message.contains("item 'item-9'"), problems[0].message)
        XCTAssertTrue(problems[0].message.contains("custom attribute 'weird'"), problems[0].message)
        XCTAssertTrue(problems[0].message.contains("Opaque"), problems[0].message)
        XCTAssertTrue(problems[1].message.contains("'weirdArray'"))
        XCTAssertThrowsError(try item.validate()) { error in
            XCTAssertEqual((error as? CSIndexError)?.code, .invalidItemError)
        }
        // Unsupported values cannot be written to JSON either: a clear error, not garbage.
        let error = interchangeError { _ = try ItemJSON.encode(item) }
        XCTAssertTrue(error?.message.contains("attributeSet.customAttributes.weird") == true, error?.message ?? "")
    }
    /// A custom array nested deeper than the stored form keeps is refused when indexed, with the key named; it
    /// was accepted and then could be neither fetched nor found. The deepest kept nesting comes back whole.
    func testArraysNestedDeeperThanKeptAreRefusedNotLost() async throws {
        func nested(_ depth: Int) -> Any {
            var value: Any = "leaf"
            for _ in 0..<depth { value = [value, 1] as [Any] }
            return value
        }
        let key = try XCTUnwrap(CSCustomAttributeKey(keyName: "deep"))
        func item(_ id: String, depth: Int) -> CSSearchableItem {
            let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
            set.title = "ghost"
            set.setValue(nested(depth), forCustomKey: key)
            return CSSearchableItem(uniqueIdentifier: id, domainIdentifier: nil, attributeSet: set)
        }
        let index = CSSearchableIndex(name: "deep", container: SearchlightContainer())
        do {
            try await index.indexSearchableItems([item("too-deep", depth: AttributeValue.maximumNestingDepth + 1)])
            XCTFail("expected invalidItemError")
        } catch let error as CSIndexError {
            XCTAssertEqual(error.code, .invalidItemError)
            XCTAssertTrue(error.message.contains("'deep'") && error.message.contains("nests arrays 32 deep"), error.message)
        }
        try await index.indexSearchableItems([item("kept", depth: AttributeValue.maximumNestingDepth)])
        let fetched = try XCTUnwrap(index.fetchSearchableItems(withIdentifiers: ["kept"]).first)
        XCTAssertEqual(fetched.attributeSet.snapshot.custom["deep"]?.slot.value,
                       AttributeValue.fromCustom(nested(AttributeValue.maximumNestingDepth)))
    }

    /// A mixed array `depth` levels deep, built without recursion.
    private static func deeplyNested(_ depth: Int) -> [Any] {
        var value: [Any] = ["leaf", NSNumber(value: 1)]
        for _ in 0..<depth { value = [value, "x"] }
        return value
    }

    /// Setting a value nested far deeper than is kept neither overflows the stack (converting it bridged every
    /// level to Foundation, recursively) nor is lost silently: indexing refuses it, naming the key.
    func testAVeryDeeplyNestedArrayIsRefusedNotACrash() {
        let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
        set.setValue(Self.deeplyNested(10_000), forCustomKey: customKey("deep"))
        let index = makeIndex()
        let item = CSSearchableItem(uniqueIdentifier: "deep", domainIdentifier: nil, attributeSet: set)
        let error = index.completion { index.indexSearchableItems([item], completionHandler: $0) }
        XCTAssertEqual(indexErrorCode(error), .invalidItemError)
        let message = (error as? CSIndexError)?.message ?? ""
        XCTAssertTrue(message.contains("'deep'") && message.contains("nests arrays more than 31 deep"), message)
    }

    /// Converting a nested custom value stops one level past the kept depth: whatever lies below is not walked
    /// (each level used to bridge everything below it, quadratic in the depth).
    func testConvertingADeeplyNestedArrayStopsPastTheKeptDepth() {
        let start = Date()
        let value = AttributeValue.fromCustom(Self.deeplyNested(2_000))
        let seconds = Date().timeIntervalSince(start)
        XCTAssertEqual(value.nestingDepth, AttributeValue.maximumNestingDepth + 2)
        XCTAssertLessThan(seconds, 2, "converting a 2,000-deep array took \(seconds) s")
        // Values up to one level past the limit are converted whole (their depth is reported exactly).
        XCTAssertEqual(AttributeValue.fromCustom(Self.deeplyNested(30)).nestingDepth, 31)
        XCTAssertEqual(AttributeValue.fromCustom(Self.deeplyNested(31)).nestingDepth, 32)
    }

    /// One item with 40,000 custom keys is indexed (alone, and again in a batch analyzed on several threads) and
    /// fetched in linear time: each of its fields used to be looked up by a linear search of the others, in the
    /// segment builder (indexing), its batch preparation and the decoder (fetching), which took minutes here.
    func testAnItemWithTensOfThousandsOfCustomKeysIndexesAndFetchesInLinearTime() {
        let keys = 40_000
        let index = makeIndex()
        let wide = makeItem("wide", title: "wide")
        for n in 0..<keys { wide.attributeSet.setValue("v\(n)" as NSString, forCustomKey: customKey("k\(n)")) }
        var start = Date()
        XCTAssertNil(index.completion { index.indexSearchableItems([wide], completionHandler: $0) })
        let indexing = Date().timeIntervalSince(start)
        // Its fields now exist: in a batch of several chunks it is prepared off the writer like any other item.
        start = Date()
        let batch = [wide] + (0..<(2 * 64)).map { makeItem("i\($0)", title: "item \($0)") }
        XCTAssertNil(index.completion { index.indexSearchableItems(batch, completionHandler: $0) })
        let batching = Date().timeIntervalSince(start)
        start = Date()
        let fetched = index.fetchSearchableItems(withIdentifiers: ["wide"]).first
        let fetching = Date().timeIntervalSince(start)
        XCTAssertEqual(fetched?.attributeSet.snapshot.custom.count, keys)
        XCTAssertEqual(fetched?.attributeSet.value(forCustomKey: customKey("k\(keys - 1)")) as? String, "v\(keys - 1)")
        XCTAssertEqual(index.itemCount(), 1 + 2 * 64)
        XCTAssertLessThan(indexing, 20, "indexing an item with \(keys) custom keys took \(indexing) s")
        XCTAssertLessThan(batching, 20, "indexing it again in a batch took \(batching) s")
        XCTAssertLessThan(fetching, 20, "fetching it took \(fetching) s")
    }

    /// Apple's `CSCustomAttributeKey` is `NSSecureCoding`: a keyed archive keeps the name and every flag; a corrupt
    /// archive fails to decode instead of crashing.
    func testKeyArchivesAndUnarchives() throws {
        XCTAssertTrue(CSCustomAttributeKey.supportsSecureCoding)
        for flags in 0..<16 {
            let key = try XCTUnwrap(CSCustomAttributeKey(keyName: "key_\(flags)", searchable: flags & 1 != 0,
                                                         searchableByDefault: flags & 2 != 0, unique: flags & 4 != 0,
                                                         multiValued: flags & 8 != 0))
            let data = try NSKeyedArchiver.archivedData(withRootObject: key, requiringSecureCoding: true)
            XCTAssertEqual(try NSKeyedUnarchiver.unarchivedObject(ofClass: CSCustomAttributeKey.self, from: data), key)
        }
        let data = try NSKeyedArchiver.archivedData(withRootObject: try XCTUnwrap(CSCustomAttributeKey(keyName: "k")),
                                                    requiringSecureCoding: true)
        for cut in 0..<data.count {
            _ = try? NSKeyedUnarchiver.unarchivedObject(ofClass: CSCustomAttributeKey.self, from: data.prefix(cut))
        }
        XCTAssertThrowsError(try NSKeyedUnarchiver.unarchivedObject(ofClass: CSCustomAttributeKey.self, from: Data([1])))
    }
}

/// An app's key subclass that overrides the accessors instead of passing flags to the initialiser.
private final class OverridingAttributeKey: CSCustomAttributeKey, @unchecked Sendable {
    override var keyName: String { "app_topic" }
    override var isSearchableByDefault: Bool { true }
    override var isMultiValued: Bool { true }
}

final class CustomAttributeSubclassTests: XCTestCase {
    /// A subclass overriding `keyName` and the flags: the value was stored under the overridden name but with the
    /// base initialiser's flags (and name), so free text ignored a key searched by default and the stored key
    /// disagreed with the one the app holds. Every read now goes through the overridable accessors.
    func testASubclassesOverriddenNameAndFlagsAreWhatIsStoredAndSearched() throws {
        let key = try XCTUnwrap(OverridingAttributeKey(keyName: "placeholder"))
        let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
        set.setValue("zanzibar", forCustomKey: key)
        let entry = try XCTUnwrap(set.snapshot.custom["app_topic"])
        XCTAssertEqual(entry.key, CustomAttributeKeyInfo(keyName: "app_topic", isSearchableByDefault: true,
                                                         isMultiValued: true))
        XCTAssertEqual(set.value(forCustomKey: key) as? NSString, "zanzibar")
        let container = makeContainer([CSSearchableItem(uniqueIdentifier: "one", domainIdentifier: nil,
                                                        attributeSet: set)])
        XCTAssertEqual(runUserQuery("zanzibar", in: container).items.map(\.uniqueIdentifier), ["one"])
        XCTAssertEqual(try evaluate(#"app_topic == "zanzibar""#, in: container), ["one"])
    }
}
