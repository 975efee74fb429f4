import Foundation

/// What Core Spotlight's on-device intelligence adds to items that opt in through `updateListenerOptions`:
/// `textContentSummary` (`.summarization`) and `isPriority` (`.priority`), reported to the index delegate's
/// `searchableItemsDidUpdate(_:)`.
///
/// Apple generates these with a language model for recent message-like content (messages, email, voice audio)
/// with enough text. Searchlight has no model, so it uses documented, deterministic stand-ins:
/// - the summary is extractive: the leading sentences of `textContent`, up to about 200 characters, for items
///   whose content type conforms to `public.message` or `public.audio` and whose `textContent` has at least 200
///   characters;
/// - priority is 1 when the subject, title or text asks for urgency ("urgent", "asap", "important",
///   "action required", "deadline"), else 0.
package enum SystemAttributes {
    static let minimumTextLength = 200
    static let summaryLength = 200
    static let urgentPhrases = ["urgent", "asap", "important", "action required", "deadline"]

    /// `item` with its generated attributes, set on the item itself (a copy the index owns): generated in the
    /// write that stores it, from the version stored, so a later replacement never receives another version's.
    package static func applied(to item: CSSearchableItem) -> CSSearchableItem {
        guard let update = update(for: item) else { return item }
        return item.applying(update: update)
    }

    /// The `isUpdate` item carrying the generated attributes for `item` (clearing a summary an `isUpdate` merge
    /// left that no longer applies), or nil if it opted into nothing that applies.
    package static func update(for item: CSSearchableItem) -> CSSearchableItem? {
        let options = item.updateListenerOptions
        guard !options.isEmpty else { return nil }
        let set = item.attributeSet
        let generated = CSSearchableItemAttributeSet()
        var changed = false
        if options.contains(.summarization), let text = set.textContent, text.count >= minimumTextLength,
           let type = set.contentType,
           ContentTypeTree.conforms(type, to: "public.message") || ContentTypeTree.conforms(type, to: "public.audio") {
            generated.setValue(.string(summary(of: text)), forAttribute: "textContentSummary")
            changed = true
        } else if options.contains(.summarization), set.textContentSummary != nil {
            // A merge left the summary of text (or a type) the item no longer has: it goes, as it was made.
            generated.setValue(nil, forAttribute: "textContentSummary")
            changed = true
        }
        if options.contains(.priority) {
            let haystack = [set.subject, set.title, set.textContent].compactMap { $0 }.joined(separator: " ").lowercased()
            let urgent = urgentPhrases.contains { haystack.contains($0) }
            generated.setValue(.number(.bool(urgent)), forAttribute: "isPriority")
            changed = true
        }
        guard changed else { return nil }
        let update = CSSearchableItem(uniqueIdentifier: item.uniqueIdentifier, domainIdentifier: nil, attributeSet: generated)
        update.isUpdate = true
        return update
    }

    /// The leading sentences of `text`, up to about `summaryLength` characters (at least one sentence, cut at a
    /// word boundary with "…" if that one is longer).
    static func summary(of text: String) -> String {
        let flat = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        var summary = ""
        var sentence = ""
        for character in flat {
            sentence.append(character)
            if ".!?".contains(character) {
                if !summary.isEmpty, summary.count + sentence.count > summaryLength { break }
                summary += sentence
                sentence = ""
                if summary.count >= summaryLength { break }
            }
        }
        if summary.isEmpty {
            let words = flat.split(separator: " ")
            var cut = ""
            for word in words {
                if cut.count + word.count + 1 > summaryLength { break }
                cut += (cut.isEmpty ? "" : " ") + word
            }
            summary = cut + "…"
        }
        return summary.trimmingCharacters(in: .whitespaces)
    }
}
