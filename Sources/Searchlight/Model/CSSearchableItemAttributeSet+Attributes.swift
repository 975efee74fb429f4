// GENERATED from the attribute table of corespotlight-reference.md §1.8 / §1.17 by a one-off script
// (not kept). Edit by hand consistently with the other generated file if an attribute changes.
import Foundation
#if canImport(UniformTypeIdentifiers)
import UniformTypeIdentifiers
#endif

/// The typed properties of reference §1.8, each a view onto the attribute storage.
extension CSSearchableItemAttributeSet {
    // MARK: general
    /// `displayName` (general).
    public var displayName: String? {
        get { stringAttribute("displayName") }
        set { setStringAttribute("displayName", newValue) }
    }
    /// `alternateNames` (general).
    public var alternateNames: [String]? {
        get { stringsAttribute("alternateNames") }
        set { setStringsAttribute("alternateNames", newValue) }
    }
    /// `path` (general).
    public var path: String? {
        get { stringAttribute("path") }
        set { setStringAttribute("path", newValue) }
    }
    /// `contentURL` (general).
    public var contentURL: URL? {
        get { urlAttribute("contentURL") }
        set { setUrlAttribute("contentURL", newValue) }
    }
    /// `thumbnailURL` (general).
    public var thumbnailURL: URL? {
        get { urlAttribute("thumbnailURL") }
        set { setUrlAttribute("thumbnailURL", newValue) }
    }
    /// `thumbnailData` (general).
    public var thumbnailData: Data? {
        get { dataAttribute("thumbnailData") }
        set { setDataAttribute("thumbnailData", newValue) }
    }
    /// `darkThumbnailURL` (general).
    public var darkThumbnailURL: URL? {
        get { urlAttribute("darkThumbnailURL") }
        set { setUrlAttribute("darkThumbnailURL", newValue) }
    }
    /// `relatedUniqueIdentifier` (general).
    public var relatedUniqueIdentifier: String? {
        get { stringAttribute("relatedUniqueIdentifier") }
        set { setStringAttribute("relatedUniqueIdentifier", newValue) }
    }
    /// `weakRelatedUniqueIdentifier` (general).
    public var weakRelatedUniqueIdentifier: String? {
        get { stringAttribute("weakRelatedUniqueIdentifier") }
        set { setStringAttribute("weakRelatedUniqueIdentifier", newValue) }
    }
    /// `metadataModificationDate` (general).
    public var metadataModificationDate: Date? {
        get { dateAttribute("metadataModificationDate") }
        set { setDateAttribute("metadataModificationDate", newValue) }
    }
    /// `keywords` (general).
    public var keywords: [String]? {
        get { stringsAttribute("keywords") }
        set { setStringsAttribute("keywords", newValue) }
    }
    /// `title` (general).
    public var title: String? {
        get { stringAttribute("title") }
        set { setStringAttribute("title", newValue) }
    }
    /// `version` (general).
    public var version: String? {
        get { stringAttribute("version") }
        set { setStringAttribute("version", newValue) }
    }
    /// `userCreated` (general).
    public var userCreated: NSNumber? {
        get { numberAttribute("userCreated") }
        set { setNumberAttribute("userCreated", newValue) }
    }
    /// `userOwned` (general).
    public var userOwned: NSNumber? {
        get { numberAttribute("userOwned") }
        set { setNumberAttribute("userOwned", newValue) }
    }
    /// `userCurated` (general).
    public var userCurated: NSNumber? {
        get { numberAttribute("userCurated") }
        set { setNumberAttribute("userCurated", newValue) }
    }
    /// `rankingHint` (general).
    public var rankingHint: NSNumber? {
        get { numberAttribute("rankingHint") }
        set { setNumberAttribute("rankingHint", newValue) }
    }
    /// `domainIdentifier` (general).
    public var domainIdentifier: String? {
        get { stringAttribute("domainIdentifier") }
        set { setStringAttribute("domainIdentifier", newValue) }
    }
    /// `textContentSummary` (general); system-generated, read-only like Apple's.
    public var textContentSummary: String? { stringAttribute("textContentSummary") }
    /// `transcribedTextContent` (general).
    public var transcribedTextContent: String? {
        get { stringAttribute("transcribedTextContent") }
        set { setStringAttribute("transcribedTextContent", newValue) }
    }

