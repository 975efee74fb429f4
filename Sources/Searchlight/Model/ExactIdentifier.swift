/// An item or activity identifier compared as the engine keys documents: by its UTF-8 bytes.
///
/// Swift's `String ==` calls canonically equivalent identifiers (`"café"` precomposed and decomposed) equal, but the
/// engine holds them as two items, so every table keyed by identifier beside it (a call's pending writes, the
/// engagement ledger, the activities' donors, a query's annotated results) compares bytes too. It hashes as the
/// `String` does: byte-equal strings are canonically equal, so the hash agrees with `==`, and no byte array is built.
package struct ExactIdentifier: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    package let id: String
    package init(_ id: String) { self.id = id }
    package init(stringLiteral id: String) { self.id = id }
    package static func == (a: Self, b: Self) -> Bool { a.id.utf8.elementsEqual(b.id.utf8) }
    package func hash(into hasher: inout Hasher) { hasher.combine(id) }
    package var description: String { id.debugDescription }
}
