/// Keeps a value alive past the optimizer so a timed loop's work is not removed as dead code.
@inline(never)
public func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
