import Synchronization

/// The conformance table of uniform type identifiers, used to derive `contentTypeTree` (a type followed by
/// every type it conforms to). Holds common system types and any the app registers.
public enum ContentTypeTree {
    /// Direct parents of common system types (Apple's UTI hierarchy, abridged), as Apple declares them: the
    /// SDK's `UTCoreTypes.h` ("conforms to"), the `UTType` documentation, and CoreTypes' declarations for the
    /// rest. A type Apple declares without parents (`public.archive`, `public.contact`) has none here either.
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
        "public.log": ["public.item"],
        "com.apple.log": ["public.plain-text", "public.log"],
        "public.source-code": ["public.plain-text"],
        "public.swift-source": ["public.source-code"],
        "public.c-source": ["public.source-code"],
        "public.script": ["public.source-code"],
        "public.shell-script": ["public.script"],
        "public.python-script": ["public.shell-script"],
        "net.daringfireball.markdown": ["public.utf8-plain-text"],
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
        "public.mpeg-4-audio": ["public.mpeg-4", "public.audio"],
        "com.apple.m4a-audio": ["public.mpeg-4-audio"],
        "com.microsoft.waveform-audio": ["public.audio"],
        "public.movie": ["public.audiovisual-content"],
        "public.video": ["public.movie"],
        "public.mpeg-4": ["public.movie"],
        "com.apple.quicktime-movie": ["public.movie"],
        "public.contact": [],
        "public.vcard": ["public.text", "public.contact"],
        "public.message": [],
        "public.email-message": ["public.message"],
        "public.calendar-event": [],
        "public.to-do-item": [],
        "public.url": ["public.data"],
        "public.file-url": ["public.url"],
        "public.archive": [],
        "public.zip-archive": ["com.pkware.zip-archive"],
        "org.gnu.gnu-zip-archive": ["public.data", "public.archive"],
        "public.tar-archive": ["public.data", "public.archive"],
        "public.disk-image": ["public.archive"],
        "com.adobe.pdf": ["public.data", "public.composite-content"],
        "public.spreadsheet": ["public.content"],
        "public.presentation": ["public.composite-content"],
        "com.apple.iwork.numbers.numbers": ["com.apple.package", "public.composite-content", "public.spreadsheet"],
        "com.apple.iwork.numbers.sffnumbers": ["public.data", "public.composite-content", "public.spreadsheet"],
        "com.apple.iwork.pages.pages": ["com.apple.package", "public.composite-content"],
        "com.apple.iwork.pages.sffpages": ["public.data", "public.composite-content"],
        "com.apple.iwork.keynote.key": ["com.apple.package", "public.presentation"],
        "com.apple.iwork.keynote.sffkey": ["public.data", "public.presentation"],
        "com.microsoft.word.doc": ["public.data", "public.composite-content"],
        "com.microsoft.excel.xls": ["public.data", "public.composite-content", "public.spreadsheet"],
        "com.microsoft.powerpoint.ppt": ["public.data", "public.presentation"],
        "org.openxmlformats.openxml": ["public.data"],
        "org.openxmlformats.wordprocessingml.document": ["org.openxmlformats.openxml", "public.composite-content"],
        "org.openxmlformats.spreadsheetml.sheet": [
            "org.openxmlformats.openxml", "public.composite-content", "public.spreadsheet"],
        "org.openxmlformats.presentationml.presentation": ["org.openxmlformats.openxml", "public.presentation"],
        "public.executable": ["public.item"],
        "public.unix-executable": ["public.data", "public.executable"],
        "public.font": ["public.data"],
        "public.database": [],
        // More of Apple's declared types (UTCoreTypes.h and UniformTypeIdentifiers' `UTType` members).
        "com.adobe.raw-image": ["public.image"],
        "com.apple.alias-file": ["public.data", "com.apple.resolvable"],
        "com.apple.alias-record": ["public.data", "com.apple.resolvable"],
        "com.apple.applescript.script": ["public.data", "public.script"],
        "com.apple.applescript.script-bundle": ["com.apple.bundle", "com.apple.package", "public.script"],
        "com.apple.applescript.text": ["public.script"],
        "com.apple.application": ["public.executable"],
        "com.apple.application-and-system-extension": ["com.apple.xpc-service"],
        "com.apple.application-bundle": ["com.apple.application", "com.apple.bundle", "com.apple.package"],
        "com.apple.application-file": ["com.apple.application", "public.data"],
        "com.apple.archive": ["public.data", "public.archive"],
        "com.apple.arobject": ["public.data"],
        "com.apple.binary-property-list": ["com.apple.property-list"],
        "com.apple.bookmark": ["public.data", "com.apple.resolvable"],
        "com.apple.flat-rtfd": ["public.data", "public.composite-content"],
        "com.apple.framework": ["com.apple.bundle"],
        "com.apple.haptics.ahap": ["public.haptics-content", "public.json"],
        "public.haptics-content": [],
        "com.apple.icns": ["public.image"],
        "com.apple.ink.inktext": ["public.data"],
        "com.apple.internet-location": ["public.data", "public.stored-url"],
        "com.apple.linkpresentation.metadata": ["public.data"],
        "com.apple.live-photo": [],
        "com.apple.m4v-video": ["public.mpeg-4"],
        "com.apple.metadata-importer": ["com.apple.plugin"],
        "com.apple.mount-point": ["public.item", "com.apple.resolvable"],
        "com.apple.pict": ["public.image"],
        "com.apple.plugin": ["com.apple.bundle", "com.apple.package"],
        "com.apple.property-list": ["public.data"],
        "com.apple.protected-mpeg-4-audio": ["public.audio"],
        "com.apple.protected-mpeg-4-video": ["com.apple.m4v-video"],
        "com.apple.quicklook-generator": ["com.apple.plugin"],
        "com.apple.quicktime-image": ["public.image"],
        "com.apple.reality": ["public.data"],
        "com.apple.resolvable": [],
        "com.apple.rtfd": ["com.apple.package", "public.composite-content"],
        "com.apple.scenekit.scene": ["public.3d-content", "public.data"],
        "com.apple.systempreference.prefpane": ["com.apple.package", "com.apple.bundle"],
        "com.apple.txn.text-multimedia-data": ["public.data", "public.composite-content"],
        "com.apple.webarchive": ["public.data", "public.composite-content"],
        "com.apple.xml-property-list": ["public.xml", "com.apple.property-list"],
        "com.apple.xpc-service": ["com.apple.bundle", "com.apple.package"],
        "com.ilm.openexr-image": ["public.image"],
        "com.microsoft.bmp": ["public.image"],
        "com.microsoft.ico": ["public.image"],
        "com.microsoft.internet-shortcut": ["public.data", "public.stored-url"],
        "com.microsoft.windows-executable": ["public.data", "public.executable"],
        "com.netscape.javascript-source": ["public.source-code", "public.executable"],
        "com.pixar.universal-scene-description": ["public.3d-content", "public.data"],
        "com.pixar.universal-scene-description-mobile": ["public.3d-content", "public.data"],
        "com.pkware.zip-archive": ["public.data", "public.archive"],
        "com.rsa.pkcs-12": ["public.data"],
        "com.sun.java-archive": ["public.zip-archive", "public.executable"],
        "com.sun.java-class": ["public.data", "public.executable"],
        "com.sun.java-source": ["public.source-code"],
        "org.idpf.epub-container": ["public.data", "public.composite-content"],
        "org.webmproject.webp": ["public.image"],
        "public.3d-content": ["public.content"],
        "public.aifc-audio": ["public.audio"],
        "public.aiff-audio": ["public.aifc-audio"],
        "public.assembly-source": ["public.source-code"],
        "public.avi": ["public.movie"],
        "public.bookmark": [],
        "public.bzip2-archive": ["public.data", "public.archive"],
        "public.c-header": ["public.source-code"],
        "public.c-plus-plus-header": ["public.source-code"],
        "public.c-plus-plus-source": ["public.source-code"],
        "public.camera-raw-image": ["public.image"],
        "public.css": ["public.text"],
        "public.geojson": [],
        "public.heics": ["public.heif-standard"],
        "public.heif": ["public.heif-standard"],
        "public.jpeg-2000": ["public.image"],
        "public.jpeg-xl": ["public.image"],
        "public.m3u-playlist": ["public.text", "public.playlist"],
        "public.make-source": ["public.script"],
        "public.midi-audio": ["public.audio"],
        "public.mpeg": ["public.movie"],
        "public.mpeg-2-transport-stream": ["public.movie"],
        "public.mpeg-2-video": ["public.video"],
        "public.objective-c-plus-plus-source": ["public.source-code"],
        "public.objective-c-source": ["public.source-code"],
        "public.perl-script": ["public.shell-script"],
        "public.php-script": ["public.shell-script"],
        "public.playlist": [],
        "public.ruby-script": ["public.shell-script"],
        "public.stored-url": [],
        "public.symlink": ["public.item", "com.apple.resolvable"],
        "public.utf16-external-plain-text": ["public.plain-text"],
        "public.utf8-tab-separated-values-text": ["public.tab-separated-values-text", "public.utf8-plain-text"],
        "public.x509-certificate": ["public.data"],
        // More of Apple's system declarations (CoreTypes), for common files an app indexes.
        "com.adobe.encapsulated-postscript": ["com.adobe.postscript"],
        "com.adobe.photoshop-image": ["public.image"],
        "com.adobe.postscript": ["public.data", "public.composite-content"],
        "com.apple.coreaudio-format": ["public.audio"],
        "com.apple.generic-internet-location": ["com.apple.internet-location"],
        "com.apple.ical.ics": ["public.text", "public.item", "public.calendar-event"],
        "com.apple.pkpass": ["com.apple.bundle", "com.apple.package"],
        "com.apple.web-internet-location": ["com.apple.internet-location"],
        "org.7-zip.7-zip-archive": ["public.data", "public.archive"],
        "org.gnu.gnu-tar-archive": ["public.data", "public.archive"],
        "org.gnu.gnu-zip-tar-archive": ["org.gnu.gnu-zip-archive"],
        "org.oasis-open.opendocument": ["public.data"],
        "org.oasis-open.opendocument.presentation": [
            "org.oasis-open.opendocument", "public.composite-content", "public.presentation"],
        "org.oasis-open.opendocument.spreadsheet": [
            "org.oasis-open.opendocument", "public.composite-content", "public.spreadsheet"],
        "org.oasis-open.opendocument.text": ["org.oasis-open.opendocument", "public.composite-content"],
        "org.tukaani.xz-archive": ["public.data", "public.archive"],
        "org.webmproject.webm": ["public.movie"],
        "org.xiph.flac": ["public.audio"],
        "public.3gpp": ["public.movie"],
        "public.aac-audio": ["public.audio"],
        "public.opentype-font": ["public.font"],
        "public.truetype-font": ["public.font"],
        "public.truetype-ttf-font": ["public.truetype-font"],
        "public.xhtml": ["public.xml"],
    ]

    /// Types the app declared at run time (lowercased identifier → its spelling and direct parents): keyed
    /// without case, as Apple compares type identifiers.
    private static let declared = Mutex<[String: (identifier: String, parents: [String])]>([:])

    /// System identifiers by their lowercased spelling, to find a system type named in another case.
    private static let systemSpellings: [String: String] = Dictionary(
        uniqueKeysWithValues: systemTypes.keys.map { ($0.lowercased(), $0) })

    /// Declares an app-defined type and the types it directly conforms to, so items of that type get a full
    /// `contentTypeTree`. Re-registering (in any case) replaces the earlier declaration. System types cannot be
    /// redefined, in any case.
    public static func register(_ identifier: String, conformingTo parents: [String]) {
        let key = identifier.lowercased()
        guard systemSpellings[key] == nil, !identifier.isEmpty else { return }
        declared.withLock { $0[key] = (identifier, parents.filter { $0.lowercased() != key }) }
    }

    /// Direct parents of a type (named in any case), or nil if the type is unknown.
    public static func parents(of identifier: String) -> [String]? {
        if let parents = systemTypes[identifier] { return parents }
        let key = identifier.lowercased()
        if let system = systemSpellings[key] { return systemTypes[system] }
        return declared.withLock { $0[key]?.parents } ?? dynamicEntry(key)?.parents
    }

    /// The declared spelling of a known type named in any case (Apple compares type identifiers without case),
    /// or nil if the type is unknown.
    static func canonicalIdentifier(_ identifier: String) -> String? {
        if systemTypes[identifier] != nil { return identifier }
        let key = identifier.lowercased()
        if let system = systemSpellings[key] { return system }
        return declared.withLock { $0[key]?.identifier } ?? (dynamicEntry(key) == nil ? nil : key)
    }

    // MARK: Tags

    /// Types made up for tags no declared type has (identifier → parents and the tag), as Apple's dynamic types.
    private static let dynamic = Mutex<[String: (parents: [String], tagClass: String, tag: String)]>([:])

    /// How a dynamic type's identifier starts.
    static let dynamicPrefix = "dyn."

    /// The dynamic type of `tag` of `tagClass` conforming to `supertype` (nil: to `public.item` only): one
    /// identifier per tag, class and supertype.
    static func dynamicType(tag: String, tagClass: String, conformingTo supertype: String?) -> String {
        let parent = supertype ?? "public.item"
        let identifier = dynamicPrefix + hexadecimal(tagClass + "\u{0}" + tag + "\u{0}" + parent)
        dynamic.withLock { $0[identifier] = ([parent], tagClass, tag) }
        return identifier
    }

    /// The dynamic type `key` (a lowercased identifier) names: the one made in this process, else the one its
    /// identifier spells (tag class, tag and supertype), so a `dyn.` identifier stored by an earlier run names
    /// the same type, as Apple's do. Nil when it spells no dynamic type.
    private static func dynamicEntry(_ key: String) -> (parents: [String], tagClass: String, tag: String)? {
        if let entry = dynamic.withLock({ $0[key] }) { return entry }
        guard key.hasPrefix(dynamicPrefix) else { return nil }
        let digits = Array(key.utf8.dropFirst(dynamicPrefix.utf8.count))
        guard !digits.isEmpty, digits.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        for start in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[start..<start + 2], as: UTF8.self), radix: 16) else {
                return nil
            }
            bytes.append(byte)
        }
        let parts = String(decoding: bytes, as: UTF8.self).split(separator: "\u{0}", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts.contains(where: \.isEmpty) else { return nil }
        let (tagClass, tag, parent) = (String(parts[0]), String(parts[1]), String(parts[2]))
        // Only the spelling `dynamicType` makes (valid UTF-8, two plain digits a byte) is one.
        guard dynamicPrefix + hexadecimal(tagClass + "\u{0}" + tag + "\u{0}" + parent) == key else { return nil }
        return ([parent], tagClass, tag)
    }

    private static func hexadecimal(_ text: String) -> String {
        text.utf8.map { byte in (byte < 16 ? "0" : "") + String(byte, radix: 16) }.joined()
    }

    /// The declared types with `tag` of `tagClass` (the filename extension compared without case), preferred
    /// first (a type whose first tag it is before one that lists it later).
    static func types(withTag tag: String, tagClass: String) -> [String] {
        let key = tagClass == "public.filename-extension" || tagClass == "public.mime-type" ? tag.lowercased() : tag
        return tagIndex[tagClass]?[key] ?? []
    }

    /// The tags of `tagClass` of a type: its declaration's, or a dynamic type's own.
    static func tags(of identifier: String, tagClass: String) -> [String] {
        if let entry = dynamicEntry(identifier.lowercased()) {
            return entry.tagClass == tagClass ? [entry.tag] : []
        }
        guard let tags = canonicalIdentifier(identifier).flatMap({ systemTags[$0] }) else { return [] }
        return tagClass == "public.filename-extension" ? tags.extensions
            : tagClass == "public.mime-type" ? tags.mimeTypes : []
    }

    /// Tag class → tag → the types listing it, preferred first: a type listing it earlier among its own tags
    /// first, then by identifier (deterministic).
    private static let tagIndex: [String: [String: [String]]] = {
        var listed: [String: [String: [(position: Int, identifier: String)]]] = [:]
        for (identifier, tags) in systemTags {
            let classes = [("public.filename-extension", tags.extensions), ("public.mime-type", tags.mimeTypes)]
            for (tagClass, values) in classes {
                for (position, tag) in values.enumerated() {
                    listed[tagClass, default: [:]][tag.lowercased(), default: []].append((position, identifier))
                }
            }
        }
        return listed.mapValues { byTag in
            byTag.mapValues { entries in
                entries.sorted { ($0.position, $0.identifier) < ($1.position, $1.identifier) }.map(\.identifier)
            }
        }
    }()

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
        guard let canonical = canonicalIdentifier(identifier) else {
            return identifier == "public.item" ? [identifier] : [identifier, "public.item"]
        }
        // Known types by their declared spelling, each once however a declaration cased it.
        var result = [canonical]
        var seen: Set<String> = [canonical.lowercased()]
        var index = 0
        while index < result.count {
            // A parent nothing declared is a dynamic type: it conforms to `public.item`, as an unknown type does.
            let type = result[index]
            for parent in parents(of: type) ?? (type == "public.item" ? [] : ["public.item"]) {
                let parent = canonicalIdentifier(parent) ?? parent
                if seen.insert(parent.lowercased()).inserted { result.append(parent) }
            }
            index += 1
        }
        return result
    }

    /// Whether `identifier` is `other` or conforms to it, identifiers compared without case.
    public static func conforms(_ identifier: String, to other: String) -> Bool {
        tree(for: identifier).contains { sameIdentifier($0, other) }
    }

    /// Whether two type identifiers name one type: equal without case, as Apple compares them (`lowercased()`
    /// equal). Shared by `conforms` and `UTType.==`; ASCII identifiers, all real ones, are compared in place,
    /// without the two lowercased copies per comparison.
    static func sameIdentifier(_ a: String, _ b: String) -> Bool {
        if a == b { return true }
        var ascii = true
        let equal = a.utf8.elementsEqual(b.utf8) { x, y in
            if x >= 0x80 || y >= 0x80 { ascii = false }
            return x | (x &- 0x41 < 26 ? 0x20 : 0) == y | (y &- 0x41 < 26 ? 0x20 : 0)
        }
        // A difference met before any non-ASCII byte stays one once lowercased; past one, lowercase both.
        return ascii ? equal : a.lowercased() == b.lowercased()
    }
}
