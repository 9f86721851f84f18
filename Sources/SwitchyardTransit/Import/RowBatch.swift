/// One batch of converted rows of one file on its way from the reader job to the writer job: what one
/// transaction commits, with the bookkeeping that goes with it.
///
/// Values are stored flat (one `Cell` per column per row, text bytes in one buffer) so a batch of tens of thousands
/// of rows is three allocations, and the writer binds text without copying it.
@_spi(ImportDestinations)
public struct RowBatch: Sendable {
    /// One value.
    public enum Cell: Sendable {
        case null
        case integer(Int64)
        case real(Double)
        /// Bytes `offset..<offset+length` of `text`.
        case text(offset: UInt32, length: UInt32)
    }

    public let layout: TableLayout
    /// Row-major: `cells[row * layout.columns.count + column]`.
    public internal(set) var cells: [Cell] = []
    public internal(set) var text: [UInt8] = []
    public internal(set) var rowCount = 0
    /// Every record skipped in this batch, and the first ``ImportProblem/listedWarnings`` warnings of each kind
    /// (the writer lists them while the file's count of that kind is under the same bound).
    public internal(set) var problems: [ImportProblem] = []
    /// Records not imported in this batch.
    public internal(set) var skipped = 0
    /// Problems in this batch by kind, skipped records and warnings alike.
    public internal(set) var counts: [ImportProblem.Kind: Int] = [:]
    /// Warnings in this batch.
    public var warnings: Int { counts.reduce(0) { $0 + ($1.key.severity == .warning ? $1.value : 0) } }
    /// Records consumed by this batch: `rowCount + skipped`.
    public var records: Int { rowCount + skipped }
    /// The line of the last record this batch consumed: a resumed import skips records up to it.
    public internal(set) var lastLine = 0
    /// Whether this batch ends its file.
    public internal(set) var isLast = false

    /// A batch for about `capacity` rows; reserves room for at most ``reservedRows`` of them up front (a large
    /// batch grows as it fills, so a small file never pays for a large batch size).
    init(layout: TableLayout, capacity: Int) {
        self.layout = layout
        let rows = min(capacity, RowBatch.reservedRows)
        cells.reserveCapacity(rows * layout.columns.count)
        text.reserveCapacity(rows * 16)
    }

    /// This batch without its values (``cells`` and ``text`` empty, ``rowCount`` and the rest kept): what a writer
    /// keeps of a batch it has sent, until the transaction holding it commits.
    public func droppingValues() -> RowBatch {
        var batch = self
        batch.cells = []
        batch.text = []
        return batch
    }

    /// The most rows a new batch reserves room for.
    static let reservedRows = 16_384
}
