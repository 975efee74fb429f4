extension String {
    /// Calls `body` with the string's UTF-8 bytes, read in place when it stores them contiguously (every native
    /// string), otherwise through a contiguous copy. `String.withUTF8` is mutating, so calling it on a parameter
    /// meant copying it into a `var` first: a retain and a release per call, a few million over a debian-en build
    /// (one per text value analyzed and per value stored).
    @inline(__always)
    func withUTF8Bytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        if let result = try utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = self
        return try copy.withUTF8(body)
    }
}
