/// A string compared as the engine keys documents: by its UTF-8 bytes. Used for item and activity identifiers and
/// for client-state (index) names.
///
/// Swift's `String ==` calls canonically equivalent strings (`"café"` precomposed and decomposed) equal, but the
/// engine holds two such identifiers as two items, and Core Spotlight compares index names as NSStrings do (by
/// their code units), so two such names are two indexes with two client states. Every table keyed by identifier
/// beside the engine (a call's pending writes, the engagement ledger, the activities' donors, a query's annotated
/// results) and every table keyed by index name (client states, in memory and in the store's files, and the
/// reindex-all acknowledgements) compares bytes too. It hashes as the `String` does: byte-equal strings are
/// canonically equal, so the hash agrees with `==`, and no byte array is built.
package struct ExactIdentifier: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    package let id: String
    package init(_ id: String) { self.id = id }
    package init(stringLiteral id: String) { self.id = id }
    package static func == (a: Self, b: Self) -> Bool { a.id.utf8.elementsEqual(b.id.utf8) }
    package func hash(into hasher: inout Hasher) { hasher.combine(id) }
    package var description: String { id.debugDescription }

    /// Byte order of the UTF-8 (the order of the scalars' values): a total order consistent with `==`, so a file
    /// listing names in it is the same for the same names. For names in NFC it is the order `String <` gives.
    package static func bytewise(_ a: Self, _ b: Self) -> Bool { a.id.utf8.lexicographicallyPrecedes(b.id.utf8) }
}
