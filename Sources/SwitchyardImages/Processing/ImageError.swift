#if Images
    /// Why a source gave no thumbnail, naming the source (a path, a URL, or the name given to in-memory bytes).
    public struct ImageError: Error, Sendable, Equatable, CustomStringConvertible {
        public enum Reason: Sendable, Equatable, CustomStringConvertible {
            /// The source could not be read (a missing file, no permission, a download that failed).
            case unreadable(String)
            /// No installed decoder recognizes the bytes (formats read only by a loader libvips marks untrusted are
            /// ``untrustedFormat(loader:)``).
            case notAnImage
            /// The format is one libvips reads only through a loader it marks untrusted (`magickload` for BMP and
            /// ICO, `svgload`, `pdfload`...), which parses whatever it is given and stays blocked.
            case untrustedFormat(loader: String)
            /// The decoder recognized the format and then failed: truncated or corrupt data.
            case undecodable(String)
            /// The image declares more pixels than the limit: refused before any pixel is decoded.
            case tooManyPixels(width: Int, height: Int, limit: Int)
            /// The source is larger than the byte limit: refused before it is read.
            case tooManyBytes(size: Int, limit: Int)
            /// The installed libvips cannot write this format.
            case formatUnavailable(ImageFormat)
            /// The encoder failed.
            case encodingFailed(String)
            /// The thumbnail could not be written where it was asked for (a full disk, no permission).
            case unwritable(String)
            /// The caller's task was cancelled, or the pipeline's queue cancelled the work (other than by
            /// ``ImagePipeline/shutdown()``).
            case cancelled
            /// The pipeline was shut down (``ImagePipeline/shutdown()``): the request came after, or was in flight
            /// then. Never retried: the pipeline makes no more thumbnails.
            case shutDown
            /// libvips cannot be used in this process: not installed, too old, or it failed to start (the text says
            /// which, and how to install it). Every later image fails the same way.
            case libvipsUnavailable(String)

            public var description: String {
                switch self {
                case .unreadable(let why): return "cannot be read: \(why)"
                case .notAnImage: return "is not an image in a format the installed libvips loads"
                case .untrustedFormat(let loader):
                    return "is in a format libvips reads only with \(loader), which is blocked as untrusted"
                case .undecodable(let why): return "is truncated or corrupt: \(why)"
                case .tooManyPixels(let width, let height, let limit):
                    return "is \(width) × \(height) pixels, over the limit of \(limit)"
                case .tooManyBytes(let size, let limit): return "is \(size) bytes, over the limit of \(limit)"
                case .formatUnavailable(let format):
                    return "cannot be written as \(format): this libvips has no encoder"
                case .encodingFailed(let why): return "could not be encoded: \(why)"
                case .unwritable(let why): return "cannot be written: \(why)"
                case .cancelled: return "was cancelled"
                case .shutDown: return "cannot be made: the image pipeline was shut down"
                case .libvipsUnavailable(let why): return "cannot be made: \(why)"
                }
            }
        }

        /// The source, as ``ImageSource/description`` names it.
        public var source: String
        public var reason: Reason

        public init(source: String, reason: Reason) {
            self.source = source
            self.reason = reason
        }

        public var description: String { "\(source) \(reason)" }
    }
#endif
