/// What ``LineFramer`` and ``CSVFramer`` share: a window the readers fill. The synchronous and asynchronous readers
/// differ only in how one read happens, so both go through `fill`. Noncopyable: a framer owns its buffers and frees
/// them when it goes.
protocol InputFramer: ~Copyable {
    /// Where the next read goes (compacting or growing the window).
    mutating func spaceForRead() throws -> UnsafeMutableRawBufferPointer
    /// Records a read of `count` bytes; 0 means the input ended.
    mutating func didRead(_ count: Int)
}
