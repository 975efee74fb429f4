import Foundation
import XCTest
@testable import Searchlight

final class SearchableItemTests: XCTestCase {
    func testNilIdentifierBecomesUUID() {
        let a = CSSearchableItem(uniqueIdentifier: nil, domainIdentifier: nil, attributeSet: CSSearchableItemAttributeSet())
        let b = CSSearchableItem(uniqueIdentifier: nil, domainIdentifier: nil, attributeSet: CSSearchableItemAttributeSet())
        XCTAssertNotNil(UUID(uuidString: a.uniqueIdentifier))
        XCTAssertNotEqual(a.uniqueIdentifier, b.uniqueIdentifier)
        XCTAssertEqual(CSSearchableItem(uniqueIdentifier: "x", domainIdentifier: "d", attributeSet: .init()).uniqueIdentifier, "x")
    }

    func testExpirationDefaultsToOneMonthAndIsNullResettable() {
        let item = CSSearchableItem(uniqueIdentifier: "1", domainIdentifier: nil, attributeSet: .init())
        let before = Date()
        let expiration: Date = item.expirationDate
        let days = expiration.timeIntervalSince(before) / 86_400
        XCTAssertTrue((27.9...31.1).contains(days), "default expiration is one month, got \(days) days")
        XCTAssertNil(item.explicitExpirationDate)

        let fixed = Date(timeIntervalSinceReferenceDate: 900_000_000)
        item.expirationDate = fixed
        XCTAssertEqual(item.expirationDate, fixed)
        XCTAssertEqual(item.explicitExpirationDate, fixed)
        item.expirationDate = nil
        XCTAssertNil(item.explicitExpirationDate)
        XCTAssertNotEqual(item.expirationDate, fixed)

        // The index fixes the default relative to indexing time, by calendar month.
        let jan31 = ISO8601DateCoding.date(from: "2026-01-31T12:00:00Z")!
        XCTAssertEqual(ISO8601DateCoding.string(from: item.effectiveExpirationDate(indexedAt: jan31)), "2026-02-28T12:00:00Z")
        let jun15 = ISO8601DateCoding.date(from: "2026-06-15T00:00:00Z")!
        XCTAssertEqual(ISO8601DateCoding.string(from: item.effectiveExpirationDate(indexedAt: jun15)), "2026-07-15T00:00:00Z")
        item.expirationDate = Date.distantFuture
        XCTAssertEqual(item.effectiveExpirationDate(indexedAt: jun15), Date.distantFuture)
    }

    func testDefaultsAndOptions() {
        let item = CSSearchableItem(uniqueIdentifier: "1", domainIdentifier: "a.b", attributeSet: .init())
        XCTAssertFalse(item.isUpdate)
        XCTAssertEqual(item.updateListenerOptions, .default)
        XCTAssertEqual(CSSearchableItem.UpdateListenerOptions.default.rawValue, 0)
        XCTAssertEqual(CSSearchableItem.UpdateListenerOptions.summarization.rawValue, 2)
        XCTAssertEqual(CSSearchableItem.UpdateListenerOptions.priority.rawValue, 4)
        item.updateListenerOptions = [.summarization, .priority]
        XCTAssertEqual(item.updateListenerOptions.rawValue, 6)
    }

    func testCompareByRank() {
        let a = CSSearchableItem(uniqueIdentifier: "a", domainIdentifier: nil, attributeSet: .init())
        let b = CSSearchableItem(uniqueIdentifier: "b", domainIdentifier: nil, attributeSet: .init())
        a.rank = 2; b.rank = 1
        XCTAssertEqual(a.compare(byRank: b), .orderedAscending)
        XCTAssertEqual(b.compare(byRank: a), .orderedDescending)
        b.rank = 2
        XCTAssertEqual(a.compare(byRank: b), .orderedSame)
        let sorted = [b, a].sorted { $0.compare(byRank: $1) == .orderedAscending }
        XCTAssertEqual(sorted.count, 2)
    }

    func testCopyIsDeep() {
        let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
        set.title = "t"
        let item = CSSearchableItem(uniqueIdentifier: "1", domainIdentifier: "d", attributeSet: set)
        item.isUpdate = true
        item.expirationDate = Date(timeIntervalSinceReferenceDate: 5)
        item.rank = 3
        guard let copy = item.copy() as? CSSearchableItem else { return XCTFail("copy must be an item") }
        set.title = "changed"
        item.domainIdentifier = "other"
        XCTAssertEqual(copy.attributeSet.title, "t")
        XCTAssertEqual(copy.domainIdentifier, "d")
        XCTAssertTrue(copy.isUpdate)
        XCTAssertEqual(copy.explicitExpirationDate, Date(timeIntervalSinceReferenceDate: 5))
        XCTAssertEqual(copy.rank, 3)
    }

