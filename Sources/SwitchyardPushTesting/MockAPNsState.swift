#if Push
    import Foundation
    import SwitchyardPush

    /// The mock's state, behind its lock: rules, the fault script, what was received, and each connection's token
    /// and stream counts. ``decide(_:streamID:connection:now:maximumStreams:)`` is the whole decision for one request.
    struct MockAPNsState: Sendable {
        var rules: MockAPNsRules
        var faults: [MockAPNsFault] = []
        var deliveries: [MockAPNs.Delivery] = []
        var acceptedIDs: Set<String> = []
        var duplicates = 0
        var answers: [String: Int] = [:]
        var requests = 0
        var connectionCount = 0
        var connections: [Int: ConnectionState] = [:]
        var maximumOpen = 0
        /// The calls of `MockAPNs.waitForRequests(count:)` in progress, by identifier.
        var waiters: [Int: RequestWaiter] = [:]
        var nextWaiterID = 0

        enum RequestWaiter {
            /// Called, not suspended yet.
            case starting
            /// Cancelled before it suspended: it returns instead.
            case cancelled
            case waiting(count: Int, CheckedContinuation<Void, Never>)
        }

        init(rules: MockAPNsRules) {
            self.rules = rules
        }

        struct ConnectionState: Sendable {
            var token = MockAPNsRules.Connection()
            /// Requests received on it.
            var streams = 0
            var open = 0
            /// Whether the stream limit was raised after the first success.
            var raised = false
            /// After a `GOAWAY`: the last stream processed; later ones are refused.
            var lastStreamID: Int?
            /// The highest stream ID answered so far (a `GOAWAY` names it or a later one).
            var highestStreamID = 0
            var dropped = false
        }

        /// What the handler does with a request.
        enum Action: Sendable, Equatable {
            /// Answer it (after `delay`), with `apns-id` `id`; raise the connection's stream limit to `raiseTo`, and
            /// send `GOAWAY` naming `goAway` as the last stream processed, if set.
            case respond(MockAPNsRules.Answer, id: String, delay: Duration?, raiseTo: Int?, goAway: Int?)
            /// Close the connection without answering.
            case drop
            /// Reset the stream unanswered (it came after a `GOAWAY`).
            case refuse
        }

        mutating func opened(_ connection: Int) {
            connections[connection, default: ConnectionState()].open += 1
            maximumOpen = max(maximumOpen, connections[connection]?.open ?? 0)
        }

        mutating func closed(_ connection: Int) {
            connections[connection, default: ConnectionState()].open -= 1
        }

        mutating func decide(
            _ request: MockAPNsRules.Request, streamID: Int, connection id: Int, now: Int, maximumStreams: Int
        ) -> Action {
            requests += 1
            var connection = connections[id] ?? ConnectionState()
            defer { connections[id] = connection }
            if let last = connection.lastStreamID, streamID > last { return .refuse }
            if connection.dropped { return .drop }
            connection.streams += 1
            let apnsID = request.header("apns-id") ?? UUID().uuidString
            let token = String(request.path.split(separator: "/").last ?? "")
            var delay: Duration?
            var goAway: Int?
            connection.highestStreamID = max(connection.highestStreamID, streamID)
            var forced: MockAPNsRules.Answer?
            switch faults.first {
            case .goAway(let after) where connection.streams == after:
                // Streams that ended out of order may have higher IDs and be answered already: name the highest.
                goAway = connection.highestStreamID
                connection.lastStreamID = connection.highestStreamID
                faults.removeFirst()
            case .dropConnection(let after) where connection.streams == after + 1:
                connection.dropped = true
                faults.removeFirst()
                return .drop
            case .answer(let status, let reason, let times):
                forced = MockAPNsRules.Answer(status: status, reason: reason, timestamp: nil)
                consume(times) { .answer(status: status, reason: reason, times: $0) }
            case .answerDevice(let device, let status, let reason, let times) where device == token:
                forced = MockAPNsRules.Answer(status: status, reason: reason, timestamp: nil)
                consume(times) { .answerDevice(device, status: status, reason: reason, times: $0) }
            case .delay(let duration, let times):
                delay = duration
                consume(times) { .delay(duration, times: $0) }
            case .answerBody(let status, let body, let times):
                forced = MockAPNsRules.Answer(status: status, reason: nil, timestamp: nil, body: body)
                consume(times) { .answerBody(status: status, body: body, times: $0) }
            default:
                break
            }
            let answer = forced ?? rules.answer(request, connection: &connection.token, now: now)
            let named = answer.reason?.rawValue ?? (answer.status == 200 ? "accepted" : "HTTP\(answer.status)")
            answers[named, default: 0] += 1
            var raiseTo: Int?
            if answer == .accepted {
                if !acceptedIDs.insert(apnsID.lowercased()).inserted { duplicates += 1 }
                deliveries.append(
                    MockAPNs.Delivery(
                        id: apnsID, deviceToken: token, topic: request.header("apns-topic") ?? "",
                        pushType: request.header("apns-push-type"), payload: request.body, connection: id))
                if !connection.raised {
                    connection.raised = true
                    raiseTo = maximumStreams
                }
            }
            return .respond(answer, id: apnsID, delay: delay, raiseTo: raiseTo, goAway: goAway)
        }

        /// Counts one use of the first fault, which had `times` left: replaced by `next(times - 1)`, or removed.
        private mutating func consume(_ times: Int, _ next: (Int) -> MockAPNsFault) {
            if times > 1 { faults[0] = next(times - 1) } else { faults.removeFirst() }
        }
    }
#endif
