import Foundation
import XCTest
@testable import SearchlightEngine

/// A store whose segments another `Analyzer.version` built has its documents analyzed again when it opens, and a
/// checkpoint then records the current version, so old terms never linger and the next open loads the new ones.
final class AnalyzerUpgradeTests: XCTestCase {
    private let long = String(repeating: "x", count: Analyzer.maxTermBytes + 5)

    /// The documents of the stores below: every third holds a word over `maxTermBytes` in its body, which
    /// analyzer version 1 recorded no term for and version 2 records as `Analyzer.overlongTerm`.
    private func documents(_ writer: IndexWriter) throws -> [Document] {
        let title = try writer.registerField("title", .text(weight: 4, primary: true))
        let body = try writer.registerField("body", .text(weight: 1))
        let size = try writer.registerField("size", .numeric)
        return (0..<40).map { (n: Int) -> Document in
            let text: String = n % 3 == 0 ? "holds " + long + " inside" : "plain words " + String(n)
            let values: [(FieldID, FieldValue)] = [(title, .text("item " + String(n))), (body, .text(text)),
                                                   (size, .number(Double(n)))]
            return Document(id: "d" + String(n), domain: n % 4 == 0 ? "mail.inbox" : nil, values: values)
        }
    }

    /// Writes a store whose snapshot holds segments `writer` built, recorded as `analyzerVersion` in snapshot
    /// format `format`; returns the snapshot as written.
    private func writeStore(_ directory: String, writer: IndexWriter, analyzerVersion: UInt32,
                            format: UInt32 = SnapshotFile.version) throws -> IndexSnapshot {
        try writer.upsert(contentsOf: try documents(writer))
        _ = try writer.commit()
        writer.delete(ids: ["d1", "d3"])
        let snapshot = try writer.commit()
        // Open once to create the directory as a store does, then put the snapshot in place.
        DurableStore.open(directoryForSetup: directory)
        let bytes = SnapshotFile.encode(snapshot, clientStates: ["app": [7, 8]], generation: 1, protectionClass: "",
                                        version: format, analyzerVersion: analyzerVersion)
        try placeSnapshot(bytes, in: directory)
        return snapshot
    }

    /// Puts snapshot generation 1 in place with its journal, as a checkpoint leaves them (journal 1 first).
    private func placeSnapshot(_ bytes: [UInt8], in directory: String) throws {
        try POSIXFileSystem().writeAtomically(JournalFile.header(generation: 1, protectionClass: ""),
                                              to: directory + "/" + JournalFile.fileName(generation: 1), directory: directory)
        try POSIXFileSystem().writeAtomically(bytes, to: directory + "/" + SnapshotFile.fileName, directory: directory)
    }

    private func overlongHolders(_ snapshot: IndexSnapshot) throws -> Set<String> {
        let body = try XCTUnwrap(snapshot.schema.field(named: "body"))
        return Set(snapshot.matches(.scoped(.field(body), .terms([Analyzer.overlongTerm]))).compactMap { snapshot.id(of: $0) })
    }

    private func contents(_ snapshot: IndexSnapshot) -> [String: String] {
        var result: [String: String] = [:]
        for id in (0..<40).map({ "d\($0)" }) {
            guard let address = snapshot.lookup(id: id), let document = snapshot.document(at: address) else { continue }
            let values = document.values.map { field, value in "\(snapshot.schema.fields[Int(field.rawValue)].name)=\(value)" }
            result[id] = "\(document.domain ?? "-") " + values.sorted().joined(separator: " ")
        }
        return result
    }

    func testAStoreAnOlderAnalyzerBuiltIsAnalyzedAgainOnOpen() throws {
        let directory = makeStoreDirectory(self)
        let old = try writeStore(directory, writer: IndexWriter(analyzer: Analyzer(recordsOverlongWords: false)),
                                 analyzerVersion: 1)
        // Version 1's segments lack the stand-in: a pattern inside an overlong word would find nothing.
        XCTAssertEqual(try overlongHolders(old), [])
        // Every third document, but d3, which was deleted.
        let expected = Set(stride(from: 0, to: 40, by: 3).map { "d\($0)" }).subtracting(["d3"])

        let opened = try DurableStore.open(directory: directory)
        XCTAssertEqual(opened.report.reanalyzedDocuments, 38)
        XCTAssertEqual(opened.report.upgradedFromAnalyzerVersion, 1)
        XCTAssertNil(opened.report.reanalysisError)
        XCTAssertEqual(try overlongHolders(opened.writer.snapshot), expected)
        XCTAssertEqual(contents(opened.writer.snapshot), contents(old))
        XCTAssertEqual(opened.clientStates, ["app": [7, 8]])
        XCTAssertNil(opened.writer.snapshot.lookup(id: "d1"))
        // The checkpoint recorded the current version: the next open loads the segments as they are.
        let reopened = try reopenAfterUpgradeCheckpoint(opened.store, directory: directory)
        defer { reopened.store.close() }
        XCTAssertEqual(reopened.report.reanalyzedDocuments, 0)
        XCTAssertEqual(try overlongHolders(reopened.writer.snapshot), expected)
        XCTAssertEqual(contents(reopened.writer.snapshot), contents(old))
        XCTAssertEqual(reopened.clientStates, ["app": [7, 8]])
    }

