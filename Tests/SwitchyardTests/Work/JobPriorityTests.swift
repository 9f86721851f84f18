import Switchyard
import Testing

@Suite("JobPriority")
struct JobPriorityTests {
    @Test("TaskPriority's names mean what they mean for tasks")
    func taskPriorityVocabulary() {
        #expect(JobPriority.low == .utility && JobPriority.high == .userInitiated)
        #expect(JobPriority(TaskPriority.low) == .low && JobPriority(TaskPriority.high) == .high)
        for level in JobPriority.allLevels { #expect(JobPriority(level.taskPriority) == level) }
    }
}
