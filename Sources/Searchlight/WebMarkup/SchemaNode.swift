import Foundation

/// One schema.org entity read from a page, in a form shared by JSON-LD and microdata: its types (short names such
/// as `Product`, with any `schema.org/` prefix removed) and its property values in document order.
public struct SchemaNode: Sendable, Hashable {
    /// Where the entity was written.
    public enum Syntax: String, Sendable, Hashable {
        case jsonLD = "json-ld"
        case microdata
    }

    public var types: [String]
    public var properties: [String: [SchemaValue]]
    public var syntax: Syntax

    public init(types: [String] = [], properties: [String: [SchemaValue]] = [:], syntax: Syntax) {
        self.types = types
        self.properties = properties
        self.syntax = syntax
    }

    /// Whether any of the node's types is in `names`.
    public func isA(_ names: Set<String>) -> Bool { types.contains(where: names.contains) }

    mutating func add(_ value: SchemaValue, for property: String) {
        properties[property, default: []].append(value)
    }

    /// The values of `property` (empty when absent).
    public func values(_ property: String) -> [SchemaValue] { properties[property] ?? [] }

    /// The first non-empty text of `property`; a nested entity stands for its `name` (e.g. a Person or Brand).
    public func string(_ property: String) -> String? {
        for value in values(property) {
            if let text = value.text { return text }
        }
        return nil
    }

    /// Every non-empty text of `property`, nested entities by name.
    public func strings(_ property: String) -> [String] { values(property).compactMap(\.text) }

    /// The first nested entity of `property`.
    public func node(_ property: String) -> SchemaNode? {
        for case .node(let node) in values(property) { return node }
        return nil
    }

    /// Every nested entity of `property`.
    public func nodes(_ property: String) -> [SchemaNode] {
        values(property).compactMap { if case .node(let n) = $0 { return n } else { return nil } }
    }

    /// The first number in `property` (`"19.99"`, `4`, `"1,299.00"`).
    public func number(_ property: String) -> Double? {
        for value in values(property) {
            if let text = value.text, let n = SchemaNode.parseNumber(text) { return n }
        }
        return nil
    }

    /// A decimal number in schema.org text: thousands separators dropped, no NaN or infinity. With both `,` and
    /// `.`, the later one is the decimal point: `1,299.00` and the European `1.299,00` are both 1299.
    static func parseNumber(_ text: String) -> Double? {
        var t = text.trimmingASCIIWhitespace()
        if let comma = t.utf8.lastIndex(of: UInt8(ascii: ",")), let dot = t.utf8.lastIndex(of: UInt8(ascii: ".")),
           dot < comma {
            t = t.replacingOccurrences(of: ".", with: "").replacingOccurrences(of: ",", with: ".")
        } else if t.utf8.contains(UInt8(ascii: ",")) {
            // `1,299.00` and `1,024` use thousands separators; `4,5` is a decimal comma.
            let groups = t.split(separator: ",", omittingEmptySubsequences: false)
            let thousands = t.utf8.contains(UInt8(ascii: ".")) || groups.dropFirst().allSatisfy { $0.prefix(while: \.isNumber).count == 3 }
            t = thousands ? t.replacingOccurrences(of: ",", with: "") : t.replacingOccurrences(of: ",", with: ".")
        }
        guard let first = t.utf8.first, first == UInt8(ascii: "-") || first == UInt8(ascii: ".") || (48...57).contains(first),
              let n = Double(t), n.isFinite else { return nil }
        return n
    }
}

/// A property value: text (numbers, dates and URLs are text too, as written) or a nested entity.
public indirect enum SchemaValue: Sendable, Hashable {
    case text(String)
    case node(SchemaNode)

    /// The trimmed text, or a nested entity's `name` (or `url` for an ImageObject); nil when empty.
    public var text: String? {
        switch self {
        case .text(let s):
            let t = s.trimmingASCIIWhitespace()
            return t.isEmpty ? nil : t
        case .node(let node):
            return node.string("name") ?? node.string("url") ?? node.string("contentUrl")
        }
    }

    /// The address the value names: the text, or a nested entity's `url` or `contentUrl` (an `ImageObject`'s
    /// `name` is a caption, not an address).
    public var address: String? {
        switch self {
        case .text: return text
        case .node(let node): return node.string("url") ?? node.string("contentUrl")
        }
    }
}

