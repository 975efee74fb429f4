#if !canImport(UniformTypeIdentifiers)
/// A minimal stand-in for Apple's `UTType` where the platform has none (Linux). On Apple platforms the real
/// `UniformTypeIdentifiers.UTType` is used instead. Conformance comes from `ContentTypeTree`.
public struct UTType: Hashable, Sendable, CustomStringConvertible {
    public let identifier: String

    /// A known type (system or registered); nil otherwise, like Apple's failable initialiser.
    public init?(_ identifier: String) {
        guard ContentTypeTree.isKnown(identifier) else { return nil }
        self.identifier = identifier
    }

    /// Declares an app-owned type conforming to `parent` (default `public.data`) and registers it.
    public init(exportedAs identifier: String, conformingTo parent: UTType? = nil) {
        self.identifier = identifier
        ContentTypeTree.register(identifier, conformingTo: [(parent ?? .data).identifier])
    }

    /// A type another party owns; registered like an exported one if unknown.
    public init(importedAs identifier: String, conformingTo parent: UTType? = nil) {
        self.identifier = identifier
        if !ContentTypeTree.isKnown(identifier) {
            ContentTypeTree.register(identifier, conformingTo: [(parent ?? .data).identifier])
        }
    }

    private init(system identifier: String) { self.identifier = identifier }

    /// A type as named, known or not, registering nothing: an unknown one is a dynamic type (it conforms to
    /// `public.item` only), as reading an attribute must not change what other types conform to.
    package init(named identifier: String) { self.identifier = identifier }

    public func conforms(to type: UTType) -> Bool { ContentTypeTree.conforms(identifier, to: type.identifier) }

    /// Every type this one conforms to, excluding itself.
    public var supertypes: Set<UTType> {
        Set(ContentTypeTree.tree(for: identifier).dropFirst().map(UTType.init(system:)))
    }

    public var description: String { identifier }

    public static let item = UTType(system: "public.item")
    public static let content = UTType(system: "public.content")
    public static let compositeContent = UTType(system: "public.composite-content")
    public static let data = UTType(system: "public.data")
    public static let directory = UTType(system: "public.directory")
    public static let folder = UTType(system: "public.folder")
    public static let volume = UTType(system: "public.volume")
    public static let package = UTType(system: "com.apple.package")
    public static let bundle = UTType(system: "com.apple.bundle")
    public static let text = UTType(system: "public.text")
    public static let plainText = UTType(system: "public.plain-text")
    public static let utf8PlainText = UTType(system: "public.utf8-plain-text")
    public static let utf16PlainText = UTType(system: "public.utf16-plain-text")
    public static let rtf = UTType(system: "public.rtf")
    public static let html = UTType(system: "public.html")
    public static let xml = UTType(system: "public.xml")
    public static let json = UTType(system: "public.json")
    public static let yaml = UTType(system: "public.yaml")
    public static let commaSeparatedText = UTType(system: "public.comma-separated-values-text")
    public static let sourceCode = UTType(system: "public.source-code")
    public static let swiftSource = UTType(system: "public.swift-source")
    public static let script = UTType(system: "public.script")
    public static let image = UTType(system: "public.image")
    public static let jpeg = UTType(system: "public.jpeg")
    public static let png = UTType(system: "public.png")
    public static let tiff = UTType(system: "public.tiff")
    public static let gif = UTType(system: "com.compuserve.gif")
    public static let heic = UTType(system: "public.heic")
    public static let svg = UTType(system: "public.svg-image")
    public static let audiovisualContent = UTType(system: "public.audiovisual-content")
    public static let audio = UTType(system: "public.audio")
    public static let mp3 = UTType(system: "public.mp3")
    public static let movie = UTType(system: "public.movie")
    public static let video = UTType(system: "public.video")
    public static let mpeg4Movie = UTType(system: "public.mpeg-4")
    public static let quickTimeMovie = UTType(system: "com.apple.quicktime-movie")
    public static let contact = UTType(system: "public.contact")
    public static let vCard = UTType(system: "public.vcard")
    public static let message = UTType(system: "public.message")
    public static let emailMessage = UTType(system: "public.email-message")
    public static let calendarEvent = UTType(system: "public.calendar-event")
    public static let toDoItem = UTType(system: "public.to-do-item")
    public static let url = UTType(system: "public.url")
    public static let fileURL = UTType(system: "public.file-url")
    public static let archive = UTType(system: "public.archive")
    public static let zip = UTType(system: "public.zip-archive")
    public static let gzip = UTType(system: "org.gnu.gnu-zip-archive")
    public static let diskImage = UTType(system: "public.disk-image")
    public static let pdf = UTType(system: "com.adobe.pdf")
    public static let spreadsheet = UTType(system: "public.spreadsheet")
    public static let presentation = UTType(system: "public.presentation")
    public static let executable = UTType(system: "public.executable")
    public static let unixExecutable = UTType(system: "public.unix-executable")
    public static let font = UTType(system: "public.font")
    public static let database = UTType(system: "public.database")
}
#endif