    /// A snapshot in format version 4 records no analyzer version: its documents are analyzed again.
    func testAFormatFourSnapshotIsAnalyzedAgain() throws {
        let directory = makeStoreDirectory(self)
        let old = try writeStore(directory, writer: IndexWriter(), analyzerVersion: Analyzer.version, format: 4)
        let file = try XCTUnwrap(try POSIXFileSystem().readFile(directory + "/" + SnapshotFile.fileName))
        XCTAssertEqual(try SnapshotFile.decode(file, path: "s").analyzerVersion, 0)
        let opened = try DurableStore.open(directory: directory)
        defer { opened.store.close() }
        XCTAssertEqual(opened.report.reanalyzedDocuments, 38)
        XCTAssertEqual(contents(opened.writer.snapshot), contents(old))
    }

    /// A current snapshot is loaded as it is: same segments, nothing analyzed.
    func testACurrentSnapshotIsNotAnalyzedAgain() throws {
        let directory = makeStoreDirectory(self)
        let old = try writeStore(directory, writer: IndexWriter(), analyzerVersion: Analyzer.version)
        let opened = try DurableStore.open(directory: directory)
        defer { opened.store.close() }
        XCTAssertEqual(opened.report.reanalyzedDocuments, 0)
        XCTAssertEqual(opened.writer.snapshot.segments.count, old.segments.count)
        XCTAssertEqual(contents(opened.writer.snapshot), contents(old))
    }

    /// Analyzing again fails (here a document whose stored id is empty, which no upsert accepts): the store opens
    /// with the old terms, and every later snapshot records the old version, so the next open tries again.
    /// (Found by review: a checkpoint recorded the current version, and no open analyzed the segments again.)
    func testAFailedReanalysisKeepsRecordingTheOldVersion() throws {
        let directory = makeStoreDirectory(self)
        let writer = IndexWriter()
        let title = try writer.registerField("title", .text(weight: 4, primary: true))
        var builder = SegmentBuilder()
        let analyzer = Analyzer(recordsOverlongWords: false)
        _ = builder.add(Document(id: "a", values: [(title, .text("hello"))]), schema: writer.schema, analyzer: analyzer)
        _ = builder.add(Document(id: "", values: [(title, .text("nameless"))]), schema: writer.schema, analyzer: analyzer)
        let segment = try builder.seal()
        let snapshot = IndexSnapshot(segments: [segment], live: [Bitset(count: 2, allSet: true)], schema: writer.schema,
                                     parameters: RankingParameters(), generation: 1, contentGeneration: 1)
        DurableStore.open(directoryForSetup: directory)
        let bytes = SnapshotFile.encode(snapshot, clientStates: [:], generation: 1, protectionClass: "", analyzerVersion: 1)
        try placeSnapshot(bytes, in: directory)

        let opened = try DurableStore.open(directory: directory)
        XCTAssertNotNil(opened.report.reanalysisError)
        XCTAssertEqual(opened.writer.snapshot.documentCount, 2)
        try opened.store.checkpoint(opened.writer.snapshot, clientStates: opened.clientStates)
        opened.store.close()
        let file = try XCTUnwrap(try POSIXFileSystem().readFile(directory + "/" + SnapshotFile.fileName))
        XCTAssertEqual(try SnapshotFile.decode(file, path: "s").analyzerVersion, 1)
        let reopened = try DurableStore.open(directory: directory)
        defer { reopened.store.close() }
        XCTAssertNotNil(reopened.report.reanalysisError)
        XCTAssertEqual(reopened.writer.snapshot.documentCount, 2)
    }