    // MARK: actionExtras
    /// `supportsPhoneCall` (actionExtras).
    public var supportsPhoneCall: NSNumber? {
        get { numberAttribute("supportsPhoneCall") }
        set { setNumberAttribute("supportsPhoneCall", newValue) }
    }
    /// `supportsNavigation` (actionExtras).
    public var supportsNavigation: NSNumber? {
        get { numberAttribute("supportsNavigation") }
        set { setNumberAttribute("supportsNavigation", newValue) }
    }
    /// `actionIdentifiers` (actionExtras); non-optional like Apple's, reads `[]` when unset.
    public var actionIdentifiers: [String] {
        get { stringsAttribute("actionIdentifiers") ?? [] }
        set { setStringsAttribute("actionIdentifiers", newValue) }
    }
    /// `sharedItemContentType` (actionExtras).
    public var sharedItemContentType: UTType? {
        get { uniformTypeAttribute("sharedItemContentType") }
        set { setUniformTypeAttribute("sharedItemContentType", newValue) }
    }

    // MARK: containment
    /// `containerTitle` (containment).
    public var containerTitle: String? {
        get { stringAttribute("containerTitle") }
        set { setStringAttribute("containerTitle", newValue) }
    }
    /// `containerDisplayName` (containment).
    public var containerDisplayName: String? {
        get { stringAttribute("containerDisplayName") }
        set { setStringAttribute("containerDisplayName", newValue) }
    }
    /// `containerIdentifier` (containment).
    public var containerIdentifier: String? {
        get { stringAttribute("containerIdentifier") }
        set { setStringAttribute("containerIdentifier", newValue) }
    }
    /// `containerOrder` (containment).
    public var containerOrder: NSNumber? {
        get { numberAttribute("containerOrder") }
        set { setNumberAttribute("containerOrder", newValue) }
    }

    // MARK: itemProvider
    /// `providerDataTypeIdentifiers` (itemProvider).
    public var providerDataTypeIdentifiers: [String]? {
        get { stringsAttribute("providerDataTypeIdentifiers") }
        set { setStringsAttribute("providerDataTypeIdentifiers", newValue) }
    }
    /// `providerFileTypeIdentifiers` (itemProvider).
    public var providerFileTypeIdentifiers: [String]? {
        get { stringsAttribute("providerFileTypeIdentifiers") }
        set { setStringsAttribute("providerFileTypeIdentifiers", newValue) }
    }
    /// `providerInPlaceFileTypeIdentifiers` (itemProvider).
    public var providerInPlaceFileTypeIdentifiers: [String]? {
        get { stringsAttribute("providerInPlaceFileTypeIdentifiers") }
        set { setStringsAttribute("providerInPlaceFileTypeIdentifiers", newValue) }
    }

    // MARK: documents
    /// `subject` (documents).
    public var subject: String? {
        get { stringAttribute("subject") }
        set { setStringAttribute("subject", newValue) }
    }
    /// `theme` (documents).
    public var theme: String? {
        get { stringAttribute("theme") }
        set { setStringAttribute("theme", newValue) }
    }
    /// `contentDescription` (documents).
    public var contentDescription: String? {
        get { stringAttribute("contentDescription") }
        set { setStringAttribute("contentDescription", newValue) }
    }
    /// `identifier` (documents).
    public var identifier: String? {
        get { stringAttribute("identifier") }
        set { setStringAttribute("identifier", newValue) }
    }
    /// `securityMethod` (documents).
    public var securityMethod: String? {
        get { stringAttribute("securityMethod") }
        set { setStringAttribute("securityMethod", newValue) }
    }
    /// `creator` (documents).
    public var creator: String? {
        get { stringAttribute("creator") }
        set { setStringAttribute("creator", newValue) }
    }
    /// `kind` (documents).
    public var kind: String? {
        get { stringAttribute("kind") }
        set { setStringAttribute("kind", newValue) }
    }
    /// `audiences` (documents).
    public var audiences: [String]? {
        get { stringsAttribute("audiences") }
        set { setStringsAttribute("audiences", newValue) }
    }
    /// `encodingApplications` (documents).
    public var encodingApplications: [String]? {
        get { stringsAttribute("encodingApplications") }
        set { setStringsAttribute("encodingApplications", newValue) }
    }
    /// `fontNames` (documents).
    public var fontNames: [String]? {
        get { stringsAttribute("fontNames") }
        set { setStringsAttribute("fontNames", newValue) }
    }
    /// `fileSize` (documents).
    public var fileSize: NSNumber? {
        get { numberAttribute("fileSize") }
        set { setNumberAttribute("fileSize", newValue) }
    }
    /// `pageCount` (documents).
    public var pageCount: NSNumber? {
        get { numberAttribute("pageCount") }
        set { setNumberAttribute("pageCount", newValue) }
    }
    /// `pageWidth` (documents).
    public var pageWidth: NSNumber? {
        get { numberAttribute("pageWidth") }
        set { setNumberAttribute("pageWidth", newValue) }
    }
    /// `pageHeight` (documents).
    public var pageHeight: NSNumber? {
        get { numberAttribute("pageHeight") }
        set { setNumberAttribute("pageHeight", newValue) }
    }

