/// One journal record's worth of engine changes: everything one container call or batch did, plus the client
/// states it stores. Fields are recorded by NAME with their options (a per-record field table), so a record
/// replays into any writer, whatever ids its schema assigns.
///
/// Body layout (after the record's sequence number): varint field count, per field (string name, u8 kind
/// 0 text / 1 numeric / 2 stored, u32 weight bits, u8 flags bit0 searchableByDefault bit1 primary); then
/// varint operation count and the operations, each a tag byte:
/// 1 upsert (string id, u8 hasDomain, [string domain], varint value count, per value varint field-table
///   index, u8 tag 0 text / 1 number / 2 bytes, payload: string | u64 bits | blob);
/// 2 delete ids (varint count, strings); 3 delete domains (varint count, strings); 4 delete all (also clears
/// every client state); 5 set client state (string name, blob state).
package struct JournalBatch: Sendable {
    private var fields = ByteWriter()
    private var fieldCount = 0
    private var localField: [FieldID: Int] = [:]
    private var operations = ByteWriter()
    package private(set) var operationCount = 0

    package init() {}

    package var isEmpty: Bool { operationCount == 0 }

    /// Records an upsert; `schema` names the document's field ids (the writer's schema).
    package mutating func recordUpsert(_ document: Document, schema: Schema) {
        operationCount += 1
        operations.u8(1)
        operations.string(document.id)
        if let domain = document.domain {
            operations.u8(1)
            operations.string(domain)
        } else {
            operations.u8(0)
        }
        operations.varint(document.values.count)
        for (field, value) in document.values {
            operations.varint(local(field, schema))
            switch value {
            case .text(let text):
                operations.u8(0)
                operations.string(text)
            case .number(let number):
                operations.u8(1)
                operations.u64(number.bitPattern)
            case .bytes(let bytes):
                operations.u8(2)
                operations.blob(bytes)
            }
        }
    }

    package mutating func recordDelete(ids: [String]) {
        guard !ids.isEmpty else { return }
        operationCount += 1
        operations.u8(2)
        operations.varint(ids.count)
        for id in ids { operations.string(id) }
    }

    package mutating func recordDelete(domains: [String]) {
        guard !domains.isEmpty else { return }
        operationCount += 1
        operations.u8(3)
        operations.varint(domains.count)
        for domain in domains { operations.string(domain) }
    }

    package mutating func recordDeleteAll() {
        operationCount += 1
        operations.u8(4)
    }

    package mutating func recordClientState(name: String, state: [UInt8]) {
        operationCount += 1
        operations.u8(5)
        operations.string(name)
        operations.blob(state)
    }

    private mutating func local(_ field: FieldID, _ schema: Schema) -> Int {
        if let index = localField[field] { return index }
        let info = schema.info(field)
        let options = info?.options ?? .stored
        fields.string(info?.name ?? "")
        fields.u8(options.kind == .text ? 0 : options.kind == .numeric ? 1 : 2)
        fields.u32(options.weight.bitPattern)
        fields.u8((options.searchableByDefault ? 1 : 0) | (options.primary ? 2 : 0))
        localField[field] = fieldCount
        fieldCount += 1
        return fieldCount - 1
    }

    /// The record body.
    package func encoded() -> [UInt8] {
        var out = ByteWriter()
        out.bytes.reserveCapacity(fields.bytes.count + operations.bytes.count + 20)
        out.varint(fieldCount)
        out.bytes.append(contentsOf: fields.bytes)
        out.varint(operationCount)
        out.bytes.append(contentsOf: operations.bytes)
        return out.bytes
    }
}