extension SchemaNode {
    /// The short type name of a type IRI or name: `https://schema.org/Product` and `schema:Product` become `Product`.
    static func shortTypeName(_ type: String) -> String {
        var t = type.trimmingASCIIWhitespace()
        if t.hasPrefix("schema:") { t.removeFirst(7) }
        if let slash = t.lastIndex(where: { $0 == "/" || $0 == "#" }), t.contains("schema.org") {
            t = String(t[t.index(after: slash)...])
        }
        return t
    }

    /// The entities of a JSON-LD document: a single object, an array of them, or objects with an `@graph`
    /// (flattened into the list). Values that are not objects are skipped. References are left for
    /// `resolvingReferences`, run once over all of a page's blocks: one block may refer to another's `@id`.
    static func entities(fromJSONLD json: JSONValue) -> [SchemaNode] {
        var result: [SchemaNode] = []
        func visit(_ value: JSONValue) {
            switch value {
            case .array(let elements):
                for element in elements { visit(element) }
            case .object:
                if let graph = value["@graph"] {
                    visit(graph)
                    if value["@type"] == nil { return }
                }
                if case .node(let node) = convert(value) { result.append(node) }
            default:
                break
            }
        }
        visit(json)
        return result
    }

    /// Replaces `{"@id": "…"}` reference values in top-level entities with the entity of that `@id`, top-level or
    /// nested (`@graph` pages refer to their author and publisher this way), whose own references are resolved one level
    /// too: a WebPage's `mainEntity` by `@id` is the page's subject, and that Product names its brand and offer by
    /// `@id` in turn. Two levels from raw definitions, so reference cycles cannot loop.
    /// A property holds each referenced entity once (a repeat is one value, as in RDF), so reading a property walks
    /// an entity once, not once per reference: the work stays linear in the page.
    /// An `@id` is an IRI relative to `base` (the page's `<base href>`, else its URL), as JSON-LD reads it, so
    /// `#org` and `https://…/page#org` name one entity; ids with a scheme are as written. A blank node id (`_:b0`)
    /// names a node of its own block only: `blocks` gives each node's block (one block when empty).
    static func resolvingReferences(_ nodes: [SchemaNode], base: URL? = nil, blocks: [Int] = []) -> [SchemaNode] {
        var keys: [String: String] = [:]
        func key(_ id: String, block: Int) -> String {
            if id.hasPrefix("_:") { return "\(block) \(id)" }
            if let known = keys[id] { return known }
            let resolved = nodeKey(id, base: base)
            keys[id] = resolved
            return resolved
        }
        // Objects with one `@id` are one node in JSON-LD (a reviews app adds its rating to the theme's Product under
        // the Product's `@id`, for Google to merge): top-level ones merge into the first, values in page order. A
        // blank node id (`_:b0`) names a node within its own block only (generators number each block's from zero),
        // so objects with one are never merged.
        var firstIndex: [String: Int] = [:], typeSets: [Int: Set<String>] = [:], merged: [SchemaNode] = []
        var mergedBlocks: [Int] = []
        for (n, node) in nodes.enumerated() {
            let block = n < blocks.count ? blocks[n] : 0
            guard let written = node.string("@id"), !written.hasPrefix("_:") else {
                merged.append(node)
                mergedBlocks.append(block)
                continue
            }
            let id = key(written, block: block)
            guard let index = firstIndex[id] else {
                firstIndex[id] = merged.count
                merged.append(node)
                mergedBlocks.append(block)
                continue
            }
            if typeSets[index] == nil { typeSets[index] = Set(merged[index].types) }
            for type in node.types where typeSets[index]!.insert(type).inserted { merged[index].types.append(type) }
            for (property, values) in node.properties where property != "@id" {
                merged[index].properties[property, default: []] += values
            }
        }
        // Each definition keeps its block, where the blank node ids it refers to are looked up.
        var byID: [String: SchemaNode] = [:], blockOf: [String: Int] = [:]
        for (node, block) in zip(merged, mergedBlocks) {
            if let id = node.string("@id").map({ key($0, block: block) }), byID[id] == nil {
                byID[id] = node
                blockOf[id] = block
            }
        }
        // Then entities defined inside another's property (a WebSite's publisher, its logo), which plugins such as
        // Yoast refer to by `@id` elsewhere; top-level definitions win. A bare `{"@id": …}` is no definition.
        func collectNested(in node: SchemaNode, block: Int) {
            for values in node.properties.values {
                for case .node(let child) in values {
                    if let id = child.string("@id").map({ key($0, block: block) }), byID[id] == nil,
                       !child.types.isEmpty || child.properties.count > 1 {
                        byID[id] = child
                        blockOf[id] = block
                    }
                    collectNested(in: child, block: block)
                }
            }
        }
        for (node, block) in zip(merged, mergedBlocks) { collectNested(in: node, block: block) }
        guard !byID.isEmpty else { return merged }
        var targets: [String: SchemaNode] = [:]
        for (id, node) in byID {
            let block = blockOf[id] ?? 0
            targets[id] = substitutingReferences(in: node, byID, key: { key($0, block: block) })
        }
        return zip(merged, mergedBlocks).map { node, block in
            substitutingReferences(in: node, targets, key: { key($0, block: block) }, inline: true)
        }
    }

