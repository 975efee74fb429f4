import Foundation
import XCTest
@testable import Searchlight

final class AttributeSetTests: XCTestCase {
    /// Apple's sample code compiles and behaves unchanged.
    func testAppleSampleCode() {
        let set = CSSearchableItemAttributeSet(itemContentType: kUTTypeData as String)
        set.title = "July Report.Numbers"
        set.supportsPhoneCall = 1
        set.latitude = 37.33
        set.allDay = true
        XCTAssertEqual(set.title, "July Report.Numbers")
        XCTAssertEqual(set.supportsPhoneCall, 1)
        XCTAssertEqual(set.latitude?.doubleValue, 37.33)
        XCTAssertEqual(set.value(forAttribute: "supportsPhoneCall"), .number(.int(1)))
        XCTAssertEqual(set.value(forAttribute: "latitude"), .number(.double(37.33)))
        XCTAssertEqual(set.value(forAttribute: "allDay"), .number(.bool(true)))
        XCTAssertEqual(set.contentType, "public.data")
        XCTAssertEqual(set.contentTypeTree, ["public.data", "public.item"])
    }

    func testContentTypeInitialisersAndTree() {
        let image = CSSearchableItemAttributeSet(contentType: .jpeg)
        XCTAssertEqual(image.contentType, "public.jpeg")
        XCTAssertEqual(image.contentTypeTree, ["public.jpeg", "public.image", "public.data", "public.content", "public.item"])
        let numbers = CSSearchableItemAttributeSet(itemContentType: "com.apple.iwork.numbers.numbers")
        XCTAssertTrue(numbers.contentTypeTree?.contains("public.spreadsheet") == true)
        XCTAssertTrue(numbers.contentTypeTree?.contains("public.content") == true)
        numbers.contentType = "public.email-message"
        // Apple declares `public.message` without parents (UTCoreTypes.h), so the tree ends there.
        XCTAssertEqual(numbers.contentTypeTree, ["public.email-message", "public.message"])
        numbers.contentType = nil
        XCTAssertEqual(numbers.slot(forAttribute: "contentTypeTree"), .cleared)
        XCTAssertNil(numbers.contentTypeTree)
    }

    /// A registered type whose parent nothing declared conforms to `public.item` through it (the unknown parent
    /// is a dynamic type, as any unknown type is); reading a type attribute that names an unknown type registers
    /// nothing, so other sets' trees do not change with what was read before.
    func testUnknownParentsAreDynamicTypesAndReadingRegistersNothing() {
        ContentTypeTree.register("com.example.review-child", conformingTo: ["com.example.review-parent"])
        XCTAssertEqual(ContentTypeTree.tree(for: "com.example.review-child"),
                       ["com.example.review-child", "com.example.review-parent", "public.item"])
        let id = "com.example.review-unknown"
        let before = CSSearchableItemAttributeSet(itemContentType: id).contentTypeTree
        XCTAssertEqual(before, [id, "public.item"])
        let other = CSSearchableItemAttributeSet()
        other.setValue(.string(id), forAttribute: "sharedItemContentType")
        XCTAssertEqual(other.sharedItemContentType?.identifier, id)
        XCTAssertEqual(other.sharedItemContentType?.conforms(to: .item), true)
        XCTAssertEqual(other.sharedItemContentType?.conforms(to: .data), false)
        XCTAssertEqual(CSSearchableItemAttributeSet(itemContentType: id).contentTypeTree, before)
        XCTAssertFalse(ContentTypeTree.isKnown(id))
    }

