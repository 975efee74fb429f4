import Foundation
import SearchlightEngine

/// Small text helpers shared by the extractors.
enum WebMarkupText {
    /// Text with every run of whitespace collapsed to one space and the ends trimmed.
    static func collapse(_ text: String) -> String {
        var out = WhitespaceCollapser(capacity: text.utf8.count)
        for b in text.utf8 { out.append(b, isSpace: isASCIIWhitespace(b)) }
        return out.string
    }

    /// Comma-separated lists split, trimmed, empties and duplicates (case-insensitive) dropped, order kept.
    static func splitList(_ texts: [String]) -> [String] {
        var seen = Set<String>(), result: [String] = []
        for text in texts {
            for part in text.split(separator: ",") {
                let t = collapse(String(part))
                if !t.isEmpty, seen.insert(t.lowercased()).inserted { result.append(t) }
            }
        }
        return result
    }

    /// Distinct values, case-insensitively, keeping the first spelling and the order.
    static func distinct(_ texts: [String]) -> [String] {
        var seen = Set<String>()
        return texts.filter { !$0.isEmpty && seen.insert($0.lowercased()).inserted }
    }

    /// At most `limit` UTF-8 bytes, cut on a scalar boundary (keeps a hostile 10 MB `<title>` out of the index).
    static func clip(_ text: String, bytes limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        let utf8 = Array(text.utf8)
        var end = max(0, limit)
        while end > 0, utf8[end] & 0xC0 == 0x80 { end -= 1 }
        return String(decoding: utf8[..<end], as: UTF8.self)
    }

    /// Clipped strings, at most `count` of them.
    static func clip(_ texts: [String], bytes limit: Int, count: Int) -> [String] {
        texts.prefix(count).map { clip($0, bytes: limit) }
    }

    /// At most `limit` characters, cut at a word boundary with `…` when shortened.
    static func snippet(_ text: String, limit: Int) -> String {
        guard text.count > limit else { return text }
        var cut = text.prefix(limit)
        if let space = cut.lastIndex(of: " "), cut.distance(from: cut.startIndex, to: space) > limit / 2 {
            cut = cut[..<space]
        }
        return cut.trimmingCharacters(in: .whitespaces) + "…"
    }
}
