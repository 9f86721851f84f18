internal import Testing

#if canImport(XCTest)
    internal import XCTest
#endif

/// The source location a failure is attributed to, in the form both test frameworks accept.
///
/// Swift Testing wants a `SourceLocation` (strings and `Int`s) while XCTest's `XCTFail` wants a
/// `StaticString` file path and a `UInt` line, so public entry points capture `#fileID`,
/// `#filePath`, `#line` and `#column` separately and bundle them here.
struct FailureLocation: Sendable {
    /// The `#fileID` of the call site, such as `"MyTests/DownloadTests.swift"`.
    let fileID: String
    /// The `#filePath` of the call site.
    let filePath: StaticString
    /// The `#line` of the call site.
    let line: UInt
    /// The `#column` of the call site.
    let column: UInt

    /// The location as Swift Testing's `SourceLocation`.
    var sourceLocation: SourceLocation {
        SourceLocation(
            fileID: fileID,
            filePath: "\(filePath)",
            line: Int(line),
            column: Int(column)
        )
    }
}

/// Reports test failures to whichever test framework is running the current test.
///
/// This is the single place where `SwitchyardTesting` turns a problem into a test failure:
///
/// 1. If Swift Testing is running a test on the current task (`Test.current != nil`), the failure
///    is recorded with `Issue.record(_:sourceLocation:)`, so it is attributed to that test and can
///    be matched by `withKnownIssue`.
/// 2. Otherwise, if XCTest can be imported, it is reported with `XCTFail(_:file:line:)`, which
///    attributes it to the XCTest test case currently running. Note that swift-corelibs-xctest
///    (Linux) silently drops `XCTFail` calls made while no XCTest test case is running, e.g. from
///    a detached task inside a Swift Testing test.
/// 3. Otherwise (no XCTest on this platform), it is recorded with `Issue.record` anyway; Swift
///    Testing then files it under an unknown test rather than losing it.
///
/// Callers should therefore report from the test's own task (a `@Test` function or a child task
/// of it) whenever possible.
enum TestFailureReporter {
    /// Whether Swift Testing is running a test on the current task.
    static var isInSwiftTestingTest: Bool {
        Test.current != nil
    }

    /// Reports `message` as a test failure attributed to `location`.
    ///
    /// Synchronous and callable from any thread or task; see the type's documentation for which
    /// framework receives the failure.
    static func record(_ message: String, at location: FailureLocation) {
        if isInSwiftTestingTest {
            Issue.record(Comment(rawValue: message), sourceLocation: location.sourceLocation)
            return
        }
        #if canImport(XCTest)
            XCTFail(message, file: location.filePath, line: location.line)
        #else
            Issue.record(Comment(rawValue: message), sourceLocation: location.sourceLocation)
        #endif
    }
}