    /// The key an `@id` names its node by: the IRI resolved against `base`, blank node ids (`_:b0`) and ids with a
    /// scheme as written. Shared by `resolvingReferences` and the page's subject lookup, so both find one node
    /// under `#e` and `https://…/page#e`.
    static func nodeKey(_ id: String, base: URL?) -> String {
        guard let base, !id.hasPrefix("_:"), !hasScheme(id) else { return id }
        return URL(string: id, relativeTo: base)?.absoluteString ?? id
    }

    /// Whether `id` starts with a URI scheme (`https:`, `urn:`): an absolute IRI.
    private static func hasScheme(_ id: String) -> Bool {
        guard let first = id.utf8.first, (0x61...0x7A).contains(first | 0x20) else { return false }
        for b in id.utf8.dropFirst() {
            if b == UInt8(ascii: ":") { return true }
            let isLetter = (0x61...0x7A).contains(b | 0x20), isDigit = (0x30...0x39).contains(b)
            if !(isLetter || isDigit || b == UInt8(ascii: "+") || b == UInt8(ascii: "-") || b == UInt8(ascii: ".")) { return false }
        }
        return false
    }

    /// `node` with each reference among its property values replaced by the entity `byID` gives for its `@id`;
    /// with `inline`, also inside the entities written inline in it (an ItemPage's `mainEntity`, an Offer's
    /// `itemOffered`, which can be the page's subject), each once since the page's own entities form a tree.
    private static func substitutingReferences(in node: SchemaNode, _ byID: [String: SchemaNode],
                                               key: (String) -> String, inline: Bool = false) -> SchemaNode {
        var resolved = node
        for (property, values) in node.properties where property != "@id" {
            var seen: Set<String> = []
            resolved.properties[property] = values.compactMap { value in
                guard case .node(let reference) = value else { return value }
                guard reference.types.isEmpty, reference.properties.count == 1,
                      let id = reference.string("@id").map(key), let target = byID[id] else {
                    return inline ? .node(substitutingReferences(in: reference, byID, key: key, inline: true)) : value
                }
                return seen.insert(id).inserted ? .node(target) : nil
            }
        }
        return resolved
    }

    /// A JSON-LD value as a schema value; nil for nulls and empty arrays. Arrays become several values of the
    /// property (handled by the caller). Depth is bounded by `JSONParser.maximumDepth` (64), which keeps this walk and
    /// `resolvingReferences` under half of a 512 KB stack in a debug build.
    private static func convert(_ value: JSONValue) -> SchemaValue? {
        switch value {
        case .null: return nil
        case .bool(let b): return .text(b ? "true" : "false")
        case .int(let i): return .text(String(i))
        case .double(let d): return .text(String(d))
        case .string(let s): return .text(s)
        case .array(let elements):
            // A loop, not `lazy.compactMap(convert).first`, which converts the element it returns twice: nested
            // arrays took 2^depth conversions (`[[[…]]]` 40 deep hung the indexer).
            for element in elements { if let value = convert(element) { return value } }
            return nil
        case .object(let members):
            if let literal = value["@value"] { return convert(literal) }
            var node = SchemaNode(syntax: .jsonLD)
            for member in members {
                switch member.key {
                case "@type":
                    switch member.value {
                    case .string(let s): node.types.append(shortTypeName(s))
                    case .array(let list):
                        for case .string(let s) in list { node.types.append(shortTypeName(s)) }
                    default: break
                    }
                case "@context", "@graph":
                    continue
                default:
                    let key = member.key.hasPrefix("@") ? member.key : shortTypeName(member.key)
                    if case .array(let elements) = member.value {
                        for element in elements { if let v = convert(element) { node.add(v, for: key) } }
                    } else if let v = convert(member.value) {
                        node.add(v, for: key)
                    }
                }
            }
            return .node(node)
        }
    }
}
