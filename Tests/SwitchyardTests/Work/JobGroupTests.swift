import Switchyard
import Testing

@Suite("JobGroup")
struct JobGroupTests {
    @Test("a group says whether it was cancelled")
    func groupCancellation() {
        let group = JobGroup(name: "cancellable")
        #expect(!group.isCancelled)
        group.cancel()
        #expect(group.isCancelled)
    }
}
