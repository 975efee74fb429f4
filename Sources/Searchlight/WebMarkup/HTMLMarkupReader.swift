import Foundation
import SearchlightEngine

/// Reads a decoded page once, front to back, and collects what the extractors need: the title, `<meta>` and
/// `<link>` facts, JSON-LD blocks, microdata items and the visible text.
///
/// It keeps a stack of open elements instead of building a tree: end tags close the nearest matching open
/// element (closing anything opened inside it, which repairs misnesting like `<b><i></b>`), unmatched end tags are
/// ignored, a few elements close implicitly (`<p>` before a block, `<li>` before `<li>`, an unclosed `<svg>` before
/// `<div>`...), and the end of input closes everything. Nesting is capped at `maximumDepth`: deeper elements are
/// read but not tracked, so no structure grows with the input beyond that. All work is linear in the page size.
struct HTMLMarkupReader {
    /// Open elements tracked at most; deeper ones still contribute text and `<meta>`s.
    static let maximumDepth = 512
    /// Captured text of one microdata value, at most (bytes).
    static let maximumValueBytes = 16_384

    /// What one pass over a page found.
    struct Result {
        var title: String?
        /// `(property, content)` and `(name, content)` of every `<meta>` with them, lowercased keys, in order.
        var metas: [(key: String, content: String)] = []
        var canonicalHref: String?
        var baseHref: String?
        var jsonLD: [SchemaNode] = []
        /// The block each `jsonLD` entity came from (its `<script>` tag's offset): blank node ids are scoped to it.
        var jsonLDBlocks: [Int] = []
        var microdata: [SchemaNode] = []
        var text = ""
        var textTruncated = false
        var issues: [WebMarkupIssue] = []
    }

    private struct Frame {
        var name: String
        var itemprops: [String] = []
        /// Index in `scopes` of the item this element's properties belong to.
        var propertyScope: Int?
        var opensScope = false
        /// Start in `capture` of this element's text value.
        var captureStart: Int?
        var suppressesText = false
        var isBlock = false
        /// An SVG or MathML element (`<svg>`, `<math>` and what opens inside them outside an integration point).
        var isForeign = false
    }

    /// Elements whose text is not page content (and `header` / `footer` outside an `<article>` or `<main>`).
    static let suppressed: Set<String> = [
        "head", "nav", "aside", "noscript", "template", "svg", "math", "select", "textarea", "button",
        "script", "style", "iframe", "noembed", "noframes", "xmp", "object", "dialog", "menu",
    ]
    /// What a `<head>` may hold: any other start tag ends an open head, as an omitted `</head>` implies.
    static let headContent: Set<String> = [
        "base", "basefont", "bgsound", "link", "meta", "title", "noscript", "noframes", "style", "script", "template",
    ]
    static let void: Set<String> = [
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr",
        "keygen", "basefont", "bgsound", "frame",
    ]
    /// Elements that start a new line of text (and close an open `<p>` when they start).
    static let block: Set<String> = [
        "address", "article", "aside", "blockquote", "details", "div", "dl", "dt", "dd", "fieldset", "figcaption",
        "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "main", "nav", "ol", "p",
        "pre", "section", "table", "tr", "td", "th", "ul", "br", "summary", "caption", "body", "html", "title",
    ]
    static let closesParagraph: Set<String> = [
        "address", "article", "aside", "blockquote", "details", "div", "dl", "fieldset", "figcaption", "figure",
        "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "main", "nav", "ol", "p", "pre",
        "section", "table", "ul",
    ]

    /// HTML start tags that end open SVG/MathML elements (WHATWG "in foreign content": a `<p>` after an unclosed
    /// `<svg>` is page content again); `font` only with `color`, `face` or `size`.
    static let foreignBreakout: Set<String> = [
        "b", "big", "blockquote", "body", "br", "center", "code", "dd", "div", "dl", "dt", "em", "embed", "h1", "h2",
        "h3", "h4", "h5", "h6", "head", "hr", "i", "img", "li", "listing", "menu", "meta", "nobr", "ol", "p", "pre",
        "ruby", "s", "small", "span", "strong", "strike", "sub", "sup", "table", "tt", "u", "ul", "var",
    ]
    /// Foreign elements whose contents are HTML (names lowercased, as the tokenizer gives them).
    static let htmlIntegrationPoints: Set<String> = [
        "foreignobject", "desc", "title", "mi", "mo", "mn", "ms", "mtext", "annotation-xml",
    ]

