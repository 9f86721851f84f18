#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A cheap, non-zero identifier of the calling OS thread (the `pthread_t` bit pattern).
///
/// Unique among live threads; a value may be reused after its thread exits. One libc call, no syscall.
@inlinable @inline(__always)
func currentThreadIdentity() -> UInt {
    #if canImport(Darwin) || canImport(Musl)
        UInt(bitPattern: pthread_self())  // pthread_t is a pointer
    #else
        UInt(pthread_self())  // pthread_t is an integer
    #endif
}

/// Calls `body` with a borrow of the value at `value`'s address, without copying it.
///
/// Reading `pointer.pointee` into a `borrowing` parameter may make the compiler copy the value (a retain and a
/// release of its buffer). Through an `inout` parameter it knows nothing else can write the memory during the
/// call and passes the borrow in place. Because the access is formally a modification, only an *exclusive*
/// holder may use this: two concurrent readers doing it would violate the law of exclusivity (and ThreadSanitizer
/// reports it as a race).
@inlinable @inline(__always)
func withBorrow<Value, Result, Failure: Error>(
    _ value: inout Value, _ body: (borrowing Value) throws(Failure) -> Result
) throws(Failure) -> Result {
    try body(value)
}