    /// Segments of an older version with no live document left: nothing to analyze, but the upgrade still records
    /// the current version, so later opens do not check again. (The review noticed each open checked again.)
    func testAStoreWithEveryDocumentDeletedRecordsTheCurrentVersion() throws {
        let directory = makeStoreDirectory(self)
        let writer = IndexWriter()
        let title = try writer.registerField("title", .text(weight: 4, primary: true))
        var builder = SegmentBuilder()
        _ = builder.add(Document(id: "a", values: [(title, .text("gone"))]), schema: writer.schema,
                        analyzer: Analyzer(recordsOverlongWords: false))
        let snapshot = IndexSnapshot(segments: [try builder.seal()], live: [Bitset(count: 1, allSet: false)],
                                     schema: writer.schema, parameters: RankingParameters(), generation: 1,
                                     contentGeneration: 1)
        DurableStore.open(directoryForSetup: directory)
        let bytes = SnapshotFile.encode(snapshot, clientStates: ["app": [1]], generation: 1, protectionClass: "",
                                        analyzerVersion: 1)
        try placeSnapshot(bytes, in: directory)
        let opened = try DurableStore.open(directory: directory)
        XCTAssertEqual(opened.report.reanalyzedDocuments, 0)
        XCTAssertEqual(opened.report.upgradedFromAnalyzerVersion, 1)
        let reopened = try reopenAfterUpgradeCheckpoint(opened.store, directory: directory)
        defer { reopened.store.close() }
        XCTAssertEqual(reopened.clientStates, ["app": [1]])
        XCTAssertEqual(reopened.writer.snapshot.documentCount, 0)
    }

    /// The writer analyzes a chunk of documents at a time: every live document comes back, with the new terms.
    func testReanalysisInChunksKeepsEveryDocument() throws {
        let writer = IndexWriter(analyzer: Analyzer(recordsOverlongWords: false))
        try writer.upsert(contentsOf: try documents(writer))
        writer.delete(ids: ["d1", "d3"])
        let old = try writer.commit()
        let restored = IndexWriter()
        restored.restore(segments: old.segments, live: old.live, schema: old.schema, generation: 1)
        _ = try restored.commit()
        XCTAssertEqual(try restored.reanalyzeAll(chunk: 5), 38)
        XCTAssertEqual(try overlongHolders(restored.snapshot).count, 13)
        XCTAssertEqual(contents(restored.snapshot), contents(old))
    }

    /// The disk is full when the upgraded snapshot is written: the store still opens with the new terms, the old
    /// snapshot stays, and the next open analyzes again. Nothing is lost.
    func testAFailedUpgradeCheckpointLosesNothing() throws {
        let directory = makeStoreDirectory(self)
        let old = try writeStore(directory, writer: IndexWriter(analyzer: Analyzer(recordsOverlongWords: false)),
                                 analyzerVersion: 1)
        let fileSystem = FaultInjectingFileSystem()
        var options = StoreOptions()
        options.fileSystem = fileSystem
        // The journal's header is the first write; the snapshot's the second.
        fileSystem.inject(.noSpace, skip: 1)
        let opened = try DurableStore.open(directory: directory, options: options)
        XCTAssertEqual(opened.report.reanalyzedDocuments, 38)
        opened.store.waitForBackgroundCheckpoint()
        XCTAssertNotNil(opened.store.lastBackgroundError)
        XCTAssertEqual(try overlongHolders(opened.writer.snapshot).count, 13)
        opened.store.close()

        let reopened = try DurableStore.open(directory: directory)
        defer { reopened.store.close() }
        XCTAssertEqual(reopened.report.reanalyzedDocuments, 38)
        XCTAssertEqual(contents(reopened.writer.snapshot), contents(old))
        XCTAssertEqual(reopened.clientStates, ["app": [7, 8]])
    }
}

private extension DurableStore {
    /// Creates `directory` as a store (then closes it), so a test can put files in place.
    static func open(directoryForSetup directory: String) {
        if let opened = try? open(directory: directory) { opened.store.close() }
    }
}

extension AnalyzerUpgradeTests {
    /// Waits for the upgrade's background checkpoint and closes `store`; checks that the snapshot file now records
    /// the current analyzer version and that opening the directory again upgrades nothing.
    func reopenAfterUpgradeCheckpoint(_ store: DurableStore, directory: String, file: StaticString = #filePath,
                                      line: UInt = #line) throws
        -> (store: DurableStore, writer: IndexWriter, clientStates: [ExactIdentifier: [UInt8]], report: RecoveryReport) {
        store.waitForBackgroundCheckpoint()
        XCTAssertNil(store.lastBackgroundError, file: file, line: line)
        store.close()
        let bytes = try XCTUnwrap(try POSIXFileSystem().readFile(directory + "/" + SnapshotFile.fileName), file: file, line: line)
        XCTAssertEqual(try SnapshotFile.decode(bytes, path: "s").analyzerVersion, Analyzer.version, file: file, line: line)
        let reopened = try DurableStore.open(directory: directory)
        XCTAssertNil(reopened.report.upgradedFromAnalyzerVersion, file: file, line: line)
        return reopened
    }
}
