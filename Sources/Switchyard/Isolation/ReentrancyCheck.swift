#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Detects a synchronous access made from inside another access to the same isolation instance on the same
/// thread — a certain deadlock with a plain lock or `DispatchQueue.sync` (the blog post "dispatch_sync_safe
/// Deprecated" shows it for A → B → A) — and stops the process with a message that names the instance, instead of
/// hanging.
///
/// Two mechanisms, both kept in release builds because they are cheap:
/// - Exclusive holders: `AccessLock.exclusiveOwner` holds the running holder's thread identity. It is consulted
///   only when the fast path fails (a free lock cannot be held by the caller), so the uncontended cost is one
///   `pthread_self()` and two relaxed stores.
/// - Shared holders (readers of `ReadWriteIsolated`): many threads hold the lock at once, so each thread keeps a
///   small stack of the instances it is reading, in thread-local storage (one `pthread_getspecific` per read).
///
/// Detected: any access inside an exclusive access of the same instance (also through other instances:
/// A → B → A), and any access inside a read of the same instance (a nested read deadlocks as soon as a writer
/// queues between the two reads). Not detected: lock-order inversions across *threads* (thread 1 holds A and
/// waits for B while thread 2 holds B and waits for A); use the asynchronous forms or a fixed order.
@usableFromInline
enum ReentrancyCheck {
    @usableFromInline
    static func trap(
        _ attempted: String, inside held: String, typeName: String, label: String
    ) -> Never {
        fatalError(
            """
            Switchyard: re-entrant \(attempted) of \(typeName) "\(label)" from inside a \(held) of the same \
            instance on the same thread; this would deadlock. Move the inner access out of the closure, or use \
            the asynchronous or enqueue form, which waits its turn instead.
            """)
    }
}

/// The instances of `ReadWriteIsolated` the current thread is reading right now, as a linked list of frames
/// that live on the readers' own stacks; the thread-local slot points at the innermost one.
///
/// Cost per read: one `pthread_getspecific` and two `pthread_setspecific` (no allocation, no lock). The walk in
/// `isHeld` visits one frame per nested read of *other* instances on this thread, in practice 0 or 1.
@usableFromInline
enum ReadFrames {
    @usableFromInline
    struct Frame {
        @usableFromInline let instance: UnsafeRawPointer
        @usableFromInline let previous: UnsafeMutableRawPointer?

        @inlinable
        init(instance: UnsafeRawPointer, previous: UnsafeMutableRawPointer?) {
            self.instance = instance
            self.previous = previous
        }
    }

    @usableFromInline
    static let key: pthread_key_t = {
        var key = pthread_key_t()
        let result = pthread_key_create(&key, nil)  // frames live on stacks: nothing to free
        precondition(result == 0, "Switchyard: pthread_key_create failed (\(result))")
        return key
    }()

    /// The innermost frame of the calling thread (nil outside any read).
    @inlinable @inline(__always)
    static var innermost: UnsafeMutableRawPointer? { pthread_getspecific(key) }

    /// Whether `instance` is among the frames from `innermost` outwards.
    @inlinable
    static func isHeld(_ instance: UnsafeRawPointer, from innermost: UnsafeMutableRawPointer?) -> Bool {
        var cursor = innermost
        while let frame = cursor {
            let current = frame.assumingMemoryBound(to: Frame.self).pointee
            if current.instance == instance { return true }
            cursor = current.previous
        }
        return false
    }

    /// Runs `body` with `instance` recorded as read by this thread, on top of `outer` (the current `innermost`).
    @inlinable
    static func reading<Result, Failure: Error>(
        _ instance: UnsafeRawPointer, on outer: UnsafeMutableRawPointer?, _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        var frame = Frame(instance: instance, previous: outer)
        return try withUnsafeMutablePointer(to: &frame) { (pointer) throws(Failure) -> Result in
            pthread_setspecific(key, pointer)
            defer { pthread_setspecific(key, outer) }
            return try body()
        }
    }
}