/// A decoded journal record, ready to replay.
package struct DecodedBatch: Sendable, Equatable {
    /// One engine change; `upsert` documents use indices into `fields` as field ids.
    package enum Operation: Sendable, Equatable {
        case upsert(Document)
        case deleteIDs([String])
        case deleteDomains([String])
        case deleteAll
        case setClientState(name: String, state: [UInt8])
    }

    package var fields: [(name: String, options: FieldOptions)]
    package var operations: [Operation]

    package static func == (lhs: DecodedBatch, rhs: DecodedBatch) -> Bool {
        lhs.operations == rhs.operations && lhs.fields.count == rhs.fields.count
            && zip(lhs.fields, rhs.fields).allSatisfy { $0.name == $1.name && $0.options == $1.options }
    }

    /// Decodes a record body; malformed input throws.
    static func decode(_ reader: inout ByteReader) throws(ByteReader.Malformed) -> DecodedBatch {
        let fieldCount = try reader.varint("field count")
        guard fieldCount <= reader.remaining else { throw .init(reason: "field count \(fieldCount) is impossible") }
        // Field numbers are 16 bits (as a snapshot's are checked).
        guard fieldCount <= Int(UInt16.max) else { throw .init(reason: "\(fieldCount) fields") }
        var fields: [(name: String, options: FieldOptions)] = []
        for _ in 0..<fieldCount {
            let name = try reader.string("field name")
            let kindByte = try reader.u8("field kind")
            let weight = Float(bitPattern: try reader.u32("field weight"))
            let flags = try reader.u8("field flags")
            let kind: FieldOptions.Kind
            switch kindByte {
            case 0: kind = .text
            case 1: kind = .numeric
            case 2: kind = .stored
            default: throw .init(reason: "unknown field kind \(kindByte)")
            }
            guard !name.isEmpty else { throw .init(reason: "empty field name") }
            fields.append((name, FieldOptions(kind: kind, weight: weight, searchableByDefault: flags & 1 != 0,
                                              primary: flags & 2 != 0)))
        }
        let count = try reader.varint("operation count")
        guard count <= reader.remaining else { throw .init(reason: "operation count \(count) is impossible") }
        var operations: [Operation] = []
        operations.reserveCapacity(count)
        for _ in 0..<count {
            let tag = try reader.u8("operation tag")
            switch tag {
            case 1:
                let id = try reader.string("document id")
                let domain: String? = try reader.u8("domain flag") == 0 ? nil : try reader.string("domain")
                let valueCount = try reader.varint("value count")
                guard valueCount <= reader.remaining else { throw .init(reason: "value count \(valueCount) is impossible") }
                var values: [(FieldID, FieldValue)] = []
                values.reserveCapacity(valueCount)
                for _ in 0..<valueCount {
                    let field = try reader.varint("value field")
                    guard field < fields.count else { throw .init(reason: "value of unknown field \(field)") }
                    let valueTag = try reader.u8("value tag")
                    let value: FieldValue
                    switch valueTag {
                    case 0: value = .text(try reader.string("text value"))
                    case 1: value = .number(Double(bitPattern: try reader.u64("number value")))
                    case 2: value = .bytes(try reader.blob("bytes value"))
                    default: throw .init(reason: "unknown value tag \(valueTag)")
                    }
                    values.append((FieldID(rawValue: UInt16(field)), value))
                }
                operations.append(.upsert(Document(id: id, domain: domain, values: values)))
            case 2, 3:
                let n = try reader.varint("list count")
                guard n <= reader.remaining else { throw .init(reason: "list count \(n) is impossible") }
                var list: [String] = []
                for _ in 0..<n { list.append(try reader.string("list entry")) }
                operations.append(tag == 2 ? .deleteIDs(list) : .deleteDomains(list))
            case 4: operations.append(.deleteAll)
            case 5:
                let name = try reader.string("client state name")
                operations.append(.setClientState(name: name, state: try reader.blob("client state")))
            default: throw .init(reason: "unknown operation tag \(tag)")
            }
        }
        guard reader.isAtEnd else { throw .init(reason: "\(reader.remaining) bytes after the last operation") }
        return DecodedBatch(fields: fields, operations: operations)
    }

    /// Applies the batch to `writer` (without committing) and to `clientStates`.
    package func apply(to writer: IndexWriter, clientStates: inout [ExactIdentifier: [UInt8]]) throws(EngineError) {
        var ids: [FieldID] = []
        ids.reserveCapacity(fields.count)
        for field in fields { ids.append(try writer.registerField(field.name, field.options)) }
        for operation in operations {
            switch operation {
            case .upsert(var document):
                document.values = document.values.map { (ids[Int($0.0.rawValue)], $0.1) }
                try writer.upsert(document)
            case .deleteIDs(let list): writer.delete(ids: list)
            case .deleteDomains(let list): writer.delete(domains: list)
            case .deleteAll:
                writer.deleteAll()
                clientStates = [:]
            case .setClientState(let name, let state): clientStates[ExactIdentifier(name)] = state
            }
        }
    }
}
