import Foundation
@testable import SearchlightEngine

/// A fresh writer with a primary title field and a body (the default fields), for randomized tests that build
/// one index per round.
struct TitleBodyIndex {
    let writer: IndexWriter
    let title: FieldID
    let body: FieldID

    init() throws {
        writer = IndexWriter()
        title = try writer.registerField("title", .text(weight: 4, primary: true))
        body = try writer.registerField("body", .text(weight: 1))
    }

    func doc(_ id: String, _ t: String, _ b: String = "") -> Document {
        var values: [(FieldID, FieldValue)] = [(title, .text(t))]
        if !b.isEmpty { values.append((body, .text(b))) }
        return Document(id: id, values: values)
    }
}
