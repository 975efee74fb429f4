import XCTest
@testable import SearchlightEngine

/// Stored records decode field by field: a subset of fields (below and above the 64-field bitmask) and the
/// texts of one field give exactly what filtering a full decode gives, in order, also for truncated records.
final class StoredFieldsTests: XCTestCase {
    let values: [(FieldID, FieldValue)] = [
        (FieldID(rawValue: 3), .text("first")), (FieldID(rawValue: 70), .text("über 70")),
        (FieldID(rawValue: 5), .number(2.5)), (FieldID(rawValue: 70), .text("second")),
        (FieldID(rawValue: 64), .bytes([1, 2, 3])), (FieldID(rawValue: 3), .text("")),
    ]

    func decoded(_ bytes: [UInt8], fields: Set<FieldID>) -> [(FieldID, FieldValue)] {
        bytes.withUnsafeBufferPointer { StoredFields.decode($0, fields: fields) }
    }

    func testSubsetsAndTextsEqualFilteringAFullDecode() {
        var bytes: [UInt8] = []
        StoredFields.encode(values, into: &bytes)
        let full = bytes.withUnsafeBufferPointer { StoredFields.decode($0) }
        XCTAssertEqual(full.map(\.0), values.map(\.0))
        for fields: Set<FieldID> in [[], [FieldID(rawValue: 3)], [FieldID(rawValue: 70), FieldID(rawValue: 5)],
                                     [FieldID(rawValue: 64), FieldID(rawValue: 3)], Set(values.map(\.0))] {
            let subset = decoded(bytes, fields: fields)
            let expected = full.filter { fields.contains($0.0) }
            XCTAssertEqual(subset.map(\.0), expected.map(\.0), "\(fields)")
            XCTAssertEqual(subset.map(\.1), expected.map(\.1), "\(fields)")
        }
        for field in [3, 70, 5, 64, 9].map({ FieldID(rawValue: $0) }) {
            let texts = bytes.withUnsafeBufferPointer { StoredFields.texts($0, field: field) }
            XCTAssertEqual(texts, full.compactMap { $0.0 == field ? ($0.1.textValue) : nil }, "field \(field.rawValue)")
        }
    }

    /// `anyText` tests the raw bytes of the field's text values only (not other fields', not numbers or
    /// bytes), stops at the first that passes, and agrees with testing the decoded texts.
    func testAnyTextTestsTheFieldsTextValuesOnly() {
        var bytes: [UInt8] = []
        StoredFields.encode(values, into: &bytes)
        func anyText(_ field: Int, _ test: (String) -> Bool) -> (found: Bool, seen: [String]) {
            var seen: [String] = []
            let found = bytes.withUnsafeBufferPointer { record in
                StoredFields.anyText(record, field: FieldID(rawValue: UInt16(field))) { utf8 in
                    let text = String(decoding: utf8, as: UTF8.self)
                    seen.append(text)
                    return test(text)
                }
            }
            return (found, seen)
        }
        XCTAssertEqual(anyText(70) { _ in false }.seen, ["über 70", "second"])
        XCTAssertEqual(anyText(70) { _ in false }.found, false)
        XCTAssertEqual(anyText(70) { $0 == "über 70" }.seen, ["über 70"], "stops at the first match")
        XCTAssertEqual(anyText(70) { $0 == "second" }.found, true)
        XCTAssertEqual(anyText(3) { $0.isEmpty }.found, true)
        XCTAssertEqual(anyText(3) { $0 == "über 70" }.found, false, "another field's value")
        XCTAssertEqual(anyText(5) { _ in true }.found, false, "a number is not text")
        XCTAssertEqual(anyText(64) { _ in true }.found, false, "bytes are not text")
    }

    /// A record cut anywhere yields a prefix of its values and never reads past the end.
    func testTruncatedRecordsYieldAPrefix() {
        var bytes: [UInt8] = []
        StoredFields.encode(values, into: &bytes)
        for cut in 0..<bytes.count {
            let part = Array(bytes[..<cut])
            let texts = part.withUnsafeBufferPointer { StoredFields.texts($0, field: FieldID(rawValue: 70)) }
            XCTAssertTrue(["über 70", "second"].starts(with: texts), "cut \(cut): \(texts)")
            let subset = decoded(part, fields: [FieldID(rawValue: 70)])
            XCTAssertLessThanOrEqual(subset.count, 2)
        }
    }
}

extension FieldValue {
    var textValue: String? { if case .text(let t) = self { return t } else { return nil } }
}