    #if !canImport(UniformTypeIdentifiers)
    /// `UTType` by filename extension and MIME type, as real Core Spotlight code finds an item's type
    /// (`UTType(filenameExtension: url.pathExtension) ?? .data`): the declared type, else a dynamic one that
    /// conforms to what was asked and registers nothing else.
    func testTypesByFilenameExtensionAndMIMEType() throws {
        XCTAssertEqual(UTType(filenameExtension: "jpg"), .jpeg)
        XCTAssertEqual(UTType(filenameExtension: "JPEG"), .jpeg)
        XCTAssertEqual(UTType(mimeType: "application/pdf"), .pdf)
        XCTAssertEqual(UTType(tag: "txt", tagClass: .filenameExtension, conformingTo: nil), .plainText)
        XCTAssertEqual(UTType.jpeg.preferredFilenameExtension, "jpeg")
        XCTAssertEqual(UTType.jpeg.preferredMIMEType, "image/jpeg")
        XCTAssertEqual(UTType.jpeg.tags[.filenameExtension], ["jpeg", "jpg", "jpe"])
        XCTAssertTrue(UTType.jpeg.isDeclared && !UTType.jpeg.isDynamic && UTType.jpeg.isPublic)
        XCTAssertTrue(UTType.jpeg.isSubtype(of: .image) && UTType.image.isSupertype(of: .jpeg))
        XCTAssertFalse(UTType.jpeg.isSubtype(of: .jpeg))
        let unknown = try XCTUnwrap(UTType(filenameExtension: "xyzzy"))
        XCTAssertTrue(unknown.isDynamic && !unknown.isDeclared)
        XCTAssertTrue(unknown.conforms(to: .data) && unknown.conforms(to: .item))
        XCTAssertEqual(unknown.tags, [.filenameExtension: ["xyzzy"]])
        XCTAssertEqual(UTType(filenameExtension: "xyzzy"), unknown, "one dynamic type per tag")
        let asText = try XCTUnwrap(UTType(filenameExtension: "jpg", conformingTo: .text))
        XCTAssertTrue(asText.isDynamic && asText.conforms(to: .text), "jpeg is no text: a dynamic type that is")
        XCTAssertNil(UTType(filenameExtension: ""))
        XCTAssertNil(UTType.jpeg.localizedDescription)
        // Real indexers' lines: the types by Apple's names (UTType members and the older kUTType constants).
        let book = CSSearchableItemAttributeSet(contentType: UTType.epub)
        XCTAssertEqual(book.contentType, "org.idpf.epub-container")
        XCTAssertEqual(UTType(filenameExtension: "epub"), .epub)
        XCTAssertEqual(kUTTypeElectronicPublication, UTType.epub.identifier)
        XCTAssertTrue(UTType.mpeg4Audio.conforms(to: .audio) && UTType.wav.conforms(to: .audio))
        XCTAssertEqual(UTType(filenameExtension: "wav"), .wav)
        XCTAssertEqual(kUTTypeWaveformAudio, UTType.wav.identifier)
        XCTAssertTrue(UTType.webP.conforms(to: .image) && UTType.pythonScript.conforms(to: .sourceCode))
        let set = CSSearchableItemAttributeSet(contentType: UTType(filenameExtension: "txt") ?? .data)
        XCTAssertEqual(set.contentType, "public.plain-text")
        XCTAssertTrue(set.contentTypeTree?.contains("public.text") == true)
    }

    /// Parents and tags as Apple declares them (UTCoreTypes.h of the macOS 11.3 SDK, the UTType documentation,
    /// CoreTypes' declarations), where the table had them from memory.
    func testSystemDeclarationsMatchApples() throws {
        XCTAssertTrue(UTType.pythonScript.conforms(to: .shellScript))
        XCTAssertTrue(UTType.zip.conforms(to: UTType("com.pkware.zip-archive")!) && UTType.zip.conforms(to: .data))
        XCTAssertEqual(ContentTypeTree.parents(of: "public.archive"), [])
        XCTAssertTrue(UTType.gzip.conforms(to: .data) && UTType.gzip.conforms(to: .archive))
        XCTAssertTrue(UTType.mpeg4Audio.conforms(to: .mpeg4Movie))
        // Office Open XML files are not archives on Apple platforms.
        let docx = try XCTUnwrap(UTType(filenameExtension: "docx"))
        XCTAssertFalse(docx.conforms(to: .archive))
        XCTAssertTrue(docx.conforms(to: .data) && docx.conforms(to: .compositeContent))
        // The package and the single-file iWork documents are not swapped; `.pages` as data is the single file.
        XCTAssertTrue(ContentTypeTree.conforms("com.apple.iwork.pages.pages", to: "com.apple.package"))
        XCTAssertTrue(ContentTypeTree.conforms("com.apple.iwork.pages.sffpages", to: "public.data"))
        XCTAssertEqual(UTType(filenameExtension: "pages")?.identifier, "com.apple.iwork.pages.sffpages")
        // Tags that belong to a more specific type than the table had, and preferred tags first.
        XCTAssertEqual(UTType(filenameExtension: "m4a")?.identifier, "com.apple.m4a-audio")
        XCTAssertTrue(UTType(filenameExtension: "m4a")?.conforms(to: .mpeg4Audio) == true)
        XCTAssertEqual(UTType(filenameExtension: "log")?.identifier, "com.apple.log")
        XCTAssertTrue(UTType(filenameExtension: "log")?.conforms(to: .log) == true)
        XCTAssertEqual(UTType(filenameExtension: "inetloc")?.identifier, "com.apple.generic-internet-location")
        XCTAssertEqual(UTType.yaml.preferredFilenameExtension, "yml")
        XCTAssertEqual(UTType.midi.preferredFilenameExtension, "midi")
        XCTAssertEqual(UTType(filenameExtension: "flac")?.identifier, "org.xiph.flac")
        XCTAssertEqual(UTType(mimeType: "application/octet-stream"), .data)
        XCTAssertEqual(kUTTagClassFilenameExtension, UTTagClass.filenameExtension.rawValue)
        XCTAssertEqual(kUTTagClassMIMEType, UTTagClass.mimeType.rawValue)
    }
    #endif

