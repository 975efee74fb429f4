/// Little-endian binary writing for store files: fixed-width integers, LEB128 varints, strings and raw arrays.
struct ByteWriter {
    var bytes: [UInt8] = []

    mutating func u8(_ v: UInt8) { bytes.append(v) }

    mutating func u32(_ v: UInt32) {
        withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func u64(_ v: UInt64) {
        withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func varint(_ v: Int) { VarInt.append64(UInt64(v), to: &bytes) }

    mutating func string(_ s: String) {
        varint(s.utf8.count)
        bytes.append(contentsOf: s.utf8)
    }

    mutating func blob(_ b: [UInt8]) {
        varint(b.count)
        bytes.append(contentsOf: b)
    }

    /// An array of fixed-width values: varint count, then the values' little-endian bytes.
    mutating func array<T: FixedWidthInteger>(_ values: [T]) {
        varint(values.count)
        #if _endian(little)
        values.withUnsafeBytes { bytes.append(contentsOf: $0) }
        #else
        for v in values { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
        #endif
    }

    mutating func doubles(_ values: [Double]) { array(values.map(\.bitPattern)) }

    mutating func floats(_ values: [Float]) { array(values.map(\.bitPattern)) }
}

/// Reads what `ByteWriter` wrote, checking every length against the buffer: malformed input throws
/// `Malformed`, never traps.
struct ByteReader {
    struct Malformed: Error {
        let reason: String
    }

    let bytes: UnsafeRawBufferPointer
    var offset: Int

    init(_ bytes: UnsafeRawBufferPointer, offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    var remaining: Int { bytes.count - offset }
    var isAtEnd: Bool { offset >= bytes.count }

    private mutating func take(_ n: Int, _ what: String) throws(Malformed) -> UnsafeRawBufferPointer {
        guard n >= 0, n <= remaining else { throw Malformed(reason: "\(what) runs past the end (offset \(offset))") }
        let slice = UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + n])
        offset += n
        return slice
    }

    mutating func u8(_ what: String = "byte") throws(Malformed) -> UInt8 { try take(1, what)[0] }

    mutating func u32(_ what: String = "integer") throws(Malformed) -> UInt32 {
        let raw = try take(4, what)
        var v: UInt32 = 0
        for k in 0..<4 { v |= UInt32(raw[k]) << (8 * UInt32(k)) }
        return v
    }

    mutating func u64(_ what: String = "integer") throws(Malformed) -> UInt64 {
        let raw = try take(8, what)
        var v: UInt64 = 0
        for k in 0..<8 { v |= UInt64(raw[k]) << (8 * UInt64(k)) }
        return v
    }

    mutating func varint(_ what: String = "length") throws(Malformed) -> Int {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = try u8(what)
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { break }
            shift += 7
            guard shift < 63 else { throw Malformed(reason: "\(what) is not a valid varint (offset \(offset))") }
        }
        guard result <= UInt64(Int32.max) * 64 else { throw Malformed(reason: "\(what) \(result) is too large") }
        return Int(result)
    }

    mutating func string(_ what: String = "string") throws(Malformed) -> String {
        let n = try varint(what)
        return String(decoding: try take(n, what), as: UTF8.self)
    }

    mutating func blob(_ what: String = "bytes") throws(Malformed) -> [UInt8] {
        let n = try varint(what)
        return Array(try take(n, what))
    }

    mutating func array<T: FixedWidthInteger>(_ type: T.Type, _ what: String) throws(Malformed) -> [T] {
        let count = try varint(what)
        let size = MemoryLayout<T>.size
        guard count <= remaining / size else { throw Malformed(reason: "\(what) of \(count) values runs past the end") }
        let raw = try take(count * size, what)
        return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            if count > 0, let target = buffer.baseAddress, let source = raw.baseAddress {
                UnsafeMutableRawPointer(target).copyMemory(from: source, byteCount: count * size)
            }
            #if !_endian(little)
            for i in 0..<count { buffer[i] = T(littleEndian: buffer[i]) }
            #endif
            initialized = count
        }
    }

    mutating func doubles(_ what: String) throws(Malformed) -> [Double] {
        try array(UInt64.self, what).map(Double.init(bitPattern:))
    }

    mutating func floats(_ what: String) throws(Malformed) -> [Float] {
        try array(UInt32.self, what).map(Float.init(bitPattern:))
    }
}
