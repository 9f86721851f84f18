import Switchyard

/// A zip entry found corrupt while its file was being imported (see ``ImportRecord/restart(_:file:)``).
struct CorruptEntry: Error {
    let file: GTFSFile
    let error: ImportError
}

/// How the import's steps report failures: the errors its jobs throw, unwrapped and named for the caller.
enum ImportFailure {
    /// `error` as the caller sees it: a corrupt entry becomes its ``ImportError``, saying what became of its rows.
    static func reported(_ error: any Error) -> any Error {
        guard let corrupt = error as? CorruptEntry else { return error }
        return ImportError(
            corrupt.error.kind,
            "\(corrupt.error.reason) (the rows read from it were removed; a resume reads it again from the start)",
            file: corrupt.error.file, line: corrupt.error.line)
    }

    /// The error behind `error`: job errors taken off, and the destination's driver errors described
    /// (``ImportDestination/describe(_:)``). A ``CorruptEntry`` stays one, so the end of the import can restart
    /// its file.
    static func unwrap(_ error: any Error, destination: any ImportDestination) -> any Error {
        if let jobError = error as? JobError<any Error> {
            switch jobError {
            case .failed(let underlying): return unwrap(underlying, destination: destination)
            case .cancelled: return CancellationError()
            default: return jobError
            }
        }
        return destination.describe(error)
    }
}
