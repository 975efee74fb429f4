import Foundation
import XCTest
@testable import SearchlightEngine

/// A fresh, private directory for one test's store (removed at the end of the test).
func makeStoreDirectory(_ test: XCTestCase, _ name: String = #function) -> String {
    let base = FileManager.default.temporaryDirectory
        .appendingPathComponent("searchlight-store-tests-\(getpid())-\(UUID().uuidString.prefix(8))")
    let path = base.appendingPathComponent("store").path
    test.addTeardownBlock { try? FileManager.default.removeItem(at: base) }
    return path
}

/// Deterministic pseudo-random numbers (SplitMix64) for seeded tests.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// What a store should contain: documents by id (values by field NAME) and client states.
struct StoreModel: Equatable {
    struct Doc: Equatable {
        var domain: String?
        var values: [String]
    }

    var documents: [String: Doc] = [:]
    var clientStates: [ExactIdentifier: [UInt8]] = [:]

    /// Applies the same operations a `JournalBatch` records.
    mutating func apply(_ operations: [ModelOperation]) {
        for operation in operations {
            switch operation {
            case .upsert(let id, let domain, let title, let size):
                documents[id] = Doc(domain: domain, values: ["title=\(title)", "size=\(size)"])
            case .delete(let ids): for id in ids { documents[id] = nil }
            case .deleteDomain(let domain):
                documents = documents.filter { entry in
                    guard let d = entry.value.domain else { return true }
                    return !IndexWriter.domain(d, isWithin: domain)
                }
            case .deleteAll:
                documents = [:]
                clientStates = [:]
            case .state(let name, let state): clientStates[ExactIdentifier(name)] = state
            }
        }
    }

    /// The model as a writer's snapshot shows it.
    static func read(_ snapshot: IndexSnapshot, clientStates: [ExactIdentifier: [UInt8]]) -> StoreModel {
        var model = StoreModel()
        model.clientStates = clientStates
        for address in snapshot.matches(.all) {
            guard let document = snapshot.document(at: address) else { continue }
            let values = document.values.map { field, value -> String in
                let name = snapshot.schema.info(field)?.name ?? "?"
                switch value {
                case .text(let t): return "\(name)=\(t)"
                case .number(let n): return "\(name)=\(n)"
                case .bytes(let b): return "\(name)=\(b)"
                }
            }
            model.documents[document.id] = Doc(domain: document.domain, values: values)
        }
        return model
    }
}

/// An operation of a test batch, applied both to a writer (recorded in a journal batch) and to the model.
enum ModelOperation: Equatable {
    case upsert(id: String, domain: String?, title: String, size: Double)
    case delete([String])
    case deleteDomain(String)
    case deleteAll
    case state(name: String, state: [UInt8])
}

/// Applies operations to the writer and records them in a journal batch, the way the container does.
func record(_ operations: [ModelOperation], writer: IndexWriter) throws -> JournalBatch {
    var batch = JournalBatch()
    let title = try writer.registerField("title", .text(weight: 3, primary: true))
    let size = try writer.registerField("size", .numeric)
    for operation in operations {
        switch operation {
        case .upsert(let id, let domain, let t, let s):
            let document = Document(id: id, domain: domain, values: [(title, .text(t)), (size, .number(s))])
            try writer.upsert(document)
            batch.recordUpsert(document, schema: writer.schema)
        case .delete(let ids):
            writer.delete(ids: ids)
            batch.recordDelete(ids: ids)
        case .deleteDomain(let domain):
            writer.delete(domains: [domain])
            batch.recordDelete(domains: [domain])
        case .deleteAll:
            writer.deleteAll()
            batch.recordDeleteAll()
        case .state(let name, let state):
            batch.recordClientState(name: name, state: state)
        }
    }
    return batch
}

/// A deterministic batch number `n`: a few upserts (some replacing earlier ids), a delete, a client state.
func modelBatch(_ n: Int) -> [ModelOperation] {
    var operations: [ModelOperation] = []
    for k in 0..<(1 + n % 4) {
        operations.append(.upsert(id: "d\((n * 3 + k) % 17)", domain: k % 2 == 0 ? "mail.box\(n % 3)" : nil,
                                  title: "batch \(n) document \(k) über ☃", size: Double(n * 10 + k)))
    }
    if n % 3 == 2 { operations.append(.delete(["d\(n % 17)", "missing"])) }
    if n % 7 == 6 { operations.append(.deleteDomain("mail.box1")) }
    if n == 11 { operations.append(.deleteAll) }
    operations.append(.state(name: "index", state: Array("state \(n)".utf8)))
    return operations
}
