#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `buffer` (nil: none yet) resized to `size` bytes by the C allocator (freed with `free`); bytes past the old
/// size are uninitialized. For buffers that grow to tens of megabytes while a segment is built: a large block is
/// grown in place or by moving its pages (glibc's `realloc` remaps a block it got from `mmap`), where a Swift
/// allocation grows by copying into fresh memory whose every page is then faulted in again.
/// Out of memory stops the process, as a failed Swift allocation does.
func reallocateBytes(_ buffer: UnsafeMutablePointer<UInt8>?, to size: Int) -> UnsafeMutablePointer<UInt8> {
    guard let raw = realloc(buffer, max(size, 1)) else { fatalError("out of memory growing a buffer to \(size) bytes") }
    return raw.assumingMemoryBound(to: UInt8.self)
}