    // MARK: events
    /// `dueDate` (events).
    public var dueDate: Date? {
        get { dateAttribute("dueDate") }
        set { setDateAttribute("dueDate", newValue) }
    }
    /// `completionDate` (events).
    public var completionDate: Date? {
        get { dateAttribute("completionDate") }
        set { setDateAttribute("completionDate", newValue) }
    }
    /// `startDate` (events).
    public var startDate: Date? {
        get { dateAttribute("startDate") }
        set { setDateAttribute("startDate", newValue) }
    }
    /// `endDate` (events).
    public var endDate: Date? {
        get { dateAttribute("endDate") }
        set { setDateAttribute("endDate", newValue) }
    }
    /// `importantDates` (events).
    public var importantDates: [Date]? {
        get { datesAttribute("importantDates") }
        set { setDatesAttribute("importantDates", newValue) }
    }
    /// `allDay` (events).
    public var allDay: NSNumber? {
        get { numberAttribute("allDay") }
        set { setNumberAttribute("allDay", newValue) }
    }

    // MARK: messaging
    /// `accountIdentifier` (messaging).
    public var accountIdentifier: String? {
        get { stringAttribute("accountIdentifier") }
        set { setStringAttribute("accountIdentifier", newValue) }
    }
    /// `textContent` (messaging).
    public var textContent: String? {
        get { stringAttribute("textContent") }
        set { setStringAttribute("textContent", newValue) }
    }
    /// `htmlContentData` (messaging).
    public var htmlContentData: Data? {
        get { dataAttribute("htmlContentData") }
        set { setDataAttribute("htmlContentData", newValue) }
    }
    /// `authors` (messaging).
    public var authors: [CSPerson]? {
        get { personsAttribute("authors") }
        set { setPersonsAttribute("authors", newValue) }
    }
    /// `primaryRecipients` (messaging).
    public var primaryRecipients: [CSPerson]? {
        get { personsAttribute("primaryRecipients") }
        set { setPersonsAttribute("primaryRecipients", newValue) }
    }
    /// `additionalRecipients` (messaging).
    public var additionalRecipients: [CSPerson]? {
        get { personsAttribute("additionalRecipients") }
        set { setPersonsAttribute("additionalRecipients", newValue) }
    }
    /// `hiddenAdditionalRecipients` (messaging).
    public var hiddenAdditionalRecipients: [CSPerson]? {
        get { personsAttribute("hiddenAdditionalRecipients") }
        set { setPersonsAttribute("hiddenAdditionalRecipients", newValue) }
    }
    /// `emailHeaders` (messaging).
    public var emailHeaders: [String: [Any]]? {
        get { headersAttribute("emailHeaders") }
        set { setHeadersAttribute("emailHeaders", newValue) }
    }
    /// `accountHandles` (messaging).
    public var accountHandles: [String]? {
        get { stringsAttribute("accountHandles") }
        set { setStringsAttribute("accountHandles", newValue) }
    }
    /// `mailboxIdentifiers` (messaging).
    public var mailboxIdentifiers: [String]? {
        get { stringsAttribute("mailboxIdentifiers") }
        set { setStringsAttribute("mailboxIdentifiers", newValue) }
    }
    /// `authorNames` (messaging).
    public var authorNames: [String]? {
        get { stringsAttribute("authorNames") }
        set { setStringsAttribute("authorNames", newValue) }
    }
    /// `recipientNames` (messaging).
    public var recipientNames: [String]? {
        get { stringsAttribute("recipientNames") }
        set { setStringsAttribute("recipientNames", newValue) }
    }
    /// `authorEmailAddresses` (messaging).
    public var authorEmailAddresses: [String]? {
        get { stringsAttribute("authorEmailAddresses") }
        set { setStringsAttribute("authorEmailAddresses", newValue) }
    }
    /// `recipientEmailAddresses` (messaging).
    public var recipientEmailAddresses: [String]? {
        get { stringsAttribute("recipientEmailAddresses") }
        set { setStringsAttribute("recipientEmailAddresses", newValue) }
    }
    /// `authorAddresses` (messaging).
    public var authorAddresses: [String]? {
        get { stringsAttribute("authorAddresses") }
        set { setStringsAttribute("authorAddresses", newValue) }
    }
    /// `recipientAddresses` (messaging).
    public var recipientAddresses: [String]? {
        get { stringsAttribute("recipientAddresses") }
        set { setStringsAttribute("recipientAddresses", newValue) }
    }
    /// `phoneNumbers` (messaging).
    public var phoneNumbers: [String]? {
        get { stringsAttribute("phoneNumbers") }
        set { setStringsAttribute("phoneNumbers", newValue) }
    }
    /// `emailAddresses` (messaging).
    public var emailAddresses: [String]? {
        get { stringsAttribute("emailAddresses") }
        set { setStringsAttribute("emailAddresses", newValue) }
    }
    /// `instantMessageAddresses` (messaging).
    public var instantMessageAddresses: [String]? {
        get { stringsAttribute("instantMessageAddresses") }
        set { setStringsAttribute("instantMessageAddresses", newValue) }
    }
    /// `likelyJunk` (messaging); non-optional like Apple's, reads `0` when unset.
    public var likelyJunk: NSNumber {
        get { numberAttribute("likelyJunk") ?? 0 }
        set { setNumberAttribute("likelyJunk", newValue) }
    }
    /// `isPriority` (messaging); system-generated, read-only like Apple's.
    public var isPriority: NSNumber? { numberAttribute("isPriority") }

