import Foundation
import Synchronization
@testable import SearchlightEngine
import XCTest
@testable import Searchlight

/// A batch converted to engine documents on several threads gives exactly the documents, field ids and field
/// options of converting it item by item in order, also when items part-way through need new fields or change a
/// custom key's options (those are converted again in order, registering).
final class ParallelConversionTests: XCTestCase {
    private func items(count: Int = 600) -> [(item: CSSearchableItem, expiration: Date)] {
        let plain = CSCustomAttributeKey(keyName: "section")!
        let late = CSCustomAttributeKey(keyName: "lateKey")!
        let reflagged = CSCustomAttributeKey(keyName: "section", searchable: true, searchableByDefault: true,
                                             unique: false, multiValued: false)!
        return (0..<count).map { i in
            let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
            set.title = "title \(i)"
            set.contentDescription = "description of item \(i % 17)"
            set.keywords = i % 2 == 0 ? ["a", "b\(i % 5)"] : []
            set.contentURL = URL(string: "https://example.org/\(i)")
            set.setValue(i == 400 ? "flags changed" : "utils", forCustomKey: i == 400 ? reflagged : plain)
            set.setValue(i, forCustomKey: CSCustomAttributeKey(keyName: "installedSize")!)
            if i >= 300 { set.setValue("new field from here", forCustomKey: late) }
            let item = CSSearchableItem(uniqueIdentifier: "id\(i)", domainIdentifier: "d.\(i % 3)", attributeSet: set)
            return (item, Date(timeIntervalSinceReferenceDate: Double(1_000_000 + i)))
        }
    }

    /// Converts and upserts `batches` one by one in order (`threads` 1), or through the pipeline; returns the
    /// writer and the journal batch recorded.
    private func index(_ batches: [ArraySlice<(item: CSSearchableItem, expiration: Date)>],
                       threads: Int) throws -> (IndexWriter, [UInt8]) {
        let writer = IndexWriter()
        writer.analysisThreads = threads
        var recorder = RecordingWriter(writer: writer, recording: true)
        for batch in batches {
            if threads == 1 {
                for entry in batch {
                    try recorder.upsert(ItemDocumentCodec.document(for: entry.item, expiration: entry.expiration,
                                                                   writer: writer))
                }
            } else {
                try ItemDocumentCodec.upsert(Array(batch), into: &recorder)
            }
        }
        _ = try writer.commit()
        return (writer, try XCTUnwrap(recorder.batch).encoded())
    }

    private func assertSameIndex(_ parallel: (IndexWriter, [UInt8]), _ serial: (IndexWriter, [UInt8]),
                                 file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(parallel.0.schema.fields.map(\.name), serial.0.schema.fields.map(\.name), file: file, line: line)
        XCTAssertEqual(parallel.0.schema.fields.map(\.options), serial.0.schema.fields.map(\.options), file: file, line: line)
        XCTAssertTrue(parallel.1 == serial.1, "the journal records the same documents", file: file, line: line)
        let p = try XCTUnwrap(parallel.0.snapshot.segments.first), s = try XCTUnwrap(serial.0.snapshot.segments.first)
        XCTAssertEqual(parallel.0.snapshot.segments.count, 1)
        XCTAssertEqual(p.differences(from: s), [], "the same segment", file: file, line: line)
    }

    func testParallelConversionEqualsConvertingInOrder() throws {
        let batch = items()
        // The first call registers the common fields; the second converts in parallel, and items from 300 on
        // (a new field) and 400 (changed options) are converted again in order.
        let halves = [batch[..<150], batch[150...]]
        try assertSameIndex(index(halves, threads: 4), index(halves, threads: 1))
    }

    /// 5,000 items: 79 chunks, the last one short; and a first batch whose every item needs new fields.
    func testALargeBatchConvertsInChunksThatStayInRange() throws {
        let batch = items(count: 5_000)
        try assertSameIndex(index([batch[...]], threads: 2), index([batch[...]], threads: 1))
    }

    /// `batches` calls indexing 5 items each (one segment each).
    func indexBatches(_ batches: Int, into index: CSSearchableIndex) {
        for batch in 0..<batches {
            let items = (0..<5).map { makeItem("b\(batch)-\($0)", title: "merge item") }
            XCTAssertNil(index.completion { index.indexSearchableItems(items, completionHandler: $0) })
        }
    }