    func testContentTypeTreeTable() {
        XCTAssertEqual(ContentTypeTree.tree(for: "public.utf8-plain-text"),
                       ["public.utf8-plain-text", "public.plain-text", "public.text", "public.data", "public.content", "public.item"])
        XCTAssertEqual(ContentTypeTree.tree(for: "public.vcard"),
                       ["public.vcard", "public.text", "public.contact", "public.data", "public.content", "public.item"])
        XCTAssertTrue(ContentTypeTree.conforms("public.mpeg-4", to: "public.movie"))
        XCTAssertTrue(ContentTypeTree.conforms("public.mpeg-4", to: "public.audiovisual-content"))
        XCTAssertFalse(ContentTypeTree.conforms("public.mpeg-4", to: "public.audio"))
        XCTAssertTrue(ContentTypeTree.conforms("com.adobe.pdf", to: "public.composite-content"))
        XCTAssertTrue(ContentTypeTree.conforms("public.folder", to: "public.directory"))
        XCTAssertTrue(ContentTypeTree.conforms("public.zip-archive", to: "public.archive"))
        XCTAssertEqual(ContentTypeTree.tree(for: "public.item"), ["public.item"])
        // Unknown types conform to public.item only.
        XCTAssertEqual(ContentTypeTree.tree(for: "org.example.unknown"), ["org.example.unknown", "public.item"])
        // App-declared types get a full pedigree; cycles are cut.
        ContentTypeTree.register("com.example.recipe", conformingTo: ["public.json"])
        XCTAssertEqual(ContentTypeTree.tree(for: "com.example.recipe"),
                       ["com.example.recipe", "public.json", "public.text", "public.data", "public.content", "public.item"])
        ContentTypeTree.register("com.example.a", conformingTo: ["com.example.b"])
        ContentTypeTree.register("com.example.b", conformingTo: ["com.example.a"])
        XCTAssertEqual(ContentTypeTree.tree(for: "com.example.a"), ["com.example.a", "com.example.b"])
        // System types cannot be redefined.
        ContentTypeTree.register("public.text", conformingTo: ["public.image"])
        XCTAssertFalse(ContentTypeTree.conforms("public.text", to: "public.image"))
        let set = CSSearchableItemAttributeSet(itemContentType: "com.example.recipe")
        XCTAssertEqual(set.contentTypeTree?.last, "public.item")
    }

    #if !canImport(UniformTypeIdentifiers)
    /// Apple compares type identifiers without case: `UTType("PUBLIC.JPEG")` is `.jpeg`, a type named in
    /// another case conforms and derives its tree as the declared type does, equal types hash alike, and a
    /// registration cannot redefine a system type, nor conform to itself, by changing case.
    func testTypeIdentifiersCompareWithoutCase() {
        XCTAssertEqual(UTType("PUBLIC.JPEG"), .jpeg)
        XCTAssertEqual(UTType("Public.Jpeg")?.identifier, "public.jpeg")
        XCTAssertTrue(ContentTypeTree.conforms("Public.JPEG", to: "PUBLIC.IMAGE"))
        XCTAssertEqual(CSSearchableItemAttributeSet(itemContentType: "Public.JPEG").contentTypeTree,
                       ["public.jpeg", "public.image", "public.data", "public.content", "public.item"])
        let exported = UTType(exportedAs: "com.example.Case-Note", conformingTo: .plainText)
        XCTAssertEqual(UTType("COM.EXAMPLE.CASE-NOTE"), exported)
        XCTAssertEqual(Set([exported, UTType(named: "com.example.case-note")]).count, 1)
        XCTAssertTrue(UTType(named: "PUBLIC.JPEG").conforms(to: .image) && UTType(named: "PUBLIC.JPEG").isPublic)
        XCTAssertFalse(UTType.jpeg.isSubtype(of: UTType(named: "PUBLIC.JPEG")))
        ContentTypeTree.register("PUBLIC.TEXT", conformingTo: ["public.image"])
        XCTAssertFalse(ContentTypeTree.conforms("public.text", to: "public.image"))
        XCTAssertFalse(ContentTypeTree.conforms("PUBLIC.TEXT", to: "public.image"))
        ContentTypeTree.register("com.example.case-loop", conformingTo: ["COM.EXAMPLE.CASE-LOOP"])
        XCTAssertEqual(ContentTypeTree.tree(for: "com.example.case-loop"), ["com.example.case-loop"])
    }

