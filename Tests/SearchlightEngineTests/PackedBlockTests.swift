import XCTest
@testable import SearchlightEngine
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Bit-packed posting blocks (`BitPacking`, `PostingBlocks`): every width round-trips, a term's layout decodes
/// block by block and whole, damaged or truncated blocks never read past their buffer, and snapshots written in the
/// varint-only format of version 3 read back as the same segments.
final class PackedBlockTests: XCTestCase {
    func testEveryWidthRoundTrips() {
        var g = DifferentialTests.Generator(state: 91)
        for width in 0...32 {
            let limit = width == 32 ? UInt64(UInt32.max) : (UInt64(1) << width) - 1
            for round in 0..<20 {
                // The largest value, zero and random ones in between.
                var values = (0..<BitPacking.values).map { _ in UInt32(UInt64(g.int(Int(min(limit, 1 << 40)) + 1)) & limit) }
                values[round % BitPacking.values] = UInt32(limit)
                values[(round * 7 + 3) % BitPacking.values] = 0
                var bytes: [UInt8] = []
                values.withUnsafeBufferPointer { BitPacking.pack($0.baseAddress!, width: width, to: &bytes) }
                XCTAssertEqual(bytes.count, 16 * width, "width \(width)")
                XCTAssertEqual(bytes.withUnsafeBufferPointer { PostingEncodingTests.readBits($0, from: 0, width: width, count: 128) },
                               values, "the bit order, width \(width)")
                bytes += [UInt8](repeating: 0xA5, count: BitPacking.slack)
                var unpacked = [UInt32](repeating: 0, count: BitPacking.values)
                var sums = unpacked
                let previous = UInt32(g.int(1_000))
                var last: UInt32 = 0
                bytes.withUnsafeBytes { raw in
                    unpacked.withUnsafeMutableBufferPointer {
                        BitPacking.unpack(raw.baseAddress!, width: width, adding: 1, into: $0.baseAddress!)
                    }
                    sums.withUnsafeMutableBufferPointer {
                        last = BitPacking.unpackDeltas(raw.baseAddress!, width: width, previous: previous, into: $0.baseAddress!)
                    }
                }
                XCTAssertEqual(unpacked, values.map { $0 &+ 1 }, "width \(width), round \(round)")
                var running = previous
                let expectedSums = values.map { running &+= $0; return running }
                XCTAssertEqual(sums, expectedSums, "width \(width), round \(round)")
                XCTAssertEqual(last, expectedSums.last)
            }
        }
    }

