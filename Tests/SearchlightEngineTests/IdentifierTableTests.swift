import XCTest
@testable import SearchlightEngine

final class IdentifierTableTests: XCTestCase {
    /// Random upserts and deletes of a few hundred ids through hashes that collide on purpose (one of 7 values),
    /// so probes pass over other ids and removed slots: the table answers what a dictionary answers.
    func testCollidingIdsMatchADictionary() {
        var generator = SeededLCG(seed: 0x1D7AB1E)
        func random(_ bound: Int) -> Int { generator.below(bound) }
        var table = IdentifierTable()
        var reference: [Int: Int] = [:]  // id → doc
        var idOfDoc: [Int] = []
        for _ in 0..<40_000 {
            let id = random(300)
            let hash = UInt64(id % 7) &* 0x9E37_79B9_7F4A_7C15
            if random(3) == 0 {
                let removed = table.remove(hash: hash) { idOfDoc[$0] == id }
                XCTAssertEqual(removed, reference.removeValue(forKey: id), "remove \(id)")
            } else {
                let doc = idOfDoc.count
                idOfDoc.append(id)
                let previous = table.insert(doc, hash: hash) { $0 != doc && idOfDoc[$0] == id }
                XCTAssertEqual(previous, reference.updateValue(doc, forKey: id), "insert \(id)")
            }
        }
    }

    /// Inside one uncommitted batch: a second version displaces the first, a delete by id or by domain removes
    /// the live version only, and an id deleted then added again is searchable once.
    func testBufferedVersionsAndDeletes() throws {
        let writer = IndexWriter()
        let title = try writer.registerField("title", .text(weight: 1))
        func doc(_ id: String, _ text: String, domain: String? = nil) -> Document {
            Document(id: id, domain: domain, values: [(title, .text(text))])
        }
        try writer.upsert(doc("a", "alpha one"))
        try writer.upsert(doc("b", "beta one", domain: "x.y"))
        try writer.upsert(doc("a", "alpha two"))
        try writer.upsert(doc("c", "gamma one", domain: "x"))
        writer.delete(domains: ["x"])
        try writer.upsert(doc("b", "beta two"))
        writer.delete(ids: ["b"])
        try writer.upsert(doc("b", "beta three"))
        let snapshot = try writer.commit()
        XCTAssertEqual(snapshot.count(.all), 2)
        XCTAssertEqual(snapshot.matches(.term("alpha")).compactMap { snapshot.id(of: $0) }, ["a"])
        XCTAssertEqual(snapshot.matches(.term("two")).compactMap { snapshot.id(of: $0) }, ["a"])
        XCTAssertEqual(snapshot.matches(.term("beta")).compactMap { snapshot.id(of: $0) }, ["b"])
        XCTAssertEqual(snapshot.matches(.term("three")).count, 1)
        XCTAssertTrue(snapshot.matches(.term("gamma")).isEmpty)
        XCTAssertTrue(snapshot.matches(.term("one")).isEmpty)
    }
}
