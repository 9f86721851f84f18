import Dispatch
import SwitchyardTesting
import Testing

/// The README's example of tests that wait, as written there, with a service that answers on another thread.
@Suite("README: the waiting-test example")
struct TestingReadmeExampleTests {
    /// Answers later, on a dispatch queue: the shape of code the example tests.
    struct Service {
        func fetch(_ completion: @escaping @Sendable (Result<Int, any Error>) -> Void) {
            DispatchQueue.global().async { completion(.success(42)) }
        }
    }

    @Test("an expectation fulfilled from another thread; a clock that moves only when told")
    func example() async throws {
        let service = Service()

        let delivered = CallbackExpectation("delivered", expectedCount: 1)
        service.fetch { _ in delivered.fulfill() }
        await delivered.fulfillment(within: .seconds(30))  // fails on timeout, and on a surplus fulfill()
        let clock = ManualClock()  // time that moves only when the test says so

        #expect(delivered.isSatisfied)
        let start = clock.now
        clock.advance(by: .seconds(5))
        #expect(start.duration(to: clock.now) == .seconds(5))
    }
}
