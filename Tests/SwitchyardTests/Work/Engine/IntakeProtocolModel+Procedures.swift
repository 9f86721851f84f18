// The procedures of the intake protocol as the model steps them: one function per procedure of the engine
// (see `IntakeProtocolModel`).

extension IntakeProtocolModel {
    // MARK: - The procedures

    /// What a point does with its frame: go on at `frame.pc`, call `callee` first, or return.
    struct Continuation {
        var frame: Frame
        var callee: Frame?
        var returns = false

        /// Calls `procedure`, then goes on at `pc`; nil: a tail call.
        mutating func call(_ procedure: Procedure, _ region: Region, then pc: Int?) {
            callee = Frame(procedure: procedure, region: region)
            if let pc { frame.pc = pc } else { returns = true }
        }
    }

    /// Runs the top frame of `thread` at its point.
    mutating func execute(_ thread: Int) {
        var next = Continuation(frame: agents[thread].stack.removeLast())
        let result = agents[thread].result
        agents[thread].result = nil
        switch next.frame.procedure {
        case .submitter: submitter(thread, &next)
        case .submitPlain: submitPlain(thread, &next, result)
        case .tryLock: tryLock(thread, &next)
        case .forward: forward(thread, &next, result)
        case .lockCurrent: lockCurrent(thread, &next)
        case .admitIntake: admitIntake(thread, &next)
        case .finishHold:
            unlock(next.frame.region, by: thread)  // release, then admitPushedWhileHeld
            next.call(.admitPushedWhileHeld, next.frame.region, then: nil)
        case .admitPushedWhileHeld: admitPushedWhileHeld(thread, &next, result)
        case .engineUnlock: engineUnlock(thread, &next)
        case .perform: perform(thread, &next, result)
        case .park:  // region.lock.lock() on its own region, then Engine.unlock(region)
            next.frame.locked = next.frame.region
            lock(next.frame.region, by: thread)
            next.call(.engineUnlock, next.frame.region, then: nil)
        case .merger: merger(thread, &next, result)
        }
        if !next.returns { agents[thread].stack.append(next.frame) }
        if let callee = next.callee { agents[thread].stack.append(callee) }
    }

    /// A submitter: `submitPlain` of each of its jobs, in order.
    mutating func submitter(_ thread: Int, _ next: inout Continuation) {
        guard case .submitter(_, let index, let count) = agents[thread].role else { preconditionFailure() }
        if next.frame.pc == 1 {
            note("j\(Self.job(index, next.frame.count)) returned")
            next.frame.count += 1
        }
        guard next.frame.count < count else {
            next.returns = true
            return
        }
        next.call(.submitPlain, next.frame.region, then: 1)
        next.callee!.count = Self.job(index, next.frame.count)
    }

    /// `Engine.submitPlain`: region = queue.region.current; tryLock, or push, fence, isMerged → forward, tryLock.
    mutating func submitPlain(_ thread: Int, _ next: inout Continuation, _ result: Region?) {
        let job = next.frame.count
        let region = next.frame.locked
        switch next.frame.pc {
        case 0:
            next.frame.locked = current(next.frame.region)
            note("j\(job): current = \(next.frame.locked)")
            next.frame.pc = 1
        case 1: next.call(.tryLock, region, then: 2)
        case 2:
            if result != nil { next.call(.admitIntake, region, then: 3) } else { next.frame.pc = 4 }
        case 3:
            admit(job, in: region, by: thread)
            next.call(.finishHold, region, then: nil)
        case 4:
            intakes[region].append(job)
            note("push j\(job) to \(region).intake")
            next.frame.pc = 5
        case 5:  // the fence, then region.isMerged
            if mutation == .skipSuccessorCheck {
                next.frame.pc = 6
            } else if isMerged(region) {
                note("\(region) merged: forward")
                next.call(.forward, region, then: nil)
            } else {
                note("\(region) not merged")
                next.frame.pc = 6
            }
        case 6: next.call(.tryLock, region, then: 7)
        case 7:
            if result == nil { next.returns = true } else { next.call(.admitIntake, region, then: 8) }
        default: next.call(.finishHold, region, then: nil)
        }
    }

    /// `tryLock(region)`: lock.tryLock(), else nil; if merged: unlock, forward(region), nil.
    mutating func tryLock(_ thread: Int, _ next: inout Continuation) {
        let region = next.frame.region
        switch next.frame.pc {
        case 0:
            if owners[region] == nil {
                lock(region, by: thread)
                next.frame.pc = 1
            } else {
                note("tryLock \(region) fails")
                next.returns = true
            }
        case 1:
            let merged = isMerged(region)
            note("\(region) \(merged ? "" : "not ")merged")
            if merged {
                next.frame.pc = 2
            } else {
                agents[thread].result = region
                next.returns = true
            }
        case 2:
            unlock(region, by: thread)
            next.call(.forward, region, then: 3)
        default: next.returns = true  // nil
        }
    }

    /// `forward(region)`: lockCurrent; takeAll of region's intake; admitIntake; finishHold.
    mutating func forward(_ thread: Int, _ next: inout Continuation, _ result: Region?) {
        switch next.frame.pc {
        case 0: next.call(.lockCurrent, next.frame.region, then: 1)
        case 1:
            next.frame.locked = result!
            next.frame.pc = 2
        case 2:
            for job in take(next.frame.region) { admit(job, in: next.frame.locked, by: thread) }
            next.call(.admitIntake, next.frame.locked, then: 3)
        default: next.call(.finishHold, next.frame.locked, then: nil)
        }
    }