    /// A term written in either layout reads back whole and block by block from its block starts, for lengths
    /// around block boundaries, gaps up to 2^31 and frequencies up to a million.
    func testTermLayoutsDecodeWholeAndByBlock() {
        var g = DifferentialTests.Generator(state: 17)
        for docFreq in [1, 2, 127, 128, 129, 255, 256, 257, 384, 1_000] {
            for packed in [true, false] {
                var docs: [UInt32] = [], tfs: [UInt32] = []
                var doc: UInt32 = UInt32(g.int(3))
                for i in 0..<docFreq {
                    docs.append(doc)
                    tfs.append(g.chance(0.8) ? 1 : UInt32(1 + g.int(g.chance(0.9) ? 20 : 1_000_000)))
                    // One block of tiny gaps, one of huge ones, the rest mixed.
                    let gap = i / 128 == 1 ? 1 + g.int(2) : i / 128 == 2 ? 1 + g.int(1 << 24) : 1 + g.int(g.chance(0.9) ? 60 : 5_000)
                    doc &+= UInt32(gap)
                }
                var bytes: [UInt8] = [], starts: [UInt32] = []
                bytes.append(contentsOf: [7, 7, 7])  // the term need not start the stream
                docs.withUnsafeBufferPointer { d in
                    tfs.withUnsafeBufferPointer { t in
                        PostingBlocks.append(docs: d, tfs: t, packed: packed, to: &bytes, blockStarts: &starts)
                    }
                }
                let label = "docFreq \(docFreq), packed \(packed)"
                XCTAssertEqual(starts.count, docFreq > 128 ? (docFreq + 127) / 128 : 0, label)
                XCTAssertEqual(starts.first.map(Int.init) ?? 3, 3, label)
                var wholeDocs: [UInt32] = [], wholeTfs: [UInt32] = []
                let end = bytes.withUnsafeBufferPointer {
                    PostingBlocks.decodeTerm($0, start: 3, docFreq: docFreq, packed: packed, docs: &wholeDocs, tfs: &wholeTfs)
                }
                XCTAssertEqual(end, bytes.count, label)
                XCTAssertEqual(wholeDocs, docs, label)
                XCTAssertEqual(wholeTfs, tfs, label)
                guard packed else { continue }
                // Only full blocks of terms longer than one block are packed.
                let packedBlocks = starts.indices.filter { bytes[Int(starts[$0])] <= 32 && PostingBlocks.isPacked(block: $0, docFreq: docFreq) }
                XCTAssertEqual(packedBlocks.count, docFreq > 128 ? docFreq / 128 : 0, label)
                for (block, start) in starts.enumerated() {
                    let count = min(128, docFreq - 128 * block)
                    var blockDocs = [UInt32](repeating: 0, count: 128), blockTfs = blockDocs
                    let blockEnd = bytes.withUnsafeBufferPointer { buffer in
                        blockDocs.withUnsafeMutableBufferPointer { d in
                            blockTfs.withUnsafeMutableBufferPointer { t in
                                PostingBlocks.decode(buffer, at: Int(start), block: block, docFreq: docFreq, count: count,
                                                     previous: block == 0 ? 0 : docs[128 * block - 1],
                                                     docs: d.baseAddress!, tfs: t.baseAddress!)
                            }
                        }
                    }
                    XCTAssertEqual(blockEnd, block + 1 < starts.count ? Int(starts[block + 1]) : bytes.count, "\(label), block \(block)")
                    XCTAssertEqual(Array(blockDocs[0..<count]), Array(docs[128 * block..<128 * block + count]), "\(label), block \(block)")
                    XCTAssertEqual(Array(blockTfs[0..<count]), Array(tfs[128 * block..<128 * block + count]), "\(label), block \(block)")
                }
            }
        }
    }

    /// Every truncation of a term with packed blocks, and widths no writer produces (above 32), decode without
    /// reading a byte past the buffer, which ends where an unreadable page begins, and report an end inside it.
    func testTruncatedAndCorruptBlocksStayInsideTheBuffer() {
        var g = DifferentialTests.Generator(state: 5)
        let docFreq = 300
        var docs: [UInt32] = [], tfs: [UInt32] = []
        var doc: UInt32 = 0
        for _ in 0..<docFreq {
            doc &+= UInt32(1 + g.int(3_000))
            docs.append(doc)
            tfs.append(UInt32(1 + g.int(4)))
        }
        var bytes: [UInt8] = [], starts: [UInt32] = []
        docs.withUnsafeBufferPointer { d in
            tfs.withUnsafeBufferPointer { t in PostingBlocks.append(docs: d, tfs: t, to: &bytes, blockStarts: &starts) }
        }
        var variants: [(String, [UInt8])] = (0...bytes.count).map { ("first \($0) bytes", Array(bytes[0..<$0])) }
        for (index, width) in [(0, 33), (0, 255), (1, 200), (Int(starts[1]), 64), (Int(starts[1]) + 1, 255)] {
            var damaged = bytes
            damaged[index] = UInt8(width)
            variants.append(("width byte \(index) = \(width)", damaged))
            variants.append(("width byte \(index) = \(width), truncated", Array(damaged[0..<(damaged.count * 2 / 3)])))
        }
        var decodedDocs: [UInt32] = [], decodedTfs: [UInt32] = []
        for (label, variant) in variants {
            let guarded = GuardedBytes(variant)
            let end = guarded.withBuffer {
                PostingBlocks.decodeTerm($0, start: 0, docFreq: docFreq, docs: &decodedDocs, tfs: &decodedTfs)
            }
            XCTAssertLessThanOrEqual(end, variant.count, label)
            XCTAssertEqual(decodedDocs.count, docFreq, label)
            if variant == bytes { XCTAssertEqual(decodedDocs, docs) }
        }
    }

