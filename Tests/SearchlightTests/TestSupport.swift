import Foundation
import XCTest
@testable import Searchlight

/// The repository's Fixtures/ folder, found from this file's path.
let fixturesDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures")

/// A sample value of each kind, as the caller passes it and as it is stored.
func sample(for descriptor: AttributeDescriptor) -> (typed: Any, stored: AttributeValue) {
    let name = descriptor.name
    switch descriptor.kind {
    case .string: return ("value of \(name) – ünïcödé", .string("value of \(name) – ünïcödé"))
    case .strings: return (["\(name) one", "two"], .strings(["\(name) one", "two"]))
    case .number: return (NSNumber(value: 42.25), .number(.double(42.25)))
    case .date:
        let d = Date(timeIntervalSinceReferenceDate: 815_000_000.125)
        return (d, .date(d))
    case .dates:
        let ds = [Date(timeIntervalSinceReferenceDate: 700_000_000), Date(timeIntervalSinceReferenceDate: 815_000_000.5)]
        return (ds, .dates(ds))
    case .url:
        let u = URL(string: "https://example.com/\(name)?q=1")!
        return (u, .url(u))
    case .data: return (Data([0, 1, 2, 254, 255]), .data(Data([0, 1, 2, 254, 255])))
    case .persons:
        let p = PersonValue(displayName: "Ann Example", handles: ["ann@example.com", "+1 555 0100"], handleIdentifier: "email")
        return ([CSPerson(p)], .persons([p]))
    case .headers:
        let h: [String: [Any]] = ["From": ["ann@example.com"], "X-Count": [NSNumber(value: 3)]]
        return (h, .headers(["From": [.string("ann@example.com")], "X-Count": [.number(.int(3))]]))
    case .uniformType: return (UTType.png, .string("public.png"))
    }
}

/// What a typed getter returned, converted to the stored form for comparison.
func storedForm(ofTyped value: Any?, kind: AttributeKind) -> AttributeValue? {
    guard let value else { return nil }
    switch kind {
    case .string: return (value as? String).map(AttributeValue.string)
    case .strings: return (value as? [String]).map(AttributeValue.strings)
    case .number: return (value as? NSNumber).map { .number(AttributeNumber($0)) }
    case .date: return (value as? Date).map(AttributeValue.date)
    case .dates: return (value as? [Date]).map(AttributeValue.dates)
    case .url: return (value as? URL).map(AttributeValue.url)
    case .data: return (value as? Data).map(AttributeValue.data)
    case .persons: return (value as? [CSPerson]).map { .persons($0.map(\.value)) }
    case .headers: return (value as? [String: [Any]]).map { .headers($0.mapValues { $0.map(AttributeValue.fromCustom) }) }
    case .uniformType: return (value as? UTType).map { .string($0.identifier) }
    }
}

/// JSON round trip of an item through bytes.
func roundTrip(_ item: CSSearchableItem, file: StaticString = #filePath, line: UInt = #line) throws -> CSSearchableItem {
    let data = try ItemJSON.encode(item)
    XCTAssertFalse(data.contains(0x0A), "encoded item must be one line", file: file, line: line)
    return try ItemJSON.decodeItem(from: data)
}

/// Asserts that `body` throws an `InterchangeError` and returns it.
func interchangeError(_ body: () throws -> Void, file: StaticString = #filePath, line: UInt = #line) -> InterchangeError? {
    do {
        try body()
        XCTFail("expected an InterchangeError", file: file, line: line)
    } catch let error as InterchangeError {
        return error
    } catch {
        XCTFail("unexpected error \(error)", file: file, line: line)
    }
    return nil
}
