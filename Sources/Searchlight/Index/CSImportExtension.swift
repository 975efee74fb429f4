import Foundation

/// Mirror of `CSImportExtension`: the base class of a Spotlight File Import extension, which fills an attribute
/// set from the content of a file of a type the app owns.
///
/// Searchlight never calls it: Linux has no system importer that discovers files and loads extensions. It exists
/// so a ported subclass compiles unchanged; an app that wants its files indexed calls `update(_:forFileAt:)`
/// itself and indexes the resulting item.
open class CSImportExtension: NSObject {
    public override init() { super.init() }

    /// Sets the attributes of the file at `contentURL` on `attributes`. Subclasses override it; Apple documents
    /// no behaviour for the base class, and this one leaves `attributes` unchanged.
    open func update(_ attributes: CSSearchableItemAttributeSet, forFileAt contentURL: URL) throws {}
}
