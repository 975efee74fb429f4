import XCTest
@testable import SearchlightEngine

/// `IndexSnapshot.numericMatches` and `smallestNumber` read each segment's values in order (`NumericOrder`);
/// they must find exactly what `.range` and a walk over every live document find.
final class NumericOrderTests: XCTestCase {
    func testSortedReadsEqualTheRangeQueryAndAWalkForRandomValuesDeletesAndBounds() throws {
        var random = SeededLCG(seed: 7)
        let writer = IndexWriter()
        let size = try writer.registerField("size", .numeric)
        let title = try writer.registerField("title", .text(weight: 1))
        // Several segments, multi-valued and valueless documents, NaN, duplicates, and deletes and replacements.
        for round in 0..<6 {
            for i in 0..<80 {
                var values: [(FieldID, FieldValue)] = [(title, .text("x"))]
                for _ in 0..<random.below(3) {
                    let value = random.below(20) == 0 ? Double.nan : Double(random.below(50)) / 2
                    values.append((size, .number(value)))
                }
                try writer.upsert(Document(id: "d\(random.below(300))", values: values))
                if i % 7 == round { writer.delete(ids: ["d\(random.below(300))"]) }
            }
            _ = try writer.commit()
        }
        let snapshot = writer.snapshot
        XCTAssertGreaterThan(snapshot.stats.segments, 1)
        let bounds: [NumericBound?] = [nil] + stride(from: -1.0, through: 26, by: 0.5).flatMap {
            [NumericBound.inclusive($0), .exclusive($0)]
        }
        for lower in bounds {
            for upper in bounds where random.below(4) == 0 {
                var examined = 0
                XCTAssertEqual(snapshot.numericMatches(size, lower: lower, upper: upper, examined: &examined),
                               snapshot.matches(.range(size, lower: lower, upper: upper)),
                               "\(lower as Any) \(upper as Any)")
            }
            let walked = smallestByWalk(size, lower: lower, in: snapshot)
            var examined = 0
            XCTAssertEqual(snapshot.smallestNumber(size, lower: lower, examined: &examined), walked, "\(lower as Any)")
        }
    }

    /// Signed zeros, infinities and NaN as values and bounds, documents with several values in range (matched
    /// once), deleted and valueless ones: the sorted reads agree with `.range` and a walk.
    func testSignedZerosInfinitiesAndRepeatedValuesReadLikeTheRangeQuery() throws {
        let writer = IndexWriter()
        let size = try writer.registerField("size", .numeric)
        let title = try writer.registerField("title", .text(weight: 1))
        let special: [Double] = [-.infinity, -1, -0.0, 0.0, 1, .infinity, .nan]
        for round in 0..<3 {
            for (i, value) in special.enumerated() {
                var values: [(FieldID, FieldValue)] = [(title, .text("x"))]
                // One value, the value twice, and a signed-zero pair with it: several in range, one document.
                values.append((size, .number(value)))
                if i % 3 != 0 { values.append((size, .number(value))) }
                if i % 3 == 2 { values += [(size, .number(-0.0)), (size, .number(0.0))] }
                try writer.upsert(Document(id: "r\(round)-\(i)", values: values))
            }
            try writer.upsert(Document(id: "none\(round)", values: [(title, .text("x"))]))
            if round > 0 { writer.delete(ids: ["r\(round - 1)-2", "r\(round - 1)-5"]) }
            _ = try writer.commit()
        }
        let snapshot = writer.snapshot
        let bounds: [NumericBound?] = [nil] + special.flatMap { [NumericBound.inclusive($0), .exclusive($0)] }
        for lower in bounds {
            for upper in bounds {
                var examined = 0
                let sorted = snapshot.numericMatches(size, lower: lower, upper: upper, examined: &examined)
                XCTAssertEqual(sorted, snapshot.matches(.range(size, lower: lower, upper: upper)),
                               "\(lower as Any) \(upper as Any)")
                XCTAssertEqual(Set(sorted).count, sorted.count, "\(lower as Any) \(upper as Any)")
            }
            let walked = smallestByWalk(size, lower: lower, in: snapshot)
            var examined = 0
            let smallest = snapshot.smallestNumber(size, lower: lower, examined: &examined)
            XCTAssertEqual(smallest, walked, "\(lower as Any)")
        }
    }

    /// The smallest value of `field` within `lower` that a live document holds, by reading every document.
    private func smallestByWalk(_ field: FieldID, lower: NumericBound?, in snapshot: IndexSnapshot) -> Double? {
        var smallest: Double?
        for address in snapshot.matches(.all) {
            for value in snapshot.numbers(field, of: address)
            where NumericBound.contains(value, lower: lower, upper: nil) {
                smallest = min(smallest ?? value, value)
            }
        }
        return smallest
    }
}