    /// Apple's item overrides `isEqual:` and `hash`: a copy or a decoded archive equals the original.
    func testEqualityComparesContents() throws {
        let set = CSSearchableItemAttributeSet(contentType: .text)
        set.title = "t"
        let item = CSSearchableItem(uniqueIdentifier: "1", domainIdentifier: "d", attributeSet: set)
        item.expirationDate = Date(timeIntervalSinceReferenceDate: 5)
        item.isUpdate = true
        let copy = try XCTUnwrap(item.copy() as? CSSearchableItem)
        XCTAssertEqual(copy, item)
        XCTAssertEqual(copy.hash, item.hash)
        let data = try NSKeyedArchiver.archivedData(withRootObject: item, requiringSecureCoding: true)
        let decoded = try XCTUnwrap(NSKeyedUnarchiver.unarchivedObject(ofClass: CSSearchableItem.self, from: data))
        XCTAssertEqual(decoded, item)
        XCTAssertEqual(decoded.hash, item.hash)

        copy.attributeSet.title = "other"
        XCTAssertNotEqual(copy, item)
        decoded.domainIdentifier = nil
        XCTAssertNotEqual(decoded, item)
        let other = CSSearchableItem(uniqueIdentifier: "2", domainIdentifier: "d", attributeSet: set)
        other.expirationDate = item.expirationDate
        other.isUpdate = true
        XCTAssertNotEqual(other, item)
        XCTAssertFalse(item.isEqual(set))
    }

    /// Identifiers are told apart by their bytes, as NSString's `isEqual:` and the index tell them apart: items
    /// whose identifiers (or domains) are canonically equivalent spellings ('caf\u{E9}', 'cafe\u{301}') are two
    /// items of the index, so they are not equal (Swift's String == called them equal).
    func testEqualityTellsCanonicallyEquivalentIdentifiersApart() {
        let set = CSSearchableItemAttributeSet(contentType: .text)
        let composed = CSSearchableItem(uniqueIdentifier: "caf\u{E9}", domainIdentifier: "d", attributeSet: set)
        let decomposed = CSSearchableItem(uniqueIdentifier: "cafe\u{301}", domainIdentifier: "d", attributeSet: set)
        XCTAssertNotEqual(composed, decomposed)
        XCTAssertEqual(Set([composed, decomposed]).count, 2)
        let inComposed = CSSearchableItem(uniqueIdentifier: "1", domainIdentifier: "caf\u{E9}", attributeSet: set)
        let inDecomposed = CSSearchableItem(uniqueIdentifier: "1", domainIdentifier: "cafe\u{301}", attributeSet: set)
        XCTAssertNotEqual(inComposed, inDecomposed)
        XCTAssertEqual(inComposed, inComposed.copy() as? CSSearchableItem)
    }

    func testApplyingUpdate() {
        let storedSet = CSSearchableItemAttributeSet(itemContentType: "public.text")
        storedSet.title = "Title"
        storedSet.keywords = ["k"]
        storedSet.rating = 3
        let stored = CSSearchableItem(uniqueIdentifier: "1", domainIdentifier: "acct.inbox", attributeSet: storedSet)
        let expiration = Date(timeIntervalSinceReferenceDate: 800_000_000)
        stored.expirationDate = expiration

        let updateSet = CSSearchableItemAttributeSet()
        updateSet.keywords = nil
        updateSet.rating = 5
        let update = CSSearchableItem(uniqueIdentifier: "1", domainIdentifier: nil, attributeSet: updateSet)
        update.isUpdate = true

        let merged = stored.applying(update: update)
        XCTAssertEqual(merged.attributeSet.title, "Title")
        XCTAssertEqual(merged.attributeSet.rating, 5)
        XCTAssertNil(merged.attributeSet.keywords)
        XCTAssertNil(merged.attributeSet.slot(forAttribute: "keywords"), "stored result has no tombstones")
        XCTAssertEqual(merged.domainIdentifier, "acct.inbox")
        XCTAssertEqual(merged.explicitExpirationDate, expiration)
        XCTAssertFalse(merged.isUpdate)
        XCTAssertEqual(stored.attributeSet.keywords, ["k"], "inputs unchanged")
    }