    // MARK: media
    /// `editors` (media).
    public var editors: [String]? {
        get { stringsAttribute("editors") }
        set { setStringsAttribute("editors", newValue) }
    }
    /// `participants` (media).
    public var participants: [String]? {
        get { stringsAttribute("participants") }
        set { setStringsAttribute("participants", newValue) }
    }
    /// `projects` (media).
    public var projects: [String]? {
        get { stringsAttribute("projects") }
        set { setStringsAttribute("projects", newValue) }
    }
    /// `contentSources` (media).
    public var contentSources: [String]? {
        get { stringsAttribute("contentSources") }
        set { setStringsAttribute("contentSources", newValue) }
    }
    /// `contactKeywords` (media).
    public var contactKeywords: [String]? {
        get { stringsAttribute("contactKeywords") }
        set { setStringsAttribute("contactKeywords", newValue) }
    }
    /// `codecs` (media).
    public var codecs: [String]? {
        get { stringsAttribute("codecs") }
        set { setStringsAttribute("codecs", newValue) }
    }
    /// `mediaTypes` (media).
    public var mediaTypes: [String]? {
        get { stringsAttribute("mediaTypes") }
        set { setStringsAttribute("mediaTypes", newValue) }
    }
    /// `organizations` (media).
    public var organizations: [String]? {
        get { stringsAttribute("organizations") }
        set { setStringsAttribute("organizations", newValue) }
    }
    /// `languages` (media).
    public var languages: [String]? {
        get { stringsAttribute("languages") }
        set { setStringsAttribute("languages", newValue) }
    }
    /// `publishers` (media).
    public var publishers: [String]? {
        get { stringsAttribute("publishers") }
        set { setStringsAttribute("publishers", newValue) }
    }
    /// `contributors` (media).
    public var contributors: [String]? {
        get { stringsAttribute("contributors") }
        set { setStringsAttribute("contributors", newValue) }
    }
    /// `coverage` (media).
    public var coverage: [String]? {
        get { stringsAttribute("coverage") }
        set { setStringsAttribute("coverage", newValue) }
    }
    /// `performers` (media).
    public var performers: [String]? {
        get { stringsAttribute("performers") }
        set { setStringsAttribute("performers", newValue) }
    }
    /// `comment` (media).
    public var comment: String? {
        get { stringAttribute("comment") }
        set { setStringAttribute("comment", newValue) }
    }
    /// `copyright` (media).
    public var copyright: String? {
        get { stringAttribute("copyright") }
        set { setStringAttribute("copyright", newValue) }
    }
    /// `role` (media).
    public var role: String? {
        get { stringAttribute("role") }
        set { setStringAttribute("role", newValue) }
    }
    /// `rights` (media).
    public var rights: String? {
        get { stringAttribute("rights") }
        set { setStringAttribute("rights", newValue) }
    }
    /// `ratingDescription` (media).
    public var ratingDescription: String? {
        get { stringAttribute("ratingDescription") }
        set { setStringAttribute("ratingDescription", newValue) }
    }
    /// `information` (media).
    public var information: String? {
        get { stringAttribute("information") }
        set { setStringAttribute("information", newValue) }
    }
    /// `director` (media).
    public var director: String? {
        get { stringAttribute("director") }
        set { setStringAttribute("director", newValue) }
    }
    /// `producer` (media).
    public var producer: String? {
        get { stringAttribute("producer") }
        set { setStringAttribute("producer", newValue) }
    }
    /// `genre` (media).
    public var genre: String? {
        get { stringAttribute("genre") }
        set { setStringAttribute("genre", newValue) }
    }
    /// `originalFormat` (media).
    public var originalFormat: String? {
        get { stringAttribute("originalFormat") }
        set { setStringAttribute("originalFormat", newValue) }
    }
    /// `originalSource` (media).
    public var originalSource: String? {
        get { stringAttribute("originalSource") }
        set { setStringAttribute("originalSource", newValue) }
    }
    /// `lastUsedDate` (media).
    public var lastUsedDate: Date? {
        get { dateAttribute("lastUsedDate") }
        set { setDateAttribute("lastUsedDate", newValue) }
    }
    /// `contentCreationDate` (media).
    public var contentCreationDate: Date? {
        get { dateAttribute("contentCreationDate") }
        set { setDateAttribute("contentCreationDate", newValue) }
    }
    /// `contentModificationDate` (media).
    public var contentModificationDate: Date? {
        get { dateAttribute("contentModificationDate") }
        set { setDateAttribute("contentModificationDate", newValue) }
    }
    /// `addedDate` (media).
    public var addedDate: Date? {
        get { dateAttribute("addedDate") }
        set { setDateAttribute("addedDate", newValue) }
    }
    /// `downloadedDate` (media).
    public var downloadedDate: Date? {
        get { dateAttribute("downloadedDate") }
        set { setDateAttribute("downloadedDate", newValue) }
    }
    /// `duration` (media).
    public var duration: NSNumber? {
        get { numberAttribute("duration") }
        set { setNumberAttribute("duration", newValue) }
    }
    /// `streamable` (media).
    public var streamable: NSNumber? {
        get { numberAttribute("streamable") }
        set { setNumberAttribute("streamable", newValue) }
    }
    /// `totalBitRate` (media).
    public var totalBitRate: NSNumber? {
        get { numberAttribute("totalBitRate") }
        set { setNumberAttribute("totalBitRate", newValue) }
    }
    /// `videoBitRate` (media).
    public var videoBitRate: NSNumber? {
        get { numberAttribute("videoBitRate") }
        set { setNumberAttribute("videoBitRate", newValue) }
    }
    /// `audioBitRate` (media).
    public var audioBitRate: NSNumber? {
        get { numberAttribute("audioBitRate") }
        set { setNumberAttribute("audioBitRate", newValue) }
    }
    /// `deliveryType` (media).
    public var deliveryType: NSNumber? {
        get { numberAttribute("deliveryType") }
        set { setNumberAttribute("deliveryType", newValue) }
    }
    /// `rating` (media).
    public var rating: NSNumber? {
        get { numberAttribute("rating") }
        set { setNumberAttribute("rating", newValue) }
    }
    /// `playCount` (media).
    public var playCount: NSNumber? {
        get { numberAttribute("playCount") }
        set { setNumberAttribute("playCount", newValue) }
    }
    /// `local` (media).
    public var local: NSNumber? {
        get { numberAttribute("local") }
        set { setNumberAttribute("local", newValue) }
    }
    /// `contentRating` (media).
    public var contentRating: NSNumber? {
        get { numberAttribute("contentRating") }
        set { setNumberAttribute("contentRating", newValue) }
    }
    /// `url` (media).
    public var url: URL? {
        get { urlAttribute("url") }
        set { setUrlAttribute("url", newValue) }
    }

