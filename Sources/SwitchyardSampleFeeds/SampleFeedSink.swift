import SwitchyardTransit

/// Receives a generated feed, one file at a time, in order: `beginFile`, `write`*, `endFile`, … for each file of
/// ``SampleFeedGenerator/fileNames``, then `finish` once.
///
/// The generator calls the methods in exactly that order and never re-enters them; a thrown error stops generation
/// at once (no further calls, not even `endFile` or `finish`) and is rethrown by
/// ``SampleFeedGenerator/generate(_:into:)``. Chunks are a little over 64 KiB (the buffer is handed over after the
/// record, or trip's stop times, that fills it; the last chunk of a file is smaller) and end at record boundaries,
/// but a sink should not rely on either.
public protocol SampleFeedSink {
    /// A new file starts, e.g. `"stops.txt"`.
    mutating func beginFile(_ name: String) throws
    /// The next bytes of the current file; `bytes` is valid only during the call (copy what you keep).
    mutating func write(_ bytes: UnsafeRawBufferPointer) throws
    /// The current file is complete.
    mutating func endFile() throws
    /// The feed is complete (called once, after the last `endFile`). The default does nothing.
    mutating func finish() throws
}

extension SampleFeedSink {
    /// Does nothing.
    public mutating func finish() throws {}
}

/// A sink that keeps the whole feed in memory: for tests, small profiles and benchmarks that must not touch disk.
///
/// Memory grows with the feed (≈ 65 bytes per `stop_times` record; `vbb` is about 410 MB), so prefer a streaming
/// sink for large profiles. Appends are amortized O(bytes); lookups by name are O(number of files).
public struct SampleFeedMemorySink: SampleFeedSink, Sendable {
    /// One generated file.
    public struct File: Sendable, Hashable {
        /// The file's name, e.g. `"stops.txt"`.
        public var name: String
        /// The file's bytes: UTF-8 CSV with `\n` line endings.
        public var bytes: [UInt8]
    }

    /// The files received so far, in the order they began.
    public private(set) var files: [File] = []
    /// Whether `finish()` has been called.
    public private(set) var isFinished = false
    private var isOpen = false

    /// An empty sink.
    public init() {}

    /// The bytes of the file named `name`, or nil if none was written. O(number of files).
    public subscript(name: String) -> [UInt8]? {
        files.first { $0.name == name }?.bytes
    }

    /// The total number of bytes received. O(number of files).
    public var byteCount: Int {
        files.reduce(0) { $0 + $1.bytes.count }
    }

    /// Starts collecting `name`. Traps if a file is still open or the feed is finished.
    public mutating func beginFile(_ name: String) throws {
        precondition(
            !isOpen && !isFinished, "SampleFeedMemorySink: beginFile(\(name)) while a file is open or after finish")
        files.append(File(name: name, bytes: []))
        isOpen = true
    }

    /// Copies `bytes` to the end of the current file. Traps if no file is open.
    public mutating func write(_ bytes: UnsafeRawBufferPointer) throws {
        precondition(isOpen, "SampleFeedMemorySink: write outside beginFile/endFile")
        files[files.count - 1].bytes.append(contentsOf: bytes)
    }

    /// Closes the current file. Traps if no file is open.
    public mutating func endFile() throws {
        precondition(isOpen, "SampleFeedMemorySink: endFile without beginFile")
        isOpen = false
    }

    /// Marks the feed complete. Traps if a file is still open.
    public mutating func finish() throws {
        precondition(!isOpen, "SampleFeedMemorySink: finish while a file is open")
        isFinished = true
    }
}