    /// The shared comparison folds ASCII in place and falls back to `lowercased()` past a non-ASCII byte, so it
    /// says what lowercasing both would: the Kelvin sign lowercases to "k", and a longer spelling is another type.
    func testTypeIdentifierComparisonAgreesWithLowercasing() {
        let pairs = [("public.JPEG", "PUBLIC.jpeg"), ("com.example.\u{212A}ey", "com.example.key"),
                     ("com.example.caf\u{C9}", "COM.EXAMPLE.CAF\u{E9}"), ("public.jpeg", "public.jpeg2"),
                     ("public.jpeg\u{E9}", "public.jpeg"), ("public.[", "public.{"), ("a@", "A`")]
        for (a, b) in pairs {
            XCTAssertEqual(ContentTypeTree.sameIdentifier(a, b), a.lowercased() == b.lowercased(), "\(a) \(b)")
            XCTAssertEqual(ContentTypeTree.sameIdentifier(b, a), a.lowercased() == b.lowercased(), "\(b) \(a)")
        }
    }

    /// A dynamic identifier spells its tag and supertype, so one stored by an earlier run (a store, a
    /// preference) names the same type in a process that never made it, as Apple's `dyn.` identifiers do;
    /// one that spells nothing stays unknown.
    func testDynamicIdentifiersNameTheirTypeInAnyProcess() throws {
        let spelled = "public.filename-extension\u{0}never-made-here\u{0}public.image"
        let identifier = "dyn." + spelled.utf8.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        let type = try XCTUnwrap(UTType(identifier))
        XCTAssertTrue(type.isDynamic && !type.isDeclared)
        XCTAssertTrue(type.conforms(to: .image) && type.conforms(to: .data))
        XCTAssertEqual(type.tags, [.filenameExtension: ["never-made-here"]])
        XCTAssertEqual(CSSearchableItemAttributeSet(itemContentType: identifier).contentTypeTree,
                       [identifier, "public.image", "public.data", "public.content", "public.item"])
        XCTAssertNil(UTType("dyn.zz"))
        XCTAssertNil(UTType("dyn." + "no separators".utf8.map { String($0, radix: 16) }.joined()))
    }

