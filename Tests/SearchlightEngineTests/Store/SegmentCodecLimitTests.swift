import Foundation
import XCTest
@testable import SearchlightEngine

/// A segment of format version 3 (every block as varints) is rewritten in the packed layout as it loads: past
/// the 32-bit offsets its postings may take (injected small here) that is a checked error, never offsets
/// silently truncated to 32 bits.
final class SegmentCodecLimitTests: XCTestCase {
    func testRewritingAnOldSegmentPastItsPostingLimitThrowsInsteadOfTruncatingOffsets() throws {
        let writer = IndexWriter()
        let body = try writer.registerField("body", .text())
        for i in 0..<600 {
            let text = "common w\(i % 7) v\(i % 150) " + (i % 3 == 0 ? "rare\(i)" : "")
            try writer.upsert(Document(id: "d\(i)", values: [(body, .text(text))]))
        }
        let segment = try XCTUnwrap(writer.commit().segments.first)
        var out = ByteWriter()
        SegmentCodec.encode(segment, into: &out, version: 3)
        let fieldCount = writer.schema.fields.count
        func decode(_ maxBytes: Int) -> Result<Segment, ByteReader.Malformed> {
            out.bytes.withUnsafeBytes { raw in
                Result { () throws(ByteReader.Malformed) -> Segment in
                    var reader = ByteReader(raw)
                    return try SegmentCodec.decode(&reader, fieldCount: fieldCount, version: 3, maxPostingBytes: maxBytes)
                }
            }
        }
        let needed = try decode(Int(UInt32.max)).get()
        XCTAssertEqual(needed.differences(from: segment), [])
        let size = needed.docBytes.count
        for maxBytes in stride(from: 0, through: size + 1, by: max(1, size / 200)) + [size - 1, size, size + 1] {
            switch decode(maxBytes) {
            case .success(let read):
                XCTAssertGreaterThanOrEqual(maxBytes, size, "limit \(maxBytes)")
                XCTAssertEqual(read.differences(from: segment), [], "limit \(maxBytes)")
            case .failure(let error):
                XCTAssertLessThan(maxBytes, size, "limit \(maxBytes): \(error.reason)")
                XCTAssertTrue(error.reason.contains("pass \(maxBytes) bytes"), error.reason)
            }
        }
    }
}