    // MARK: music
    /// `audioSampleRate` (music).
    public var audioSampleRate: NSNumber? {
        get { numberAttribute("audioSampleRate") }
        set { setNumberAttribute("audioSampleRate", newValue) }
    }
    /// `audioChannelCount` (music).
    public var audioChannelCount: NSNumber? {
        get { numberAttribute("audioChannelCount") }
        set { setNumberAttribute("audioChannelCount", newValue) }
    }
    /// `tempo` (music).
    public var tempo: NSNumber? {
        get { numberAttribute("tempo") }
        set { setNumberAttribute("tempo", newValue) }
    }
    /// `audioTrackNumber` (music).
    public var audioTrackNumber: NSNumber? {
        get { numberAttribute("audioTrackNumber") }
        set { setNumberAttribute("audioTrackNumber", newValue) }
    }
    /// `generalMIDISequence` (music).
    public var generalMIDISequence: NSNumber? {
        get { numberAttribute("generalMIDISequence") }
        set { setNumberAttribute("generalMIDISequence", newValue) }
    }
    /// `keySignature` (music).
    public var keySignature: String? {
        get { stringAttribute("keySignature") }
        set { setStringAttribute("keySignature", newValue) }
    }
    /// `timeSignature` (music).
    public var timeSignature: String? {
        get { stringAttribute("timeSignature") }
        set { setStringAttribute("timeSignature", newValue) }
    }
    /// `audioEncodingApplication` (music).
    public var audioEncodingApplication: String? {
        get { stringAttribute("audioEncodingApplication") }
        set { setStringAttribute("audioEncodingApplication", newValue) }
    }
    /// `composer` (music).
    public var composer: String? {
        get { stringAttribute("composer") }
        set { setStringAttribute("composer", newValue) }
    }
    /// `lyricist` (music).
    public var lyricist: String? {
        get { stringAttribute("lyricist") }
        set { setStringAttribute("lyricist", newValue) }
    }
    /// `album` (music).
    public var album: String? {
        get { stringAttribute("album") }
        set { setStringAttribute("album", newValue) }
    }
    /// `artist` (music).
    public var artist: String? {
        get { stringAttribute("artist") }
        set { setStringAttribute("artist", newValue) }
    }
    /// `musicalGenre` (music).
    public var musicalGenre: String? {
        get { stringAttribute("musicalGenre") }
        set { setStringAttribute("musicalGenre", newValue) }
    }
    /// `musicalInstrumentCategory` (music).
    public var musicalInstrumentCategory: String? {
        get { stringAttribute("musicalInstrumentCategory") }
        set { setStringAttribute("musicalInstrumentCategory", newValue) }
    }
    /// `musicalInstrumentName` (music).
    public var musicalInstrumentName: String? {
        get { stringAttribute("musicalInstrumentName") }
        set { setStringAttribute("musicalInstrumentName", newValue) }
    }
    /// `recordingDate` (music).
    public var recordingDate: Date? {
        get { dateAttribute("recordingDate") }
        set { setDateAttribute("recordingDate", newValue) }
    }

