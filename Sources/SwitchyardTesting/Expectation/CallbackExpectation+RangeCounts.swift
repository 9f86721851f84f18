extension CallbackExpectation {
    /// Creates an expectation satisfied by any count in `expectedCount`, such as `2...5`.
    ///
    /// Equivalent to `CallbackExpectation(description, expectedCount: ExpectedCount(expectedCount))`.
    public convenience init(
        _ description: String,
        expectedCount: ClosedRange<Int>,
        inverted: Bool = false,
        fileID: String = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        self.init(
            description, expectedCount: ExpectedCount(expectedCount), inverted: inverted,
            fileID: fileID, filePath: filePath, line: line, column: column
        )
    }

    /// Creates an expectation satisfied by any count of at least `expectedCount.lowerBound`,
    /// such as `2...`.
    ///
    /// Equivalent to `CallbackExpectation(description, expectedCount: .atLeast(expectedCount.lowerBound))`.
    public convenience init(
        _ description: String,
        expectedCount: PartialRangeFrom<Int>,
        inverted: Bool = false,
        fileID: String = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        self.init(
            description, expectedCount: ExpectedCount(expectedCount), inverted: inverted,
            fileID: fileID, filePath: filePath, line: line, column: column
        )
    }
}