    /// `UTType` is `Codable` as Apple's is, so a ported model holding one (`struct Doc: Codable { var type:
    /// UTType }`) compiles and round-trips; it is written as its identifier.
    func testUTTypeIsCodableAsItsIdentifier() throws {
        struct Document: Codable, Equatable { var type: UTType; var shared: UTType? }
        let document = Document(type: .jpeg, shared: UTType(filenameExtension: "never-coded"))
        let data = try JSONEncoder().encode(document)
        XCTAssertEqual(try JSONDecoder().decode(Document.self, from: data), document)
        XCTAssertEqual(String(decoding: try JSONEncoder().encode([UTType.pdf]), as: UTF8.self), #"["com.adobe.pdf"]"#)
        XCTAssertEqual(try JSONDecoder().decode(UTType.self, from: Data(#""Public.PNG""#.utf8)).identifier, "public.png")
        XCTAssertThrowsError(try JSONDecoder().decode(UTType.self, from: Data(#""""#.utf8)))
    }

    /// `UTType` is `CustomDebugStringConvertible` as Apple's is (a ported `type.debugDescription` compiles),
    /// naming the identifier and whether the type is dynamic and declared.
    func testUTTypeDebugDescription() throws {
        XCTAssertEqual(UTType.jpeg.debugDescription, "public.jpeg (not dynamic, declared)")
        let dynamic = try XCTUnwrap(UTType(filenameExtension: "never-described"))
        XCTAssertEqual(dynamic.debugDescription, "\(dynamic.identifier) (dynamic, not declared)")
    }

    func testUTTypeStandIn() {
        XCTAssertEqual(UTType.data.identifier, "public.data")
        XCTAssertTrue(UTType.png.conforms(to: .image))
        XCTAssertFalse(UTType.png.conforms(to: .text))
        XCTAssertNil(UTType("org.example.never-declared"))
        XCTAssertEqual(UTType("public.json"), .json)
        XCTAssertTrue(UTType.jpeg.supertypes.contains(.data))
        XCTAssertFalse(UTType.jpeg.supertypes.contains(.jpeg))
        let exported = UTType(exportedAs: "com.example.note", conformingTo: .plainText)
        XCTAssertTrue(exported.conforms(to: .text))
        XCTAssertNotNil(UTType("com.example.note"))
        let set = CSSearchableItemAttributeSet(contentType: exported)
        XCTAssertEqual(set.contentTypeTree?.prefix(2), ["com.example.note", "public.plain-text"])
        set.sharedItemContentType = .pdf
        XCTAssertEqual(set.sharedItemContentType, .pdf)
        XCTAssertEqual(kUTTypeImage, "public.image")
        XCTAssertEqual(kUTTypePDF, "com.adobe.pdf")
    }
    #endif

    func testThreeStatesAndMerge() {
        let stored = CSSearchableItemAttributeSet(itemContentType: "public.text")
        stored.title = "Old title"
        stored.keywords = ["a", "b"]
        stored.contentDescription = "Keep me"
        let key = CSCustomAttributeKey(keyName: "mood")!
        stored.setValue("happy", forCustomKey: key)

        let update = CSSearchableItemAttributeSet()
        XCTAssertNil(update.slot(forAttribute: "title"))  // unset
        update.title = "New title"                        // value
        update.keywords = nil                             // cleared
        update.setValue(nil, forCustomKey: key)           // cleared custom
        XCTAssertEqual(update.slot(forAttribute: "keywords"), .cleared)
        XCTAssertEqual(update.slot(forAttribute: "mood"), .cleared)

        stored.merge(update: update)
        XCTAssertEqual(stored.title, "New title")
        XCTAssertNil(stored.keywords)
        XCTAssertEqual(stored.slot(forAttribute: "keywords"), .cleared, "merge keeps the tombstone for coalescing")
        XCTAssertEqual(stored.contentDescription, "Keep me", "unset in the update: untouched")
        XCTAssertEqual(stored.contentType, "public.text")
        XCTAssertNil(stored.value(forCustomKey: key))
        stored.removeClearedSlots()
        XCTAssertNil(stored.slot(forAttribute: "keywords"))
        XCTAssertNil(stored.slot(forAttribute: "mood"))
        XCTAssertEqual(Set(stored.snapshot.named.keys), ["contentType", "contentTypeTree", "title", "contentDescription"])
    }

    func testFreeTextValues() {
        let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
        set.keywords = ["k1", "k2"]
        set.title = "Title"
        set.contentURL = URL(string: "https://example.com")
        set.authors = [CSPerson(displayName: "Ann", handles: ["ann@x"], handleIdentifier: "email")]
        set.authorNames = ["Ann"]
        set.setValue("hidden", forCustomKey: CSCustomAttributeKey(keyName: "plain")!)
        set.setValue(["shown"], forCustomKey: CSCustomAttributeKey(keyName: "tags", searchable: true, searchableByDefault: true, unique: false, multiValued: true)!)
        set.setValue("off", forCustomKey: CSCustomAttributeKey(keyName: "off", searchable: false, searchableByDefault: true, unique: false, multiValued: false)!)
        let values = set.snapshot.freeTextValues
        XCTAssertEqual(values.map(\.name), ["keywords", "title", "authorNames", "tags"])
        XCTAssertEqual(values.map(\.texts), [["k1", "k2"], ["Title"], ["Ann"], ["shown"]])
    }

    func testCopyIsDeepAndIndependent() {
        let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
        set.title = "One"
        set.authors = [CSPerson(displayName: "Ann", handles: ["a@x"], handleIdentifier: "email")]
        let copy = set.copy() as? CSSearchableItemAttributeSet
        XCTAssertNotNil(copy)
        XCTAssertFalse(copy === set)
        set.title = "Two"
        set.authors?.first?.contactIdentifier = "changed"  // a new CSPerson object each read: does not leak
        XCTAssertEqual(copy?.title, "One")
        XCTAssertEqual(copy?.authors?.first?.displayName, "Ann")
        XCTAssertNil(copy?.authors?.first?.contactIdentifier)
        XCTAssertEqual(copy?.snapshot.named["title"], .value(.string("One")))
    }

    /// Apple's attribute set overrides `isEqual:` and `hash`: a copy or a decoded archive equals the original, so
    /// `XCTAssertEqual(copy, set)` and `==` work after a port; a set differing in any slot does not.
    func testEqualityComparesContents() throws {
        let set = CSSearchableItemAttributeSet(contentType: .text)
        set.title = "One"
        set.rating = 4
        set.keywords = nil
        set.setValue(["a", "b"], forCustomKey: try XCTUnwrap(CSCustomAttributeKey(keyName: "tags")))
        let copy = try XCTUnwrap(set.copy() as? CSSearchableItemAttributeSet)
        XCTAssertEqual(copy, set)
        XCTAssertEqual(copy.hash, set.hash)
        let data = try NSKeyedArchiver.archivedData(withRootObject: set, requiringSecureCoding: true)
        let decoded = try XCTUnwrap(NSKeyedUnarchiver.unarchivedObject(ofClass: CSSearchableItemAttributeSet.self,
                                                                        from: data))
        XCTAssertEqual(decoded, set)
        XCTAssertEqual(decoded.hash, set.hash)
        XCTAssertEqual(Set([set, copy, decoded]).count, 1)

        copy.title = "Two"
        XCTAssertNotEqual(copy, set)
        decoded.keywords = ["k"]
        XCTAssertNotEqual(decoded, set)
        XCTAssertFalse(set.isEqual("One"))
        XCTAssertNotEqual(CSSearchableItemAttributeSet(), set)
    }

    func testConcurrentMutationIsSafe() {
        let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
        DispatchQueue.concurrentPerform(iterations: 200) { i in
            set.title = "t\(i)"
            set.keywords = ["k\(i)"]
            _ = set.snapshot
            set.setValue(NSNumber(value: i), forCustomKey: CSCustomAttributeKey(keyName: "n\(i % 7)")!)
        }
        XCTAssertNotNil(set.title)
        XCTAssertEqual(set.snapshot.custom.count, 7)
    }

    func testPersonAndLocalizedString() {
        let p = CSPerson(displayName: "Ray", handles: ["+1 555 0199"], handleIdentifier: "CNContactPhoneNumbersKey")
        XCTAssertEqual(p.displayName, "Ray")
        XCTAssertEqual(p.handles, ["+1 555 0199"])
        XCTAssertEqual(p.handleIdentifier, "CNContactPhoneNumbersKey")
        XCTAssertNil(p.contactIdentifier)
        p.contactIdentifier = "ABC-123"
        XCTAssertEqual((p.copy() as? CSPerson)?.contactIdentifier, "ABC-123")
        XCTAssertEqual(p.copy() as? CSPerson, p)

        let s = CSLocalizedString(localizedStrings: ["en": "Colour", "fr": "Couleur", "en-US": "Color", 7: "ignored"])
        XCTAssertEqual(s.localizedString(preferredLanguages: ["fr-CA"]), "Couleur")
        XCTAssertEqual(s.localizedString(preferredLanguages: ["en-US"]), "Color")
        XCTAssertEqual(s.localizedString(preferredLanguages: ["de"]), "Colour")
        XCTAssertEqual(s.localizedStrings.count, 3)
        XCTAssertEqual(CSLocalizedString(localizedStrings: ["ja": "色"]).localizedString(preferredLanguages: ["de"]), "色")
        XCTAssertEqual(CSLocalizedString(localizedStrings: [:]).localizedString(preferredLanguages: ["de"]), "")
        let set = CSSearchableItemAttributeSet()
        set.title = String(s)
        XCTAssertFalse(set.title?.isEmpty ?? true)
    }

    /// CSPerson adopts NSSecureCoding "like Apple's": a keyed archive round trip keeps it.
    func testPersonArchivesAndUnarchives() throws {
        let person = CSPerson(displayName: "Ann", handles: ["a@x", "+1 555"], handleIdentifier: "email")
        person.contactIdentifier = "C1"
        let data = try NSKeyedArchiver.archivedData(withRootObject: person, requiringSecureCoding: true)
        let back = try NSKeyedUnarchiver.unarchivedObject(ofClass: CSPerson.self, from: data)
        XCTAssertEqual(back, person)
        XCTAssertEqual(back?.contactIdentifier, "C1")
        let anonymous = CSPerson(displayName: nil, handles: [], handleIdentifier: "phone")
        let data2 = try NSKeyedArchiver.archivedData(withRootObject: anonymous, requiringSecureCoding: true)
        XCTAssertEqual(try NSKeyedUnarchiver.unarchivedObject(ofClass: CSPerson.self, from: data2), anonymous)
    }

    /// Apple's attribute set is `NSSecureCoding`: a keyed archive (secure coding required) keeps every attribute of
    /// the catalogue, each kind exactly (Int64 beyond a Double's precision, Bool, sub-second dates), cleared slots,
    /// and custom values of every kind with their keys' flags.
    func testAttributeSetArchivesEveryAttributeAndCustomValue() throws {
        XCTAssertTrue(CSSearchableItemAttributeSet.supportsSecureCoding)
        let set = CSSearchableItemAttributeSet(contentType: .text)
        for descriptor in AttributeCatalog.all where !["contentType", "contentTypeTree"].contains(descriptor.name) {
            set.setValue(sample(for: descriptor).stored, forAttribute: descriptor.name)
        }
        set.rating = NSNumber(value: Int64.max - 1)
        set.playCount = NSNumber(value: true)
        set.comment = nil  // cleared, not unset
        let tags = try XCTUnwrap(CSCustomAttributeKey(keyName: "tags", searchable: true, searchableByDefault: true,
                                                      unique: true, multiValued: true))
        let person = CSPerson(displayName: nil, handles: ["+1 555"], handleIdentifier: "phone")
        person.contactIdentifier = "C9"
        let customs: [String: Any] = [
            "big": Int64.min, "flag": false, "ratio": 0.1, "when": Date(timeIntervalSinceReferenceDate: 1.000_000_1),
            "blob": Data([0, 255]), "link": URL(string: "https://example.com/x?y=1")!, "who": person,
            "none": NSNull(), "mixed": ["a", 2, Date(timeIntervalSinceReferenceDate: 3)] as [Any],
        ]
        for (name, value) in customs { set.setValue(value, forCustomKey: try XCTUnwrap(CSCustomAttributeKey(keyName: name))) }
        set.setValue(["x", "y"], forCustomKey: tags)
        set.setValue(nil as Any?, forCustomKey: try XCTUnwrap(CSCustomAttributeKey(keyName: "gone")))

        let data = try NSKeyedArchiver.archivedData(withRootObject: set, requiringSecureCoding: true)
        let back = try XCTUnwrap(NSKeyedUnarchiver.unarchivedObject(ofClass: CSSearchableItemAttributeSet.self, from: data))
        XCTAssertEqual(back.snapshot, set.snapshot)
        XCTAssertEqual(back.snapshot.named.count, AttributeCatalog.all.count)
        XCTAssertEqual(back.rating?.int64Value, Int64.max - 1)
        XCTAssertEqual(back.slot(forAttribute: "comment"), .cleared)
        XCTAssertEqual(back.value(forCustomKey: tags) as? NSArray, ["x", "y"] as NSArray)
        XCTAssertEqual(back.snapshot.custom["tags"]?.key, tags.info)
        XCTAssertEqual((back.value(forCustomKey: try XCTUnwrap(CSCustomAttributeKey(keyName: "big"))) as? NSNumber)?.int64Value, Int64.min)
        XCTAssertEqual(back.value(forCustomKey: try XCTUnwrap(CSCustomAttributeKey(keyName: "who"))) as? CSPerson, person)
    }

    /// A corrupt or hostile archive of an attribute set decodes to nothing (an error), never a crash or a set
    /// holding what the API could not have stored.
    func testCorruptAttributeSetArchiveFailsCleanly() throws {
        let set = CSSearchableItemAttributeSet(contentType: .text)
        set.title = "T"
        set.setValue(7, forCustomKey: try XCTUnwrap(CSCustomAttributeKey(keyName: "n")))
        var writer = StoredValueWriter()
        writer.storage(set.snapshot)
        let good = writer.bytes
        func unarchive(_ storage: Any?) -> CSSearchableItemAttributeSet? {
            guard let data = try? NSKeyedArchiver.archivedData(withRootObject: ForgedArchive(storage), requiringSecureCoding: true),
                  let unarchiver = try? NSKeyedUnarchiver(forReadingFrom: data) else { return nil }
            unarchiver.decodingFailurePolicy = .setErrorAndReturn  // as `unarchivedObject(ofClass:from:)` sets it
            unarchiver.setClass(CSSearchableItemAttributeSet.self, forClassName: NSStringFromClass(ForgedArchive.self))
            return unarchiver.decodeObject(of: CSSearchableItemAttributeSet.self, forKey: NSKeyedArchiveRootObjectKey)
        }
        XCTAssertEqual(unarchive(NSData(data: Data(good)))?.title, "T", "the forging itself works")
        XCTAssertNil(unarchive(nil))
        for cut in 0..<good.count { XCTAssertNil(unarchive(NSData(data: Data(good[..<cut]))), "truncated at \(cut)") }
        XCTAssertNil(unarchive(NSData(data: Data(good + [0]))), "trailing bytes")
        var rng = SeededGenerator(seed: 7)
        for _ in 0..<300 {
            var bytes = good
            bytes[Int.random(in: 0..<bytes.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
            _ = unarchive(NSData(data: Data(bytes)))  // any outcome but a crash
        }
        func forged(_ storage: AttributeStorage) -> NSData {
            var w = StoredValueWriter()
            w.storage(storage)
            return NSData(data: Data(w.bytes))
        }
        XCTAssertNil(unarchive(forged(AttributeStorage(named: ["notAnAttribute": .value(.string("x"))]))))
        XCTAssertNil(unarchive(forged(AttributeStorage(named: ["title": .value(.number(.int(1)))]))), "wrong kind")
        let badKey = CustomAttributeKeyInfo(keyName: "kMDItemTitle")
        XCTAssertNil(unarchive(forged(AttributeStorage(custom: ["kMDItemTitle": CustomAttributeEntry(key: badKey, slot: .cleared)]))))
        XCTAssertThrowsError(try NSKeyedUnarchiver.unarchivedObject(ofClass: CSSearchableItemAttributeSet.self,
                                                                    from: Data("not an archive".utf8)))
    }

    /// A hostile archive's custom value of a shape no API call stores (`emailHeaders`' `.headers`, arrays not in
    /// `normalizedArray`'s one form) does not decode: such a value passed validation, was indexed, and its JSON
    /// export could not be read back.
    func testArchiveWithCustomValueTheAPICannotSetIsRefused() throws {
        func roundTrip(_ value: AttributeValue) throws -> CSSearchableItemAttributeSet? {
            let key = CustomAttributeKeyInfo(keyName: "sneaky")
            let set = CSSearchableItemAttributeSet(storage: AttributeStorage(
                named: ["title": .value(.string("T"))],
                custom: ["sneaky": CustomAttributeEntry(key: key, slot: .value(value))]))
            let data = try NSKeyedArchiver.archivedData(withRootObject: set, requiringSecureCoding: true)
            return try? NSKeyedUnarchiver.unarchivedObject(ofClass: CSSearchableItemAttributeSet.self, from: data)  // nil: refused
        }
        let refused: [AttributeValue] = [
            .headers(["handleIdentifier": [.string("x")]]), .array([]), .array([.string("a"), .string("b")]),
            .dates([]), .persons([]), .array([.null, .array([.date(Date(timeIntervalSinceReferenceDate: 0))])]),
        ]
        for value in refused { XCTAssertNil(try roundTrip(value), "\(value)") }
        let kept: [Any] = ["a", [] as [Any], ["a", 1, [Date(timeIntervalSinceReferenceDate: 0)], [[NSNull()]]] as [Any]]
        for value in kept {
            let stored = AttributeValue.fromCustom(value)
            XCTAssertEqual(try roundTrip(stored)?.snapshot.custom["sneaky"]?.slot, .value(stored))
        }
    }
}

extension AttributeSetTests {
    /// `emailHeaders` values are built like custom values (`fromCustom`), so a hostile archive's header value of a
    /// shape no API call stores (a nested `.headers`, an array not in `normalizedArray`'s form) does not decode
    /// either: it would be indexed and its JSON export not read back as it was.
    func testArchiveWithEmailHeaderValueTheAPICannotSetIsRefused() throws {
        func roundTrip(_ value: AttributeValue) throws -> CSSearchableItemAttributeSet? {
            let set = CSSearchableItemAttributeSet(storage: AttributeStorage(
                named: ["title": .value(.string("T")), "emailHeaders": .value(.headers(["To": [value]]))]))
            let data = try NSKeyedArchiver.archivedData(withRootObject: set, requiringSecureCoding: true)
            return try? NSKeyedUnarchiver.unarchivedObject(ofClass: CSSearchableItemAttributeSet.self, from: data)
        }
        let refused: [AttributeValue] = [
            .headers(["x": [.string("y")]]), .array([.string("a"), .string("b")]), .dates([]), .persons([]),
        ]
        for value in refused { XCTAssertNil(try roundTrip(value), "\(value)") }
        let kept: [Any] = ["a", ["a", "b"], ["a", 1] as [Any], NSNumber(value: 2)]
        for value in kept {
            let stored = AttributeValue.fromCustom(value)
            XCTAssertEqual(try roundTrip(stored)?.snapshot.named["emailHeaders"], .value(.headers(["To": [stored]])))
        }
    }
}

/// Stands in for an attribute set in a forged archive, encoding whatever `storage` it is given (internal, not
/// private: `NSKeyedArchiver` names only top-level classes).
final class ForgedArchive: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let storage: Any?
    init(_ storage: Any?) { self.storage = storage }
    init?(coder: NSCoder) { nil }
    func encode(with coder: NSCoder) { coder.encode(storage, forKey: "storage") }
}