    /// What the reader needs to know about an element name, looked up once per tag.
    struct ElementKind: OptionSet {
        let rawValue: UInt8
        static let suppressed = ElementKind(rawValue: 1)
        static let void = ElementKind(rawValue: 2)
        static let block = ElementKind(rawValue: 4)
        static let closesParagraph = ElementKind(rawValue: 8)
    }

    static let kinds: [String: ElementKind] = {
        var table: [String: ElementKind] = [:]
        for name in suppressed { table[name, default: []].insert(.suppressed) }
        for name in void { table[name, default: []].insert(.void) }
        for name in block { table[name, default: []].insert(.block) }
        for name in closesParagraph { table[name, default: []].insert(.closesParagraph) }
        return table
    }()

    private let bytes: UnsafeBufferPointer<UInt8>
    private let maximumTextBytes: Int
    private var result = Result()
    private var stack: [Frame] = []
    private var openCounts: [String: Int] = [:]
    private var scopes: [SchemaNode] = []
    private var capture: [UInt8] = []
    private var activeCaptures = 0
    private var visibleText = WhitespaceCollapser()
    private var suppressDepth = 0
    /// Open `<article>`/`<main>` elements: a `<header>` inside them is content, not page chrome.
    private var contentDepth = 0
    private var headerDepth = 0
    /// Open `<template>` elements: their contents are an inert fragment, not the page's markup or microdata.
    private var templateDepth = 0
    /// Open `<svg>`/`<math>` elements: only inside them is `<![CDATA[` a CDATA section and `<script/>` closed.
    private var foreignDepth = 0
    private var expectTitle = false
    private var expectJSONLD: Int?
    private var reportedDepth = false
    private var locator: LineLocator

    init(bytes: UnsafeBufferPointer<UInt8>, maximumTextBytes: Int) {
        self.bytes = bytes
        // 0 ... Int.max - 1: `Int.max` ("no limit") would overflow the `+ 1` that detects truncation.
        self.maximumTextBytes = min(max(0, maximumTextBytes), Int.max - 1)
        locator = LineLocator(bytes: bytes)
    }

