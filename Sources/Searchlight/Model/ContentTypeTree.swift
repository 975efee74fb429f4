import Synchronization

/// The conformance table of uniform type identifiers, used to derive `contentTypeTree` (a type followed by
/// every type it conforms to). Holds common system types and any the app registers.
public enum ContentTypeTree {
    /// Direct parents of common system types (Apple's UTI hierarchy, abridged).
    static let systemTypes: [String: [String]] = [
        "public.item": [],
        "public.content": [],
        "public.composite-content": ["public.content"],
        "public.data": ["public.item"],
        "public.directory": ["public.item"],
        "public.folder": ["public.directory"],
        "public.volume": ["public.folder"],
        "com.apple.package": ["public.directory"],
        "com.apple.bundle": ["public.directory"],
        "public.text": ["public.data", "public.content"],
        "public.plain-text": ["public.text"],
        "public.utf8-plain-text": ["public.plain-text"],
        "public.utf16-plain-text": ["public.plain-text"],
        "public.rtf": ["public.text"],
        "public.html": ["public.text"],
        "public.xml": ["public.text"],
        "public.json": ["public.text"],
        "public.yaml": ["public.text"],
        "public.delimited-values-text": ["public.text"],
        "public.comma-separated-values-text": ["public.delimited-values-text"],
        "public.tab-separated-values-text": ["public.delimited-values-text"],
        "public.log": ["public.plain-text"],
        "public.source-code": ["public.plain-text"],
        "public.swift-source": ["public.source-code"],
        "public.c-source": ["public.source-code"],
        "public.script": ["public.source-code"],
        "public.shell-script": ["public.script"],
        "public.python-script": ["public.script"],
        "net.daringfireball.markdown": ["public.plain-text"],
        "public.image": ["public.data", "public.content"],
        "public.jpeg": ["public.image"],
        "public.png": ["public.image"],
        "public.tiff": ["public.image"],
        "com.compuserve.gif": ["public.image"],
        "public.heif-standard": ["public.image"],
        "public.heic": ["public.heif-standard"],
        "public.svg-image": ["public.image", "public.xml"],
        "public.audiovisual-content": ["public.data", "public.content"],
        "public.audio": ["public.audiovisual-content"],
        "public.mp3": ["public.audio"],
        "public.mpeg-4-audio": ["public.audio"],
        "com.microsoft.waveform-audio": ["public.audio"],
        "public.movie": ["public.audiovisual-content"],
        "public.video": ["public.movie"],
        "public.mpeg-4": ["public.movie"],
        "com.apple.quicktime-movie": ["public.movie"],
        "public.contact": ["public.item"],
        "public.vcard": ["public.text", "public.contact"],
        "public.message": ["public.item"],
        "public.email-message": ["public.message"],
        "public.calendar-event": ["public.item"],
        "public.to-do-item": ["public.item"],
        "public.url": ["public.data"],
        "public.file-url": ["public.url"],
        "public.archive": ["public.data"],
        "public.zip-archive": ["public.archive"],
        "org.gnu.gnu-zip-archive": ["public.archive"],
        "public.tar-archive": ["public.archive"],
        "public.disk-image": ["public.archive"],
        "com.adobe.pdf": ["public.data", "public.composite-content"],
        "public.spreadsheet": ["public.content"],
        "public.presentation": ["public.composite-content"],
        "com.apple.iwork.numbers.numbers": ["public.spreadsheet", "public.data"],
        "com.apple.iwork.numbers.sffnumbers": ["public.spreadsheet", "com.apple.package"],
        "com.apple.iwork.pages.pages": ["public.composite-content", "public.data"],
        "com.apple.iwork.pages.sffpages": ["public.composite-content", "com.apple.package"],
        "com.apple.iwork.keynote.key": ["public.presentation", "public.data"],
        "com.apple.iwork.keynote.sffkey": ["public.presentation", "com.apple.package"],
        "com.microsoft.word.doc": ["public.data", "public.composite-content"],
        "com.microsoft.excel.xls": ["public.data", "public.spreadsheet"],
        "com.microsoft.powerpoint.ppt": ["public.data", "public.presentation"],
        "org.openxmlformats.wordprocessingml.document": ["public.zip-archive", "public.composite-content"],
        "org.openxmlformats.spreadsheetml.sheet": ["public.zip-archive", "public.spreadsheet"],
        "org.openxmlformats.presentationml.presentation": ["public.zip-archive", "public.presentation"],
        "public.executable": ["public.item"],
        "public.unix-executable": ["public.data", "public.executable"],
        "public.font": ["public.data", "public.content"],
        "public.database": ["public.item"],
    ]

    /// Types the app declared at run time (identifier → direct parents).
    private static let declared = Mutex<[String: [String]]>([:])

    /// Declares an app-defined type and the types it directly conforms to, so items of that type get a full
    /// `contentTypeTree`. Re-registering replaces the earlier declaration. System types cannot be redefined.
    public static func register(_ identifier: String, conformingTo parents: [String]) {
        guard systemTypes[identifier] == nil, !identifier.isEmpty else { return }
        declared.withLock { $0[identifier] = parents.filter { $0 != identifier } }
    }

    /// Direct parents of a type, or nil if the type is unknown.
    public static func parents(of identifier: String) -> [String]? {
        systemTypes[identifier] ?? declared.withLock { $0[identifier] }
    }

    /// True when the type is a known system type or was registered.
    public static func isKnown(_ identifier: String) -> Bool { parents(of: identifier) != nil }

    /// The type followed by all its ancestors, breadth first, each once. An unknown type conforms to
    /// `public.item` only (a dynamic type). Cycles in registered declarations are cut.
    public static func tree(for identifier: String) -> [String] {
        // System types only conform to system types, so their trees never change: computed once.
        if let system = systemTrees[identifier] { return system }
        return computeTree(for: identifier)
    }

    private static let systemTrees: [String: [String]] = {
        var trees: [String: [String]] = [:]
        for identifier in systemTypes.keys { trees[identifier] = computeTree(for: identifier) }
        return trees
    }()

    private static func computeTree(for identifier: String) -> [String] {
        guard isKnown(identifier) else { return identifier == "public.item" ? [identifier] : [identifier, "public.item"] }
        var result = [identifier]
        var seen: Set<String> = [identifier]
        var index = 0
        while index < result.count {
            // A parent nothing declared is a dynamic type: it conforms to `public.item`, as an unknown type does.
            let type = result[index]
            for parent in parents(of: type) ?? (type == "public.item" ? [] : ["public.item"])
            where seen.insert(parent).inserted {
                result.append(parent)
            }
            index += 1
        }
        return result
    }

    /// Whether `identifier` is `other` or conforms to it.
    public static func conforms(_ identifier: String, to other: String) -> Bool {
        tree(for: identifier).contains(other)
    }
}
