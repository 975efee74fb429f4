import Foundation

/// A schema.org `Event` (or any of its subtypes such as `MusicEvent`).
public struct WebEvent: Sendable, Hashable {
    public var name: String?
    public var description: String?
    public var images: [URL]
    public var startDate: Date?
    public var endDate: Date?
    /// `location.name` (a Place), or the location's text.
    public var locationName: String?
    /// The start is a date without a time (`2026-12-05`): an all-day event.
    public var isAllDay: Bool
    public var address: WebPostalAddress?

    static func matches(_ node: SchemaNode) -> Bool {
        node.types.contains { $0 == "Event" || ($0.hasSuffix("Event") && $0 != "CalendarEvent") || $0 == "Festival" }
    }

    init(_ node: SchemaNode, base: URL?) {
        name = node.string("name")
        description = node.string("description")
        images = WebMarkupURLs.images(of: node, base: base)
        let start = node.string("startDate")
        startDate = start.flatMap(SchemaTime.date)
        isAllDay = startDate != nil && start.map { !$0.contains("T") && !$0.contains(" ") } == true
        endDate = node.string("endDate").flatMap(SchemaTime.date)
        if let place = node.node("location") {
            locationName = place.string("name")
            address = WebPostalAddress(place.values("address").first)
        } else {
            locationName = node.string("location")
        }
    }
}
