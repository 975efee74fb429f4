import XCTest
@testable import SearchlightEngine

/// The postings codec: `varint(doc delta << 1 | tf == 1)`, then `varint(tf)` only when tf > 1. Every
/// document, frequency and position must come back through the cursor, across blocks, large gaps
/// (multi-byte deltas) and merges (which re-encode the postings).
final class PostingEncodingTests: XCTestCase {
    func testDocumentsFrequenciesAndPositionsRoundTrip() throws {
        let writer = IndexWriter()
        let body = try writer.registerField("body", .text())
        var expected: [String: Int] = [:]
        var docNumber = 0
        for i in 0..<700 {
            // Gaps of 0...200 filler documents make deltas of one, two and three varint bytes.
            let gap = (i * 37) % 201
            for _ in 0..<gap {
                try writer.upsert(Document(id: "f\(docNumber)", values: [(body, .text("filler"))]))
                docNumber += 1
            }
            let tf = i % 4 == 0 ? 1 + i % 9 : 1
            let text = (0..<tf).map { "w x\($0)" }.joined(separator: " ")
            try writer.upsert(Document(id: "d\(docNumber)", values: [(body, .text(text))]))
            expected["d\(docNumber)"] = tf
            docNumber += 1
            if i == 350 { _ = try writer.commit() }
        }
        for pass in 0..<2 {
            let snapshot = try writer.commit()
            XCTAssertEqual(snapshot.segments.count, pass == 0 ? 2 : 1)
            var got: [String: Int] = [:]
            for (ordinal, segment) in snapshot.segments.enumerated() {
                var previous = -1
                let terms = try XCTUnwrap(segment.terms(body))
                let index = try XCTUnwrap(Array("w".utf8).withUnsafeBufferPointer { terms.find($0) })
                let cursor = PostingCursor(segment: segment, terms: terms, index: index, field: Int(body.rawValue))
                var positions: [UInt32] = []
                while cursor.next() != PostingCursor.end {
                    positions.removeAll()
                    cursor.positions(into: &positions)
                    XCTAssertEqual(positions, (0..<Int(cursor.tf)).map { UInt32(2 * $0) }, "pass \(pass)")
                    XCTAssertGreaterThan(cursor.doc, previous)
                    previous = cursor.doc
                    let id = try XCTUnwrap(snapshot.id(of: DocAddress(segment: UInt32(ordinal), doc: UInt32(cursor.doc))))
                    XCTAssertNil(got.updateValue(Int(cursor.tf), forKey: id))
                }
            }
            XCTAssertEqual(got, expected, "pass \(pass)")
            // Advancing (skip data, galloping) lands on the same documents.
            let all = snapshot.matches(.term("w")).count
            XCTAssertEqual(all, expected.count)
            // Advancing from the start to every expected document (skip entries, in-block scans).
            for segment in snapshot.segments {
                let terms = try XCTUnwrap(segment.terms(body))
                let index = try XCTUnwrap(Array("w".utf8).withUnsafeBufferPointer { terms.find($0) })
                var all: [Int] = []
                let walker = PostingCursor(segment: segment, terms: terms, index: index, field: Int(body.rawValue))
                while walker.next() != PostingCursor.end { all.append(walker.doc) }
                let skipper = PostingCursor(segment: segment, terms: terms, index: index, field: Int(body.rawValue))
                for target in stride(from: 0, to: all.count, by: 7) {
                    let wanted = all[target] - (target % 2)
                    XCTAssertEqual(skipper.advance(wanted), all.first { $0 >= wanted })
                }
            }
            // Second pass: one merged segment, its postings re-encoded from the first.
            writer.mergePolicy = MergePolicy(maxSegments: 1, mergeFactor: 2, maxDeletedFraction: 0.4)
            writer.delete(ids: ["nonexistent"])
            try writer.registerField("other", .text())
        }
    }
}
