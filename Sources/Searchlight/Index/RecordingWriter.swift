import Foundation
import SearchlightEngine

/// The writer calls of one container round, passed on to the engine and, when the container has a durable
/// store, recorded as one journal batch (engine operations by field name, plus client-state changes).
struct RecordingWriter {
    let writer: IndexWriter
    /// Nil for an in-memory container: nothing is recorded.
    private(set) var batch: JournalBatch?

    init(writer: IndexWriter, recording: Bool) {
        self.writer = writer
        batch = recording ? JournalBatch() : nil
    }

    mutating func upsert(_ document: Document) throws(EngineError) {
        try writer.upsert(document)
        batch?.recordUpsert(document, schema: writer.schema)
    }

    /// Upserts `count` documents in order, made on any thread by `make` or, when it returns nil, here by
    /// `makeInOrder` (see `IndexWriter.upsert(count:make:makeInOrder:added:)`).
    mutating func upsert(count: Int, make: @escaping @Sendable (Int) -> Document?,
                         makeInOrder: (Int) throws(EngineError) -> Document) throws(EngineError) {
        let writer = self.writer
        try writer.upsert(count: count, make: make, makeInOrder: makeInOrder) { document in
            batch?.recordUpsert(document, schema: writer.schema)
        }
    }

    mutating func delete(ids: [String]) {
        writer.delete(ids: ids)
        batch?.recordDelete(ids: ids)
    }

    mutating func delete(domains: [String]) {
        writer.delete(domains: domains)
        batch?.recordDelete(domains: domains)
    }

    /// Deletes every item; replaying it also clears every client state.
    mutating func deleteAll() {
        writer.deleteAll()
        batch?.recordDeleteAll()
    }

    mutating func setClientState(name: String, state: Data) {
        batch?.recordClientState(name: name, state: Array(state))
    }
}