    // MARK: images
    /// `pixelHeight` (images).
    public var pixelHeight: NSNumber? {
        get { numberAttribute("pixelHeight") }
        set { setNumberAttribute("pixelHeight", newValue) }
    }
    /// `pixelWidth` (images).
    public var pixelWidth: NSNumber? {
        get { numberAttribute("pixelWidth") }
        set { setNumberAttribute("pixelWidth", newValue) }
    }
    /// `pixelCount` (images).
    public var pixelCount: NSNumber? {
        get { numberAttribute("pixelCount") }
        set { setNumberAttribute("pixelCount", newValue) }
    }
    /// `bitsPerSample` (images).
    public var bitsPerSample: NSNumber? {
        get { numberAttribute("bitsPerSample") }
        set { setNumberAttribute("bitsPerSample", newValue) }
    }
    /// `flashOn` (images).
    public var flashOn: NSNumber? {
        get { numberAttribute("flashOn") }
        set { setNumberAttribute("flashOn", newValue) }
    }
    /// `focalLength` (images).
    public var focalLength: NSNumber? {
        get { numberAttribute("focalLength") }
        set { setNumberAttribute("focalLength", newValue) }
    }
    /// `focalLength35mm` (images).
    public var focalLength35mm: NSNumber? {
        get { numberAttribute("focalLength35mm") }
        set { setNumberAttribute("focalLength35mm", newValue) }
    }
    /// `isoSpeed` (images).
    public var isoSpeed: NSNumber? {
        get { numberAttribute("isoSpeed") }
        set { setNumberAttribute("isoSpeed", newValue) }
    }
    /// `orientation` (images).
    public var orientation: NSNumber? {
        get { numberAttribute("orientation") }
        set { setNumberAttribute("orientation", newValue) }
    }
    /// `whiteBalance` (images).
    public var whiteBalance: NSNumber? {
        get { numberAttribute("whiteBalance") }
        set { setNumberAttribute("whiteBalance", newValue) }
    }
    /// `aperture` (images).
    public var aperture: NSNumber? {
        get { numberAttribute("aperture") }
        set { setNumberAttribute("aperture", newValue) }
    }
    /// `resolutionWidthDPI` (images).
    public var resolutionWidthDPI: NSNumber? {
        get { numberAttribute("resolutionWidthDPI") }
        set { setNumberAttribute("resolutionWidthDPI", newValue) }
    }
    /// `resolutionHeightDPI` (images).
    public var resolutionHeightDPI: NSNumber? {
        get { numberAttribute("resolutionHeightDPI") }
        set { setNumberAttribute("resolutionHeightDPI", newValue) }
    }
    /// `exposureMode` (images).
    public var exposureMode: NSNumber? {
        get { numberAttribute("exposureMode") }
        set { setNumberAttribute("exposureMode", newValue) }
    }
    /// `exposureTime` (images).
    public var exposureTime: NSNumber? {
        get { numberAttribute("exposureTime") }
        set { setNumberAttribute("exposureTime", newValue) }
    }
    /// `hasAlphaChannel` (images).
    public var hasAlphaChannel: NSNumber? {
        get { numberAttribute("hasAlphaChannel") }
        set { setNumberAttribute("hasAlphaChannel", newValue) }
    }
    /// `redEyeOn` (images).
    public var redEyeOn: NSNumber? {
        get { numberAttribute("redEyeOn") }
        set { setNumberAttribute("redEyeOn", newValue) }
    }
    /// `maxAperture` (images).
    public var maxAperture: NSNumber? {
        get { numberAttribute("maxAperture") }
        set { setNumberAttribute("maxAperture", newValue) }
    }
    /// `fNumber` (images).
    public var fNumber: NSNumber? {
        get { numberAttribute("fNumber") }
        set { setNumberAttribute("fNumber", newValue) }
    }
    /// `colorSpace` (images).
    public var colorSpace: String? {
        get { stringAttribute("colorSpace") }
        set { setStringAttribute("colorSpace", newValue) }
    }
    /// `acquisitionMake` (images).
    public var acquisitionMake: String? {
        get { stringAttribute("acquisitionMake") }
        set { setStringAttribute("acquisitionMake", newValue) }
    }
    /// `acquisitionModel` (images).
    public var acquisitionModel: String? {
        get { stringAttribute("acquisitionModel") }
        set { setStringAttribute("acquisitionModel", newValue) }
    }
    /// `cameraOwner` (images).
    public var cameraOwner: String? {
        get { stringAttribute("cameraOwner") }
        set { setStringAttribute("cameraOwner", newValue) }
    }
    /// `lensModel` (images).
    public var lensModel: String? {
        get { stringAttribute("lensModel") }
        set { setStringAttribute("lensModel", newValue) }
    }
    /// `profileName` (images).
    public var profileName: String? {
        get { stringAttribute("profileName") }
        set { setStringAttribute("profileName", newValue) }
    }
    /// `exifVersion` (images).
    public var exifVersion: String? {
        get { stringAttribute("exifVersion") }
        set { setStringAttribute("exifVersion", newValue) }
    }
    /// `exifgpsVersion` (images).
    public var exifgpsVersion: String? {
        get { stringAttribute("exifgpsVersion") }
        set { setStringAttribute("exifgpsVersion", newValue) }
    }
    /// `meteringMode` (images).
    public var meteringMode: String? {
        get { stringAttribute("meteringMode") }
        set { setStringAttribute("meteringMode", newValue) }
    }
    /// `exposureProgram` (images).
    public var exposureProgram: String? {
        get { stringAttribute("exposureProgram") }
        set { setStringAttribute("exposureProgram", newValue) }
    }
    /// `exposureTimeString` (images).
    public var exposureTimeString: String? {
        get { stringAttribute("exposureTimeString") }
        set { setStringAttribute("exposureTimeString", newValue) }
    }
    /// `layerNames` (images).
    public var layerNames: [String]? {
        get { stringsAttribute("layerNames") }
        set { setStringsAttribute("layerNames", newValue) }
    }

