import Foundation
import XCTest
@testable import Searchlight

final class SchemaTimeTests: XCTestCase {
    func testDates() {
        func iso(_ s: String) -> Date? { ISO8601DateCoding.date(from: s) }
        XCTAssertEqual(SchemaTime.date("2026-12-05"), iso("2026-12-05T00:00:00Z"))
        XCTAssertEqual(SchemaTime.date("2026-12-05T19:30"), iso("2026-12-05T19:30:00Z"))
        XCTAssertEqual(SchemaTime.date(" 2026-12-05 19:30:15 "), iso("2026-12-05T19:30:15Z"))
        XCTAssertEqual(SchemaTime.date("2026-12-05T19:30:00+01:00"), iso("2026-12-05T18:30:00Z"))
        XCTAssertEqual(SchemaTime.date("2026-12-05T19:30:00-0530"), iso("2026-12-06T01:00:00Z"))
        XCTAssertEqual(SchemaTime.date("2026-12-05T19:30:00-05"), iso("2026-12-06T00:30:00Z"))
        XCTAssertEqual(SchemaTime.date("2026-12-05T19:30:00.25Z"), iso("2026-12-05T19:30:00.25Z"))
        XCTAssertEqual(SchemaTime.date("2024-02-29"), iso("2024-02-29T00:00:00Z"))
        for bad in ["", "2026", "2026-13-01", "2026-02-30", "2025-02-29", "2026-12-05T25:00", "2026-12-05T19:30:00+1",
                    "2026-12-05X", "Dec 5, 2026", "2026-12-05T19:30:00.Z", "２０２６-12-05"] {
            XCTAssertNil(SchemaTime.date(bad), bad)
        }
    }

    func testDurations() {
        XCTAssertEqual(SchemaTime.duration("PT1H30M"), 5400)
        XCTAssertEqual(SchemaTime.duration("PT45M"), 2700)
        XCTAssertEqual(SchemaTime.duration("P1DT2H"), 93_600)
        XCTAssertEqual(SchemaTime.duration("PT0.5S"), 0.5)
        XCTAssertEqual(SchemaTime.duration("P2W"), 1_209_600)
        XCTAssertEqual(SchemaTime.duration("PT0M"), 0)
        for bad in ["", "P", "PT", "1H", "PT1X", "PTH", "P1H", "PT1H2D", "PT1HT2M", "PT99999999999999M"] {
            XCTAssertNil(SchemaTime.duration(bad), bad)
        }
    }

    func testNumbers() {
        XCTAssertEqual(SchemaNode.parseNumber("19.99"), 19.99)
        XCTAssertEqual(SchemaNode.parseNumber("1,299.00"), 1299)
        XCTAssertEqual(SchemaNode.parseNumber("1,024"), 1024)
        XCTAssertEqual(SchemaNode.parseNumber("4,5"), 4.5)
        XCTAssertEqual(SchemaNode.parseNumber("-89.6501"), -89.6501)
        XCTAssertNil(SchemaNode.parseNumber("nan"))
        XCTAssertNil(SchemaNode.parseNumber("inf"))
        XCTAssertNil(SchemaNode.parseNumber("1e999"))
        XCTAssertNil(SchemaNode.parseNumber("$5"))
    }

    /// European shops write `1.299,00`: dots group thousands and the comma is the decimal point.
    func testNumbersWithDotThousandsAndDecimalComma() throws {
        XCTAssertEqual(SchemaNode.parseNumber("1.299,00"), 1299)
        XCTAssertEqual(SchemaNode.parseNumber("1.234.567,89"), 1_234_567.89)
        XCTAssertEqual(SchemaNode.parseNumber("1,234,567.89"), 1_234_567.89)
        let page = try extractHTML(##"<script type="application/ld+json">{"@type":"Product","name":"Sofa","##
            + ##""offers":{"@type":"Offer","price":"1.299,00","priceCurrency":"EUR"}}</script>"##)
        XCTAssertEqual(page.product?.price, 1299)
    }
}