    /// A snapshot written in format version 3 (every block as varints) reads back as the segment it was written
    /// from, and version 4 files of a term-heavy index are not larger than version 3's.
    func testVersionThreeSnapshotsReadBackAsTheSameSegments() throws {
        let writer = IndexWriter()
        let body = try writer.registerField("body", .text())
        var g = DifferentialTests.Generator(state: 3)
        for i in 0..<2_000 {
            let words = (0..<(2 + g.int(10))).map { _ in "w\(g.int(g.chance(0.5) ? 10 : 2_000))" }
            try writer.upsert(Document(id: "d\(i)", values: [(body, .text(words.joined(separator: " ")))]))
            if i == 1_200 { _ = try writer.commit() }
        }
        let snapshot = try writer.commit()
        XCTAssertEqual(snapshot.segments.count, 2)
        XCTAssertTrue(snapshot.segments.contains { $0.skipLastDoc.count > 20 }, "terms of many blocks")
        var sizes: [UInt32: Int] = [:]
        for version: UInt32 in [3, SnapshotFile.version] {
            let file = SnapshotFile.encode(snapshot, clientStates: [:], generation: 1, protectionClass: "", version: version)
            sizes[version] = file.count
            let contents = try file.withUnsafeBytes { raw throws(StoreError) in try SnapshotFile.decode(raw, path: "v\(version)") }
            XCTAssertEqual(contents.segments.count, 2)
            for (read, written) in zip(contents.segments, snapshot.segments) {
                XCTAssertEqual(read.differences(from: written), [], "version \(version)")
            }
            let loaded = IndexSnapshot(segments: contents.segments, live: contents.live, schema: snapshot.schema,
                                       parameters: snapshot.parameters, generation: 2, contentGeneration: 2)
            for query: Query in [.term("w3"), .phrase("w1 w2"), .and([.term("w4"), .term("w5")])] {
                XCTAssertEqual(loaded.search(query, limit: 50).map(\.score), snapshot.search(query, limit: 50).map(\.score),
                               "\(query), version \(version)")
            }
        }
        XCTAssertLessThanOrEqual(try XCTUnwrap(sizes[SnapshotFile.version]), try XCTUnwrap(sizes[3]), "\(sizes)")
    }
}

/// Bytes that end exactly where an unreadable page begins, so that reading past them traps.
final class GuardedBytes {
    private let mapping: UnsafeMutableRawPointer
    private let mappedBytes: Int
    private let start: UnsafeMutablePointer<UInt8>
    let count: Int

    init(_ bytes: [UInt8]) {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let dataPages = (bytes.count + page - 1) / page
        mappedBytes = (dataPages + 1) * page
        mapping = mmap(nil, mappedBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)!
        precondition(mapping != MAP_FAILED, "mmap failed")
        let guardPage = mapping + dataPages * page
        precondition(mprotect(guardPage, page, PROT_NONE) == 0, "mprotect failed")
        count = bytes.count
        start = (guardPage - bytes.count).assumingMemoryBound(to: UInt8.self)
        bytes.withUnsafeBufferPointer { source in
            if let base = source.baseAddress { start.update(from: base, count: bytes.count) }
        }
    }

    deinit { munmap(mapping, mappedBytes) }

    func withBuffer<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        body(UnsafeBufferPointer(start: start, count: count))
    }
}