    /// Reads the whole page.
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, maximumTextBytes: Int) -> Result {
        var reader = HTMLMarkupReader(bytes: bytes, maximumTextBytes: maximumTextBytes)
        var tokenizer = HTMLTokenizer(bytes: bytes)
        tokenizer.inForeignContent = false
        while let token = tokenizer.next() {
            reader.consume(token)
            tokenizer.inForeignContent = reader.foreignDepth > 0
        }
        while !reader.stack.isEmpty { reader.pop() }
        reader.finishText()
        return reader.result
    }

    // MARK: Tokens

    private mutating func consume(_ token: HTMLToken) {
        let wasExpectingTitle = expectTitle
        expectTitle = false
        switch token {
        case .startTag(let name, let attributes, let selfClosing, let offset):
            startTag(name, attributes, selfClosing: selfClosing, offset: offset)
        case .endTag(let name, _):
            endTag(name)
        case .text(let text):
            if wasExpectingTitle {
                if result.title == nil { result.title = WebMarkupText.collapse(text) }
                return
            }
            // Text right in the head (not just whitespace) ends it, as an omitted `</head><body>` implies.
            if stack.last?.name == "head", text.utf8.contains(where: { !isASCIIWhitespace($0) }) { pop() }
            appendText(text)
        case .rawText(let element, let range):
            if element == "script", let offset = expectJSONLD { readJSONLD(range, tagOffset: offset) }
            expectJSONLD = nil
        case .comment, .doctype:
            break
        }
    }

    private mutating func startTag(_ name: String, _ attributes: [HTMLAttribute], selfClosing: Bool, offset: Int) {
        // Inside a `<template>` (an inert fragment, not in the document) no tag describes the page.
        switch templateDepth == 0 ? name : "" {
        case "meta":
            // One tag may serve two readers (`name="description" property="og:description"`): it counts under both.
            guard let content = attributes.value("content") else { break }
            let property = attributes.value("property")?.trimmingASCIIWhitespace().lowercased()
            if let property, !property.isEmpty { result.metas.append((property, content)) }
            if let name = attributes.value("name")?.trimmingASCIIWhitespace().lowercased(), !name.isEmpty, name != property {
                result.metas.append((name, content))
            }
        case "link":
            let rels = (attributes.value("rel") ?? "").lowercased().split(whereSeparator: { isASCIIWhitespace($0.asciiValue ?? 0) })
            if result.canonicalHref == nil, rels.contains("canonical"), let href = attributes.value("href") {
                result.canonicalHref = href
            }
        case "base":
            if result.baseHref == nil, let href = attributes.value("href") { result.baseHref = href }
        case "title":
            // `<title/>` is still a title in HTML: the flag is ignored on a non-void element.
            if !isInForeignContent { expectTitle = true }
        case "script":
            // The MIME type's essence: CMSs add parameters (`application/ld+json; charset=UTF-8`, a `profile`).
            let type = attributes.value("type").map { String($0.prefix(while: { $0 != ";" })).trimmingASCIIWhitespace().lowercased() }
            // `<script/>` reads its contents to `</script>` in HTML (the tokenizer does so outside foreign content).
            expectJSONLD = type == "application/ld+json" && (!selfClosing || !isInForeignContent) ? offset : nil
        default:
            break
        }
        let kind = Self.kinds[name] ?? []
        let parentIsForeign = stack.last.map { $0.isForeign && !Self.htmlIntegrationPoints.contains($0.name) } ?? false
        if parentIsForeign, Self.foreignBreakout.contains(name)
            || (name == "font" && attributes.contains { ["color", "face", "size"].contains($0.name) }) {
            // Down to an HTML integration point (a `foreignObject` holding the unclosed SVG), not through it.
            while let top = stack.last, top.isForeign, !Self.htmlIntegrationPoints.contains(top.name) { pop() }
        }
        implicitlyClose(before: name, kind: kind)
        // `/>` closes a foreign element (`<svg>`, `<math>` and anything inside them) at once; HTML ignores it elsewhere.
        let isVoid = kind.contains(.void) || (selfClosing && (isInForeignContent || name == "svg" || name == "math"))
        if name == "br" || name == "hr" { breakText() }
        if stack.count >= Self.maximumDepth {
            if !reportedDepth {
                reportedDepth = true
                issue(.nestingTooDeep, at: offset, "elements nested deeper than \(Self.maximumDepth) are read as flat text")
            }
            if isVoid { microdataValue(name, attributes) }
            return
        }
        var frame = Frame(name: name)
        frame.isBlock = kind.contains(.block)
        frame.isForeign = name == "svg" || name == "math"
            || (stack.last.map { $0.isForeign && !Self.htmlIntegrationPoints.contains($0.name) } ?? false)
        let isChrome = (name == "header" || name == "footer") && contentDepth == 0
        frame.suppressesText = kind.contains(.suppressed) || isChrome
        if !frame.suppressesText {
            for attribute in attributes {
                switch attribute.name {
                case "hidden": frame.suppressesText = true
                case "aria-hidden": frame.suppressesText = frame.suppressesText || attribute.value.lowercased() == "true"
                case "role": frame.suppressesText = frame.suppressesText || attribute.value.lowercased() == "navigation"
                default: continue
                }
            }
        }
        if isVoid {
            microdataValue(name, attributes)
            return
        }
        if frame.isBlock { breakText() }
        microdataStart(name, attributes, frame: &frame)
        openCounts[name, default: 0] += 1
        if frame.suppressesText { suppressDepth += 1 }
        if name == "article" || name == "main" { contentDepth += 1 }
        if name == "template" { templateDepth += 1 }
        if name == "svg" || name == "math" { foreignDepth += 1 }
        stack.append(frame)
    }

    private var isInForeignContent: Bool { (openCounts["svg"] ?? 0) > 0 || (openCounts["math"] ?? 0) > 0 }

    /// HTML's implied end tags, for the common cases.
    private mutating func implicitlyClose(before name: String, kind: ElementKind) {
        if templateDepth == 0, (openCounts["head"] ?? 0) > 0, name != "head", !Self.headContent.contains(name) {
            while let top = stack.last {
                pop()
                if top.name == "head" { break }
            }
        }
        guard let top = stack.last?.name else { return }
        switch name {
        case _ where kind.contains(.closesParagraph) && top == "p": pop()
        case "li" where top == "li": pop()
        case "dt", "dd": if top == "dt" || top == "dd" { pop() }
        case "option": if top == "option" { pop() }
        case "td", "th": if top == "td" || top == "th" { pop() }
        case "tr":
            if top == "td" || top == "th" { pop() }
            if stack.last?.name == "tr" { pop() }
        default: break
        }
    }

    private mutating func endTag(_ name: String) {
        if name == "br" { breakText(); return }
        guard name != "body", name != "html", (openCounts[name] ?? 0) > 0 else { return }
        while let top = stack.last {
            pop()
            if top.name == name { break }
        }
    }

    private mutating func pop() {
        guard let frame = stack.popLast() else { return }
        openCounts[frame.name, default: 1] -= 1
        if frame.suppressesText { suppressDepth -= 1 }
        if frame.name == "article" || frame.name == "main" { contentDepth -= 1 }
        if frame.name == "template" { templateDepth -= 1 }
        if frame.name == "svg" || frame.name == "math" { foreignDepth -= 1 }
        if frame.isBlock { breakText() }
        microdataEnd(frame)
    }

    // MARK: Microdata

    /// Handles `itemscope`/`itemprop` on an element being opened.
    private mutating func microdataStart(_ name: String, _ attributes: [HTMLAttribute], frame: inout Frame) {
        let props = attributes.value("itemprop").map(Self.tokens) ?? []
        let isScope = attributes.value("itemscope") != nil
        guard isScope || !props.isEmpty, templateDepth == 0 else { return }
        frame.itemprops = props
        frame.propertyScope = scopes.isEmpty ? nil : scopes.count - 1
        if isScope {
            let types = (attributes.value("itemtype").map(Self.tokens) ?? []).map(SchemaNode.shortTypeName)
            scopes.append(SchemaNode(types: types, syntax: .microdata))
            frame.opensScope = true
            return
        }
        guard frame.propertyScope != nil else { return }
        if let value = Self.attributeValue(name, attributes) {
            for prop in props { scopes[scopes.count - 1].add(.text(value), for: prop) }
        } else {
            frame.captureStart = capture.count
            activeCaptures += 1
        }
    }

    /// Handles `itemprop` on a void element (`<meta itemprop content>`, `<link itemprop href>`, `<img itemprop src>`).
    private mutating func microdataValue(_ name: String, _ attributes: [HTMLAttribute]) {
        guard templateDepth == 0, let prop = attributes.value("itemprop"), !scopes.isEmpty,
              let value = Self.attributeValue(name, attributes) else { return }
        for p in Self.tokens(prop) { scopes[scopes.count - 1].add(.text(value), for: p) }
    }

    /// Closes an element's microdata: its captured text becomes a value, its scope a nested or top-level item.
    private mutating func microdataEnd(_ frame: Frame) {
        if let start = frame.captureStart {
            let end = min(capture.count, start + Self.maximumValueBytes)
            // NULs are dropped from text values, as from the page text.
            let bytes = capture[min(start, end)..<end].lazy.filter { $0 != 0 }
            let text = WebMarkupText.collapse(String(decoding: bytes, as: UTF8.self))
            if let scope = frame.propertyScope, scope < scopes.count {
                for prop in frame.itemprops { scopes[scope].add(.text(text), for: prop) }
            }
            activeCaptures -= 1
            if activeCaptures == 0 { capture.removeAll(keepingCapacity: true) }
        }
        if frame.opensScope, let node = scopes.popLast() {
            assert(scopes.count == (frame.propertyScope.map { $0 + 1 } ?? 0), "microdata scopes out of step")
            if let scope = frame.propertyScope, scope < scopes.count, !frame.itemprops.isEmpty {
                for prop in frame.itemprops { scopes[scope].add(.node(node), for: prop) }
            } else {
                result.microdata.append(node)
            }
        }
    }

    /// The value an element carries in an attribute (microdata's rules), or nil when its text is the value.
    /// A `content` attribute wins on any element (the schema.org/Google convention for machine-readable values
    /// such as `<a itemprop="telephone" href="tel:…" content="+1-217-555-0123">`).
    static func attributeValue(_ name: String, _ attributes: [HTMLAttribute]) -> String? {
        if let content = attributes.value("content") { return content }
        switch name {
        case "meta": return ""
        case "audio", "embed", "iframe", "img", "source", "track", "video": return attributes.value("src")
        case "a", "area", "link": return attributes.value("href")
        case "object": return attributes.value("data")
        case "data", "meter": return attributes.value("value")
        case "time": return attributes.value("datetime")
        default: return nil
        }
    }

    static func tokens(_ text: String) -> [String] {
        text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\u{0C}" }).map(String.init)
    }

    // MARK: JSON-LD

    private mutating func readJSONLD(_ range: Range<Int>, tagOffset: Int) {
        var start = range.lowerBound, end = range.upperBound
        // Tolerate the old wrappers `<!-- … -->` and `//<![CDATA[ … //]]>` around the JSON.
        func trim() {
            while start < end, isASCIIWhitespace(bytes[start]) { start += 1 }
            while end > start, isASCIIWhitespace(bytes[end - 1]) { end -= 1 }
        }
        func stripPrefix(_ p: String) -> Bool {
            let u = Array(p.utf8)
            guard end - start >= u.count, Array(bytes[start..<start + u.count]) == u else { return false }
            start += u.count
            trim()
            return true
        }
        func stripSuffix(_ p: String) -> Bool {
            let u = Array(p.utf8)
            guard end - start >= u.count, Array(bytes[end - u.count..<end]) == u else { return false }
            end -= u.count
            trim()
            return true
        }
        trim()
        _ = stripPrefix("<!--") || stripPrefix("//<![CDATA[") || stripPrefix("<![CDATA[")
        _ = stripSuffix("-->") || stripSuffix("//]]>") || stripSuffix("]]>")
        guard start < end else { return }
        do throws(InterchangeError) {
            let json = try JSONParser.parse(UnsafeBufferPointer(rebasing: bytes[start..<end]), allowsDuplicateMembers: true)
            let entities = SchemaNode.entities(fromJSONLD: json)
            result.jsonLD += entities
            result.jsonLDBlocks += repeatElement(tagOffset, count: entities.count)
        } catch {
            // Place the parser's line/column inside the page.
            let (blockLine, blockColumn) = locator.location(of: start)
            let line = error.line.map { blockLine + $0 - 1 } ?? blockLine
            let column = error.line == 1 ? error.column.map { blockColumn + $0 - 1 } : error.column
            append(WebMarkupIssue(kind: .invalidJSONLD, line: line, column: column,
                                  message: "the JSON-LD block was skipped: \(error.message)"))
        }
    }

    // MARK: Text

    private mutating func appendText(_ text: String) {
        if activeCaptures > 0, capture.count < Self.maximumValueBytes * 64 { capture.append(contentsOf: text.utf8) }
        guard suppressDepth == 0, !result.textTruncated else { return }
        // Past the limit nothing more is kept, so a huge text node costs no more than the limit.
        // A NUL in body text is a parse error the tree builder ignores (WHATWG "in body"): it is dropped.
        for b in text.utf8.prefix(maximumTextBytes + 1 - min(visibleText.bytes.count, maximumTextBytes)) where b != 0 {
            visibleText.append(b, isSpace: isASCIIWhitespace(b))
        }
        if visibleText.bytes.count >= maximumTextBytes { result.textTruncated = true }
    }

    private mutating func breakText() {
        visibleText.separate()
        if activeCaptures > 0 { capture.append(0x20) }
    }

    /// Cuts the text to the limit at a word boundary (never inside a UTF-8 sequence).
    private mutating func finishText() {
        if visibleText.bytes.count > maximumTextBytes {
            var cut = maximumTextBytes
            while cut > 0, visibleText.bytes[cut] & 0xC0 == 0x80 { cut -= 1 }
            if let space = visibleText.bytes[0..<cut].lastIndex(of: 0x20), space > cut / 2 { cut = space }
            visibleText.bytes.removeSubrange(cut...)
        }
        result.text = visibleText.string
        if result.textTruncated {
            append(WebMarkupIssue(kind: .textTruncated, message: "the visible text was cut to \(visibleText.bytes.count) bytes"))
        }
    }

    // MARK: Issues

    private mutating func issue(_ kind: WebMarkupIssue.Kind, at offset: Int, _ message: String) {
        let (line, column) = locator.location(of: offset)
        append(WebMarkupIssue(kind: kind, line: line, column: column, message: message))
    }

    private mutating func append(_ issue: WebMarkupIssue) {
        if result.issues.count < WebMarkupIssue.maximumCount { result.issues.append(issue) }
    }
}

/// Turns byte offsets into 1-based line and byte column, scanning forward only (offsets asked in document
/// order cost linear time in total; an earlier offset rescans from the start).
struct LineLocator {
    let bytes: UnsafeBufferPointer<UInt8>
    private var offset = 0
    private var line = 1
    private var lineStart = 0

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    mutating func location(of target: Int) -> (line: Int, column: Int) {
        let target = min(max(0, target), bytes.count)
        if target < offset { offset = 0; line = 1; lineStart = 0 }
        while offset < target {
            if bytes[offset] == 0x0A { line += 1; lineStart = offset + 1 }
            offset += 1
        }
        return (line, target - lineStart + 1)
    }
}
