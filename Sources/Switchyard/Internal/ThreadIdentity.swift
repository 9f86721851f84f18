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
    #if canImport(Darwin)
    UInt(bitPattern: pthread_self())  // pthread_t is a pointer
    #else
    UInt(pthread_self())  // pthread_t is an integer
    #endif
}
