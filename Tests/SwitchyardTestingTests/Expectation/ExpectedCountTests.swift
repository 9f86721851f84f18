import SwitchyardTesting
import Testing

@Suite("ExpectedCount")
struct ExpectedCountTests {
    @Test("An integer literal means exactly that count")
    func integerLiteral() {
        let count: ExpectedCount = 3
        #expect(count == .exactly(3))
        #expect(count.lowerBound == 3)
        #expect(count.upperBound == 3)
        #expect(!count.contains(2))
        #expect(count.contains(3))
        #expect(!count.contains(4))
        #expect(count.exceeds(4))
    }

    @Test("atLeast is unbounded and never exceeded")
    func atLeast() {
        let count = ExpectedCount.atLeast(2)
        #expect(count == ExpectedCount(2...))
        #expect(count.upperBound == nil)
        #expect(!count.contains(1))
        #expect(count.contains(2))
        #expect(count.contains(Int.max))
        #expect(!count.exceeds(Int.max))
    }

    @Test("Ranges accept every count between their bounds")
    func ranges() {
        let count = ExpectedCount.range(2...5)
        #expect(count == ExpectedCount(2...5))
        #expect((2...5).allSatisfy(count.contains))
        #expect(!count.contains(1))
        #expect(!count.contains(6))
        #expect(count.exceeds(6))
        #expect(ExpectedCount.atMost(2) == ExpectedCount(0...2))
    }

    @Test(
        "Descriptions read naturally",
        arguments: [
            (ExpectedCount.exactly(1), "exactly 1 fulfillment"),
            (.exactly(3), "exactly 3 fulfillments"),
            (.atLeast(2), "at least 2 fulfillments"),
            (.atMost(4), "at most 4 fulfillments"),
            (.range(2...5), "between 2 and 5 fulfillments"),
        ]
    )
    func descriptions(count: ExpectedCount, expected: String) {
        #expect(count.description == expected)
    }
}