    /// A container merges its segments in the background and publishes each finished merge on its own, without
    /// waiting for a write: after 16 batches of 5 items and no further write, the index settles into one segment
    /// (the policy's merges of four, 16 × 5 → 4 × 20 → 80, or an idle merge), every item findable throughout.
    func testAContainerPublishesItsFinishedBackgroundMergesWithoutAWrite() throws {
        let container = SearchlightContainer()
        let index = CSSearchableIndex(name: "merges", container: container)
        indexBatches(16, into: index)
        let deadline = Date() + 60
        var segments = container.snapshot().engine.segments.count
        while segments > 1, Date() < deadline {
            XCTAssertEqual(index.allIdentifiers.count, 80)
            usleep(2_000)
            segments = container.snapshot().engine.segments.count
        }
        XCTAssertEqual(segments, 1)
        XCTAssertEqual(index.allIdentifiers.count, 80)
    }

    /// An index left without writes consolidates the segments the merge policy keeps (three of one tier here)
    /// into one, on its own after `idleMergeDelay`, or at once in `waitForBackgroundMerges()`.
    func testAnIdleContainerConsolidatesItsSegments() throws {
        for waiting in [false, true] {
            let container = SearchlightContainer()
            container.setIdleMergeDelay(nil)  // however slowly the writes run
            let index = CSSearchableIndex(name: "idle", container: container)
            indexBatches(3, into: index)
            XCTAssertEqual(container.snapshot().engine.segments.count, 3, "three segments of one tier")
            if waiting {
                container.waitForBackgroundMerges()
            } else {
                // A write that changes nothing starts the idle clock.
                container.setIdleMergeDelay(.milliseconds(20))
                XCTAssertNil(index.completion { index.deleteSearchableItems(withIdentifiers: ["missing"], completionHandler: $0) })
                let deadline = Date() + 60
                while container.snapshot().engine.segments.count > 1, Date() < deadline { usleep(5_000) }
            }
            XCTAssertEqual(container.snapshot().engine.segments.count, 1, waiting ? "waiting" : "idle")
            XCTAssertEqual(index.allIdentifiers.count, 15)
        }
    }

    /// `waitForBackgroundMerges()` returns while another thread keeps writing: each write's commit starts merges
    /// (and earns idle-merge credit), so waiting until a round finds nothing to publish chased the writes for as
    /// long as they came.
    func testWaitingForBackgroundMergesEndsWhileWritesContinue() throws {
        let container = SearchlightContainer()
        container.setIdleMergeDelay(nil)
        // Slow merges: each round of the wait lets several writes in.
        container.setMergeStarter { work in DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20), execute: work) }
        let index = CSSearchableIndex(name: "steady", container: container)
        indexBatches(8, into: index)
        let stop = Mutex(false), writing = DispatchSemaphore(value: 0)
        let started = Date()
        Thread.detachNewThread {
            var batch = 8
            while !stop.withLock({ $0 }), Date() < started + 20 {
                let items = (0..<5).map { makeItem("b\(batch)-\($0)", title: "merge item") }
                // Not waiting for each write: several commit during each merge.
                index.indexSearchableItems(items, completionHandler: nil)
                if batch % 8 == 0 { _ = index.completion { index.indexSearchableItems([], completionHandler: $0) } }
                usleep(1_000)
                batch += 1
            }
            writing.signal()
        }
        container.waitForBackgroundMerges()
        let waited = Date().timeIntervalSince(started)
        stop.withLock { $0 = true }
        writing.wait()
        XCTAssertLessThan(waited, 15, "the wait chased the writes until they stopped")
    }

    /// `waitForBackgroundMerges()` returns with every merge the policy leads to finished and published.
    func testWaitingForBackgroundMergesLeavesTheSettledIndex() throws {
        let container = SearchlightContainer()
        let index = CSSearchableIndex(name: "merges", container: container)
        indexBatches(16, into: index)
        container.waitForBackgroundMerges()
        XCTAssertEqual(container.snapshot().engine.segments.count, 1)
        XCTAssertEqual(index.allIdentifiers.count, 80)
    }
}