    // MARK: places
    /// `headline` (places).
    public var headline: String? {
        get { stringAttribute("headline") }
        set { setStringAttribute("headline", newValue) }
    }
    /// `instructions` (places).
    public var instructions: String? {
        get { stringAttribute("instructions") }
        set { setStringAttribute("instructions", newValue) }
    }
    /// `city` (places).
    public var city: String? {
        get { stringAttribute("city") }
        set { setStringAttribute("city", newValue) }
    }
    /// `stateOrProvince` (places).
    public var stateOrProvince: String? {
        get { stringAttribute("stateOrProvince") }
        set { setStringAttribute("stateOrProvince", newValue) }
    }
    /// `country` (places).
    public var country: String? {
        get { stringAttribute("country") }
        set { setStringAttribute("country", newValue) }
    }
    /// `namedLocation` (places).
    public var namedLocation: String? {
        get { stringAttribute("namedLocation") }
        set { setStringAttribute("namedLocation", newValue) }
    }
    /// `gpsStatus` (places).
    public var gpsStatus: String? {
        get { stringAttribute("gpsStatus") }
        set { setStringAttribute("gpsStatus", newValue) }
    }
    /// `gpsMeasureMode` (places).
    public var gpsMeasureMode: String? {
        get { stringAttribute("gpsMeasureMode") }
        set { setStringAttribute("gpsMeasureMode", newValue) }
    }
    /// `gpsMapDatum` (places).
    public var gpsMapDatum: String? {
        get { stringAttribute("gpsMapDatum") }
        set { setStringAttribute("gpsMapDatum", newValue) }
    }
    /// `gpsProcessingMethod` (places).
    public var gpsProcessingMethod: String? {
        get { stringAttribute("gpsProcessingMethod") }
        set { setStringAttribute("gpsProcessingMethod", newValue) }
    }
    /// `gpsAreaInformation` (places).
    public var gpsAreaInformation: String? {
        get { stringAttribute("gpsAreaInformation") }
        set { setStringAttribute("gpsAreaInformation", newValue) }
    }
    /// `thoroughfare` (places).
    public var thoroughfare: String? {
        get { stringAttribute("thoroughfare") }
        set { setStringAttribute("thoroughfare", newValue) }
    }
    /// `subThoroughfare` (places).
    public var subThoroughfare: String? {
        get { stringAttribute("subThoroughfare") }
        set { setStringAttribute("subThoroughfare", newValue) }
    }
    /// `postalCode` (places).
    public var postalCode: String? {
        get { stringAttribute("postalCode") }
        set { setStringAttribute("postalCode", newValue) }
    }
    /// `fullyFormattedAddress` (places).
    public var fullyFormattedAddress: String? {
        get { stringAttribute("fullyFormattedAddress") }
        set { setStringAttribute("fullyFormattedAddress", newValue) }
    }
    /// `altitude` (places).
    public var altitude: NSNumber? {
        get { numberAttribute("altitude") }
        set { setNumberAttribute("altitude", newValue) }
    }
    /// `latitude` (places).
    public var latitude: NSNumber? {
        get { numberAttribute("latitude") }
        set { setNumberAttribute("latitude", newValue) }
    }
    /// `longitude` (places).
    public var longitude: NSNumber? {
        get { numberAttribute("longitude") }
        set { setNumberAttribute("longitude", newValue) }
    }
    /// `speed` (places).
    public var speed: NSNumber? {
        get { numberAttribute("speed") }
        set { setNumberAttribute("speed", newValue) }
    }
    /// `imageDirection` (places).
    public var imageDirection: NSNumber? {
        get { numberAttribute("imageDirection") }
        set { setNumberAttribute("imageDirection", newValue) }
    }
    /// `gpsTrack` (places).
    public var gpsTrack: NSNumber? {
        get { numberAttribute("gpsTrack") }
        set { setNumberAttribute("gpsTrack", newValue) }
    }
    /// `gpsdop` (places).
    public var gpsdop: NSNumber? {
        get { numberAttribute("gpsdop") }
        set { setNumberAttribute("gpsdop", newValue) }
    }
    /// `gpsDestLatitude` (places).
    public var gpsDestLatitude: NSNumber? {
        get { numberAttribute("gpsDestLatitude") }
        set { setNumberAttribute("gpsDestLatitude", newValue) }
    }
    /// `gpsDestLongitude` (places).
    public var gpsDestLongitude: NSNumber? {
        get { numberAttribute("gpsDestLongitude") }
        set { setNumberAttribute("gpsDestLongitude", newValue) }
    }
    /// `gpsDestBearing` (places).
    public var gpsDestBearing: NSNumber? {
        get { numberAttribute("gpsDestBearing") }
        set { setNumberAttribute("gpsDestBearing", newValue) }
    }
    /// `gpsDestDistance` (places).
    public var gpsDestDistance: NSNumber? {
        get { numberAttribute("gpsDestDistance") }
        set { setNumberAttribute("gpsDestDistance", newValue) }
    }
    /// `gpsDifferental` (places).
    public var gpsDifferental: NSNumber? {
        get { numberAttribute("gpsDifferental") }
        set { setNumberAttribute("gpsDifferental", newValue) }
    }
    /// `timestamp` (places).
    public var timestamp: Date? {
        get { dateAttribute("timestamp") }
        set { setDateAttribute("timestamp", newValue) }
    }
    /// `gpsDateStamp` (places).
    public var gpsDateStamp: Date? {
        get { dateAttribute("gpsDateStamp") }
        set { setDateAttribute("gpsDateStamp", newValue) }
    }
}
