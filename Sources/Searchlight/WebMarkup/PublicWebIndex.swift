import Foundation

extension SearchlightContainer {
    /// The process-wide container of the public web index: items read from web pages (`WebMarkupIndexer`), kept
    /// apart from the private items an app indexes into `SearchlightContainer.default`. Query it by passing this
    /// container to `CSSearchQuery`/`CSUserQuery` (or through `CSSearchableIndex.publicIndex()`).
    public static let publicWeb = SearchlightContainer()
}

extension CSSearchableIndex {
    private static let sharedPublicIndex = CSSearchableIndex(name: "public-web", container: .publicWeb)

    /// The shared index instance of the public web container (`SearchlightContainer.publicWeb`). Unlike
    /// `default()`, it supports batches.
    public static func publicIndex() -> CSSearchableIndex { sharedPublicIndex }
}