    /// `lockCurrent()`: r = current; loop { lock r; if !r.isMerged return r; unlock r; r = r.current }.
    mutating func lockCurrent(_ thread: Int, _ next: inout Continuation) {
        let region = next.frame.locked
        switch next.frame.pc {
        case 0, 4:
            next.frame.locked = current(next.frame.pc == 0 ? next.frame.region : region)
            note("current = \(next.frame.locked)")
            next.frame.pc = 1
        case 1:
            lock(region, by: thread)
            next.frame.pc = 2
        case 2:
            let merged = isMerged(region)
            note("\(region) \(merged ? "" : "not ")merged")
            if merged {
                next.frame.pc = 3
            } else {
                agents[thread].result = region
                next.returns = true
            }
        default:
            unlock(region, by: thread)
            next.frame.pc = 4
        }
    }

    /// `admitIntake`: if !isEmptyUnderLock { takeAll { admitPlain } }.
    mutating func admitIntake(_ thread: Int, _ next: inout Continuation) {
        let region = next.frame.region
        if next.frame.pc == 0 {
            let empty = intakes[region].isEmpty
            note("\(region).intake \(empty ? "empty" : "not empty")")
            if empty { next.returns = true } else { next.frame.pc = 1 }
        } else {
            for job in take(region) { admit(job, in: region, by: thread) }
            next.returns = true
        }
    }

    /// `admitPushedWhileHeld`: while mayHaveJobs { passes < maximumPasses, else spawn a task and return;
    /// tryLock, else return; passes += 1; admitIntake; release }.
    mutating func admitPushedWhileHeld(_ thread: Int, _ next: inout Continuation, _ result: Region?) {
        let region = next.frame.region
        switch next.frame.pc {
        case 0:
            let empty = intakes[region].isEmpty
            let passes = next.frame.count
            note("mayHaveJobs(\(region)) \(!empty), passes \(passes)")
            if empty {
                next.returns = true
            } else if passes >= maximumPasses {
                spawn(region)
                next.returns = true
            } else {
                next.call(.tryLock, region, then: 1)
            }
        case 1:
            if result == nil {
                next.returns = true
            } else {
                next.frame.count += 1
                next.call(.admitIntake, region, then: 2)
            }
        default:
            unlock(region, by: thread)
            next.frame.pc = 0
        }
    }

    /// `Engine.unlock(region)`: unlock; if mayHaveJobs, spawn a task.
    mutating func engineUnlock(_ thread: Int, _ next: inout Continuation) {
        let region = next.frame.region
        if next.frame.pc == 0 {
            unlock(region, by: thread)
            next.frame.pc = 1
        } else {
            let empty = intakes[region].isEmpty
            note("mayHaveJobs(\(region)) \(!empty)")
            if !empty { spawn(region) }
            next.returns = true
        }
    }

    /// `perform(in:)`: lockCurrent, then perform(locked:): admitIntake, (body), finishHold.
    mutating func perform(_ thread: Int, _ next: inout Continuation, _ result: Region?) {
        switch next.frame.pc {
        case 0: next.call(.lockCurrent, next.frame.region, then: 1)
        case 1:
            next.frame.locked = result!
            startHold(thread, result!)
            next.call(.admitIntake, result!, then: 2)
        default:
            checkVisibility(thread)
            next.call(.finishHold, next.frame.locked, then: nil)
        }
    }

    /// `lockUnited(A, B)`, then `perform(locked: B, leftovers:)`: leftovers first, then admitIntake, finishHold.
    mutating func merger(_ thread: Int, _ next: inout Continuation, _ result: Region?) {
        switch next.frame.pc {
        case 0:  // one = A.current, other = B.current; if one === other: lockCurrent, and it must still be one
            let one = current(.a)
            note("current(A) = \(one), current(B) = B")
            if one == current(.b) {
                next.frame.locked = one
                next.call(.lockCurrent, one, then: 8)
            } else {
                next.frame.pc = 1
            }
        case 1, 2:  // survivor.lock.lock(), absorbed.lock.lock()
            lock(next.frame.pc == 1 ? .b : .a, by: thread)
            next.frame.pc += 1
        case 3:  // guard !survivor.isMerged, !absorbed.isMerged, else Engine.unlock both and start over
            let merged = isMerged(.a)
            note(merged ? "A already merged" : "neither merged")
            if merged { next.call(.engineUnlock, .a, then: 4) } else { next.frame.pc = 5 }
        case 4: next.call(.engineUnlock, .b, then: 0)
        case 5:  // merge(into:): successor.store
            merged = true
            note("store A.successor = B")
            next.frame.pc = 6
        case 6:  // merge(into:): fence, intake.takeAll into the leftovers
            if mutation == .keepAbsorbedIntake {
                note("A.intake not taken")
            } else {
                agents[thread].leftovers = take(.a)
            }
            next.frame.pc = 7
        case 7:  // absorbed.lock.unlock(); perform(locked: survivor, leftovers:)
            unlock(.a, by: thread)
            next.frame.locked = .b
            startHold(thread, .b)
            for job in agents[thread].leftovers { admit(job, in: .b, by: thread) }
            agents[thread].leftovers = []
            next.call(.admitIntake, .b, then: 9)
        case 8:  // lockCurrent returned: perform(locked:) if it is still one, else Engine.unlock and start over
            if result == next.frame.locked {
                startHold(thread, result!)
                next.call(.admitIntake, result!, then: 9)
            } else {
                next.call(.engineUnlock, result!, then: 0)
            }
        default:
            checkVisibility(thread)
            next.call(.finishHold, next.frame.locked, then: nil)
        }
    }
}
