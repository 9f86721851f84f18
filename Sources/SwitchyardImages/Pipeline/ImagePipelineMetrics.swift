#if Images
    import CoreMetrics

    /// The swift-metrics of one ``ImagePipeline`` (the table is in its description), made once, with the pipeline:
    /// recording one is a call on an object made already, never a lookup by label, and allocates nothing (with no
    /// metrics backend bootstrapped, each call does nothing).
    ///
    /// Every metric has the dimension `pipeline` (``ImagePipeline/Configuration/name``) and no other but a request's
    /// `result`: never a source, whose values a pipeline cannot bound.
    ///
    /// Thread-safe: the metric objects are the factory's, safe from any thread; this type holds no state of its own.
    final class ImagePipelineMetrics: Sendable {
        static let requestsLabel = "switchyard_image_requests_total"
        static let renderDurationLabel = "switchyard_image_render_duration_seconds"
        static let rendersInFlightLabel = "switchyard_image_renders_in_flight"
        static let diskCacheBytesLabel = "switchyard_image_disk_cache_bytes"

        /// How a request was served, or why it was not: the values of ``requestsLabel``'s `result` dimension.
        enum Outcome: Int, CaseIterable, Sendable {
            /// From the memory cache, without a job.
            case memory
            /// By a job that read it from the disk cache.
            case disk
            /// By a job that rendered it.
            case rendered
            /// A conditional URL request answered that the image is still the caller's version (nil).
            case unchanged
            /// An ``ImageError`` other than ``ImageError/Reason/cancelled`` and ``ImageError/Reason/shutDown``.
            case failed
            /// ``ImageError/Reason/cancelled`` or ``ImageError/Reason/shutDown``.
            case cancelled

            /// The `result` dimension's value.
            var label: String {
                switch self {
                case .memory: return "memory"
                case .disk: return "disk"
                case .rendered: return "rendered"
                case .unchanged: return "unchanged"
                case .failed: return "failed"
                case .cancelled: return "cancelled"
                }
            }

            /// How a request that threw `reason` is counted.
            init(failure reason: ImageError.Reason) {
                self = reason == .cancelled || reason == .shutDown ? .cancelled : .failed
            }
        }

        /// One counter per ``Outcome``, indexed by its raw value: all made with the pipeline.
        private let requests: [Counter]
        /// Each render's time, from the start of its decode to its encoded bytes.
        private let renderDuration: CoreMetrics.Timer
        /// Renders between their start and their end: a meter (swift-metrics' gauge that goes up and down), moved by
        /// one at each, so that pipelines of one name sharing a factory add up instead of overwriting one another.
        let rendersInFlight: Meter
        /// The disk cache's ``ThumbnailDiskCache/totalBytes``; nil for a pipeline without a disk cache.
        private let diskCacheBytes: Gauge?

        /// The metrics of the pipeline named `pipeline`, made with `factory`; the disk cache's gauge only when
        /// `hasDiskCache`.
        init(pipeline: String, hasDiskCache: Bool, factory: any MetricsFactory) {
            let name = ("pipeline", pipeline)
            requests = Outcome.allCases.map {
                Counter(
                    label: ImagePipelineMetrics.requestsLabel, dimensions: [name, ("result", $0.label)],
                    factory: factory)
            }
            renderDuration = CoreMetrics.Timer(
                label: ImagePipelineMetrics.renderDurationLabel, dimensions: [name], preferredDisplayUnit: .seconds,
                factory: factory)
            rendersInFlight = Meter(
                label: ImagePipelineMetrics.rendersInFlightLabel, dimensions: [name], factory: factory)
            diskCacheBytes =
                hasDiskCache
                ? Gauge(label: ImagePipelineMetrics.diskCacheBytesLabel, dimensions: [name], factory: factory) : nil
        }

        /// Counts one request that ended as `outcome`. - Complexity: O(1).
        func record(_ outcome: Outcome) {
            requests[outcome.rawValue].increment()
        }

        /// Times one render that took `elapsed`. - Complexity: O(1).
        func recordRender(_ elapsed: Duration) {
            let (seconds, attoseconds) = elapsed.components
            renderDuration.recordNanoseconds(seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000)
        }

        /// Records `cache`'s size in the disk cache's gauge: an atomic read. - Complexity: O(1).
        func sample(_ cache: ThumbnailDiskCache) {
            diskCacheBytes?.record(cache.totalBytes)
        }
    }
#endif