    /// Apple's item is `NSSecureCoding`: a keyed archive keeps its identifiers, the expiration date the caller set
    /// (or its absence), `isUpdate`, the listener options and the attribute set.
    func testItemArchivesAndUnarchives() throws {
        XCTAssertTrue(CSSearchableItem.supportsSecureCoding)
        let set = CSSearchableItemAttributeSet(contentType: .text)
        set.title = "Title"
        set.rating = 3
        let item = CSSearchableItem(uniqueIdentifier: "id-1", domainIdentifier: "mail.inbox", attributeSet: set)
        item.expirationDate = Date(timeIntervalSinceReferenceDate: 900_000_000.25)
        item.isUpdate = true
        item.updateListenerOptions = [.summarization, .priority]
        let data = try NSKeyedArchiver.archivedData(withRootObject: item, requiringSecureCoding: true)
        let back = try XCTUnwrap(NSKeyedUnarchiver.unarchivedObject(ofClass: CSSearchableItem.self, from: data))
        XCTAssertEqual(back.uniqueIdentifier, "id-1")
        XCTAssertEqual(back.domainIdentifier, "mail.inbox")
        XCTAssertEqual(back.explicitExpirationDate, item.explicitExpirationDate)
        XCTAssertTrue(back.isUpdate)
        XCTAssertEqual(back.updateListenerOptions, [.summarization, .priority])
        XCTAssertEqual(back.attributeSet.snapshot, set.snapshot)

        let plain = CSSearchableItem(uniqueIdentifier: "id-2", domainIdentifier: nil, attributeSet: .init())
        let plainData = try NSKeyedArchiver.archivedData(withRootObject: plain, requiringSecureCoding: true)
        let plainBack = try XCTUnwrap(NSKeyedUnarchiver.unarchivedObject(ofClass: CSSearchableItem.self, from: plainData))
        XCTAssertNil(plainBack.domainIdentifier)
        XCTAssertNil(plainBack.explicitExpirationDate, "the default expiration still applies")
        XCTAssertFalse(plainBack.isUpdate)
        XCTAssertEqual(plainBack.updateListenerOptions, .default)
        XCTAssertTrue(plainBack.attributeSet.snapshot.isEmpty)

        // A corrupt archive fails to decode instead of crashing.
        for cut in stride(from: 0, to: data.count, by: 7) {
            _ = try? NSKeyedUnarchiver.unarchivedObject(ofClass: CSSearchableItem.self, from: data.prefix(cut))
        }
        XCTAssertThrowsError(try NSKeyedUnarchiver.unarchivedObject(ofClass: CSSearchableItem.self, from: Data([0, 1, 2])))
    }

    /// An item holding a custom value (or `emailHeaders` value) nested past the kept depth archives and unarchives
    /// whole, and validation refuses it as it does the original: the archive did not decode (the reader refused the
    /// placeholder's element), losing every other attribute.
    func testItemWithTooDeepValueArchivesAndUnarchives() throws {
        var value: Any = "leaf"
        for _ in 0..<40 { value = [value, 1] as [Any] }
        for (name, set) in [("custom", CSSearchableItemAttributeSet(contentType: .text)),
                            ("headers", CSSearchableItemAttributeSet(contentType: .text))] {
            set.title = "keep me"
            if name == "custom" {
                set.setValue(value, forCustomKey: try XCTUnwrap(CSCustomAttributeKey(keyName: "deep")))
            } else {
                set.emailHeaders = ["x-deep": [value]]
            }
            let item = CSSearchableItem(uniqueIdentifier: "deep-item", domainIdentifier: nil, attributeSet: set)
            XCTAssertThrowsError(try item.validate(), name)
            let data = try NSKeyedArchiver.archivedData(withRootObject: item, requiringSecureCoding: true)
            let back = try NSKeyedUnarchiver.unarchivedObject(ofClass: CSSearchableItem.self, from: data)
            XCTAssertEqual(back?.attributeSet.snapshot, set.snapshot, name)
            XCTAssertEqual(back?.attributeSet.title, "keep me", name)
            XCTAssertThrowsError(try back?.validate(), name)
        }
    }
}

final class ValidationTests: XCTestCase {
    private func problems(_ configure: (CSSearchableItem) -> Void) -> [String] {
        let item = CSSearchableItem(uniqueIdentifier: "item-1", domainIdentifier: nil, attributeSet: CSSearchableItemAttributeSet())
        configure(item)
        let messages = item.validationProblems().map(\.message)
        // The cheap pre-check indexing runs first never passes an item with a problem.
        if !messages.isEmpty { XCTAssertTrue(item.hasValidationProblems, "\(messages)") }
        return messages
    }

