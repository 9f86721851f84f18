#if Push
    import Foundation
    import SwitchyardPush
    import SwitchyardPushTesting
    import Testing

    /// Fault scripts as JSON: every kind of fault, defaults, and the mistakes refused.
    @Suite("MockAPNsScript: fault scripts as JSON")
    struct MockAPNsScriptTests {
        @Test("every kind of fault, with reasons and counts defaulted")
        func kinds() throws {
            let script = try MockAPNsScript.decode(
                Data(
                    """
                    {"unregistered": ["ab12"], "faults": [{"goAway": 5}, {"drop": 7},
                     {"status": 503, "times": 3}, {"device": "cd34", "status": 429, "reason": "TooManyRequests", "times": 2},
                     {"delayMilliseconds": 250}]}
                    """.utf8))
            #expect(script.unregistered == ["ab12"])
            #expect(
                script.faults == [
                    .goAway(afterStreams: 5), .dropConnection(afterStreams: 7),
                    .answer(status: 503, reason: .serviceUnavailable, times: 3),
                    .answerDevice("cd34", status: 429, reason: .tooManyRequests, times: 2),
                    .delay(.milliseconds(250), times: 1),
                ])
        }

        @Test(
            "mistakes are refused with the fault's position",
            arguments: [
                (#"{"faults": [{"goAway": 5, "drop": 3}]}"#, "fault 1: needs exactly one"),
                (#"{"faults": [{"goAway": 5}, {"stauts": 503}]}"#, "fault 2: unknown key"),
                (#"{"faults": [{"status": 200}]}"#, "fault 1: status 200 is not an error status"),
                (#"{"faults": [{"status": 503, "times": 0}]}"#, "fault 1: times must be at least 1"),
                (#"{"fault": []}"#, "unknown key"),
                (#"[1, 2]"#, "not a fault script"),
            ])
        func mistakes(json: String, message: String) {
            #expect {
                _ = try MockAPNsScript.decode(Data(json.utf8))
            } throws: { error in
                "\(error)".contains(message)
            }
        }

        @Test("the example script of the README is valid")
        func example() throws {
            let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("Examples/apns-faults.json")
            let script = try MockAPNsScript.decode(try Data(contentsOf: path))
            #expect(script.faults.count == 5)
        }
    }
#endif
