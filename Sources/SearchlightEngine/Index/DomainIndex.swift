/// Values (documents, identifiers) filed under their domain and under each dotted ancestor of it, so a domain
/// delete finds what it reaches with one lookup per deleted domain instead of a scan of every value: a round that
/// alternates writes and domain deletes stays linear. Scopes are those `DomainPrefixes.covers` tests (the whole
/// domain and its bytes before each `.`; compared by bytes), so `a.b` reaches `a.b` and `a.b.c`, never `a.bc`.
///
/// A value stays filed under its other scopes when one is removed, and is not unfiled when the caller replaces
/// or deletes it: what `remove(within:)` returns may be stale (or repeated), for the caller to check against its
/// own state. Each filing is returned at most once, so all removals together cost what the filings did.
package struct DomainIndex<Value> {
    private var filed: [ExactIdentifier: [Value]] = [:]

    package init() {}

    /// Files `value` under `domain` and its ancestors (nil or empty: under nothing, as no delete reaches it).
    package mutating func insert(_ value: Value, domain: String?) {
        guard let domain, !domain.isEmpty else { return }
        filed[ExactIdentifier(domain), default: []].append(value)
        let bytes = domain.utf8
        var dot = bytes.firstIndex(of: UInt8(ascii: "."))
        while let end = dot {
            // (Bytes before a `.` are whole scalars: the prefix is the domain's own spelling.)
            if end != bytes.startIndex {
                filed[ExactIdentifier(String(decoding: bytes[..<end], as: UTF8.self)), default: []].append(value)
            }
            dot = bytes[bytes.index(after: end)...].firstIndex(of: UInt8(ascii: "."))
        }
    }

    /// Removes and returns the values filed under `domains` (each standing for itself and every domain below it;
    /// empty ones for nothing), possibly stale or repeated.
    package mutating func remove(within domains: some Sequence<String>) -> [Value] {
        var found: [Value] = []
        for domain in domains where !domain.isEmpty {
            if let values = filed.removeValue(forKey: ExactIdentifier(domain)) { found += values }
        }
        return found
    }

    /// Forgets every value.
    package mutating func removeAll() { filed = [:] }
}