    func testThePreCheckPassesOrdinaryItemsAndFlagsOnlyToLookCloser() {
        let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
        set.title = "ok"; set.keywords = ["a", "b"]; set.rankingHint = 100; set.domainIdentifier = "a.b"
        set.setValue(3.5, forCustomKey: CSCustomAttributeKey(keyName: "score")!)
        set.emailHeaders = ["X": [NSNumber(value: 1)]]
        let item = CSSearchableItem(uniqueIdentifier: "1", domainIdentifier: "a.b.c", attributeSet: set)
        XCTAssertFalse(item.hasValidationProblems)
        // A '.' byte inside a larger grapheme is not a separator: flagged, and then found valid.
        XCTAssertEqual(problems { $0.domainIdentifier = "a..\u{301}b" }, [])
        XCTAssertEqual(problems {
            $0.attributeSet.providerDataTypeIdentifiers = ["public.png"]
            $0.attributeSet.providerFileTypeIdentifiers = ["public.jpeg"]
        }, [])
        for id in ["", "\u{0}activity"] {
            XCTAssertTrue(CSSearchableItem(uniqueIdentifier: id, domainIdentifier: nil, attributeSet: .init()).hasValidationProblems)
        }
    }

    func testValidItemPasses() throws {
        let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
        set.title = "ok"; set.latitude = 1; set.rankingHint = 100
        let item = CSSearchableItem(uniqueIdentifier: "1", domainIdentifier: "a.b.c", attributeSet: set)
        XCTAssertNoThrow(try item.validate())
    }

    func testEmptyIdentifier() {
        let item = CSSearchableItem(uniqueIdentifier: "", domainIdentifier: nil, attributeSet: .init())
        XCTAssertEqual(item.validationProblems().map(\.message), ["item has an empty uniqueIdentifier"])
    }

    func testDomainIdentifiers() {
        for bad in ["a..b", ".a", "a.", "."] {
            let messages = problems { $0.domainIdentifier = bad }
            XCTAssertEqual(messages, ["item 'item-1': domainIdentifier '\(bad)' has an empty component (leading, trailing or doubled '.')"])
        }
        XCTAssertEqual(problems { $0.domainIdentifier = "" }, ["item 'item-1': domainIdentifier '' is empty (use nil for no domain)"])
        XCTAssertEqual(problems { $0.attributeSet.domainIdentifier = "x..y" },
                       ["item 'item-1': attribute 'domainIdentifier' 'x..y' has an empty component (leading, trailing or doubled '.')"])
        XCTAssertEqual(problems { $0.domainIdentifier = "acct1.inbox" }, [])
    }

    func testNonFiniteNumbers() {
        XCTAssertEqual(problems { $0.attributeSet.latitude = NSNumber(value: Double.nan) },
                       ["item 'item-1': attribute 'latitude' holds the non-finite number nan"])
        XCTAssertEqual(problems { $0.attributeSet.altitude = NSNumber(value: Double.infinity) },
                       ["item 'item-1': attribute 'altitude' holds the non-finite number inf"])
        XCTAssertEqual(problems { $0.attributeSet.setValue(-Double.infinity, forCustomKey: CSCustomAttributeKey(keyName: "score")!) },
                       ["item 'item-1': custom attribute 'score' holds the non-finite number -inf"])
        XCTAssertEqual(problems { $0.attributeSet.emailHeaders = ["X": [NSNumber(value: Double.nan)]] },
                       ["item 'item-1': attribute 'emailHeaders' holds the non-finite number nan"])
    }

    func testRankingHintRange() {
        XCTAssertEqual(problems { $0.attributeSet.rankingHint = 101 },
                       ["item 'item-1': attribute 'rankingHint' is 101, outside 0...100"])
        XCTAssertEqual(problems { $0.attributeSet.rankingHint = -1 },
                       ["item 'item-1': attribute 'rankingHint' is -1, outside 0...100"])
        XCTAssertEqual(problems { $0.attributeSet.rankingHint = 0 }, [])
    }

    func testProviderTypeInOneArrayOnly() {
        let messages = problems {
            $0.attributeSet.providerDataTypeIdentifiers = ["public.png"]
            $0.attributeSet.providerFileTypeIdentifiers = ["public.png", "public.jpeg"]
        }
        XCTAssertEqual(messages, ["item 'item-1': type 'public.png' appears in both 'providerDataTypeIdentifiers' and "
            + "'providerFileTypeIdentifiers'; it may be in only one"])
    }

    func testValidateThrowsTypedErrorWithFirstProblem() {
        let item = CSSearchableItem(uniqueIdentifier: "", domainIdentifier: "a..b", attributeSet: .init())
        do throws(CSIndexError) {
            try item.validate()
            XCTFail("must throw")
        } catch {
            XCTAssertEqual(error.code, .invalidItemError)
            XCTAssertEqual(error.message, "item has an empty uniqueIdentifier")
        }
        XCTAssertEqual(item.validationProblems().count, 2)
        XCTAssertTrue(item.validationProblems()[1].message.hasPrefix("item with empty uniqueIdentifier: domainIdentifier"))
    }
}
