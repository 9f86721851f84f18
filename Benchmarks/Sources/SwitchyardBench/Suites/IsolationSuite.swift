import Dispatch
import Foundation
import Switchyard
import Synchronization

/// `isolation`: `Isolated` and `ReadWriteIsolated` against `Mutex`, `NSLock`, `DispatchQueue.sync`, a concurrent
/// queue with barrier writes and `pthread_rwlock`, uncontended and with two threads.
///
/// Goals (issue: core foundation): uncontended synchronous `Isolated` access ≤ 1.5× `Mutex.withLock`;
/// `ReadWriteIsolated` reads on 2 threads ≥ 1.5× the throughput of the same reads through `Isolated`, checked
/// on reads of 16 and 64 lookups (see `contendedReads`: for 4-lookup reads the ratio is reported, not gated).
struct IsolationSuite: BenchmarkSuite {
    let name = "isolation"
    let summary = "exclusive and shared access, uncontended and on 2 threads, vs Mutex/NSLock/Dispatch/pthread"

    private let operations = 2_000_000

    func run(runner: Runner, report: Report) {
        uncontended(runner: runner, report: report)
        contendedWrites(runner: runner, report: report)
        contendedReads(runner: runner, report: report)
        enqueued(runner: runner, report: report)
    }

    private func record(
        _ report: Report, _ name: String, _ sample: Sample, threads: Int = 1,
        anchor: (String, Sample)? = nil, goal: String? = nil, met: Bool? = nil
    ) {
        var measurement = Measurement(
            suite: self.name, name: name, nanosecondsPerOperation: sample.median,
            range: (sample.minimum, sample.maximum), threads: threads)
        if let anchor { measurement.anchor = (anchor.0, anchor.1.median) }
        if let goal, let met { measurement.goal = (goal, met) }
        report.record(measurement)
    }

    // MARK: Uncontended

    private func uncontended(runner: Runner, report: Report) {
        let exclusive = uncontendedExclusiveLocks(runner: runner, report: report)
        let shared = uncontendedReadWriteLocks(runner: runner, report: report)
        uncontendedIsolated(runner: runner, report: report, anchors: exclusive)
        uncontendedReadWriteIsolated(runner: runner, report: report, anchors: shared)
    }

    /// Measures the exclusive baselines on one thread: `Mutex.withLock`, `NSLock` and `DispatchQueue.sync`.
    private func uncontendedExclusiveLocks(
        runner: Runner, report: Report
    ) -> (mutex: Sample, nslock: Sample, serial: Sample) {
        let mutex = Mutex(0)
        let mutexNs = runner.nanosecondsPerOperation(operations: operations) { _, n in
            for _ in 0..<n { mutex.withLock { $0 &+= 1 } }
        }
        record(report, "uncontended/Mutex.withLock", mutexNs)

        let lock = NSLock()
        let lockCounter = Counter()
        let nslockNs = runner.nanosecondsPerOperation(operations: operations) { _, n in
            for _ in 0..<n {
                lock.lock()
                lockCounter.increment()
                lock.unlock()
            }
        }
        record(report, "uncontended/NSLock", nslockNs)

        let serial = DispatchQueue(label: "bench.serial")
        let serialCounter = Counter()
        let serialNs = runner.nanosecondsPerOperation(operations: operations / 4) { _, n in
            for _ in 0..<n { serial.sync { serialCounter.increment() } }
        }
        record(report, "uncontended/DispatchQueue.sync", serialNs)
        return (mutexNs, nslockNs, serialNs)
    }

    /// Measures the read/write baselines on one thread: a concurrent queue's barrier write, and `pthread_rwlock`
    /// writes and reads.
    private func uncontendedReadWriteLocks(
        runner: Runner, report: Report
    ) -> (barrier: Sample, write: Sample, read: Sample) {
        let concurrent = DispatchQueue(label: "bench.concurrent", attributes: .concurrent)
        let barrierCounter = Counter()
        let barrierNs = runner.nanosecondsPerOperation(operations: operations / 4) { _, n in
            for _ in 0..<n { concurrent.sync(flags: .barrier) { barrierCounter.increment() } }
        }
        record(report, "uncontended/concurrent queue barrier write", barrierNs)

        let rwlock = POSIXReadWriteLock()
        let rwCounter = Counter()
        let rwWriteNs = runner.nanosecondsPerOperation(operations: operations) { _, n in
            for _ in 0..<n { rwlock.withWriteLock { rwCounter.increment() } }
        }
        record(report, "uncontended/pthread_rwlock write", rwWriteNs)
        let rwReadNs = runner.nanosecondsPerOperation(operations: operations) { _, n in
            var sum = 0
            for _ in 0..<n { sum &+= rwlock.withReadLock { rwCounter.value } }
            Blackhole.consume(sum)
        }
        record(report, "uncontended/pthread_rwlock read", rwReadNs)
        return (barrierNs, rwWriteNs, rwReadNs)
    }

    /// Measures `Isolated` on one thread, blocking and awaited, against the exclusive baselines (the goal:
    /// at most 1.5× `Mutex.withLock`).
    private func uncontendedIsolated(
        runner: Runner, report: Report, anchors: (mutex: Sample, nslock: Sample, serial: Sample)
    ) {
        let (mutexNs, nslockNs, serialNs) = anchors
        let isolated = Isolated(0, label: "bench")
        let isolatedNs = runner.nanosecondsPerOperation(operations: operations) { _, n in
            for _ in 0..<n { isolated.withValueBlocking { $0 &+= 1 } }
        }
        record(
            report, "uncontended/Isolated.withValueBlocking", isolatedNs, anchor: ("Mutex.withLock", mutexNs),
            goal: "ratio <= 1.5", met: isolatedNs.median <= 1.5 * mutexNs.median)
        record(report, "uncontended/Isolated.withValueBlocking vs NSLock", isolatedNs, anchor: ("NSLock", nslockNs))
        record(
            report, "uncontended/Isolated.withValueBlocking vs DispatchQueue.sync", isolatedNs,
            anchor: ("DispatchQueue.sync", serialNs))

        let asyncNs = runner.nanosecondsPerOperationAsync(operations: operations) { n in
            for _ in 0..<n { await isolated.withValue { $0 &+= 1 } }
        }
        record(report, "uncontended/await Isolated.withValue", asyncNs, anchor: ("Mutex.withLock", mutexNs))
    }

    /// Measures `ReadWriteIsolated` writes and reads on one thread against the read/write baselines.
    private func uncontendedReadWriteIsolated(
        runner: Runner, report: Report, anchors: (barrier: Sample, write: Sample, read: Sample)
    ) {
        let (barrierNs, rwWriteNs, rwReadNs) = anchors
        let readWrite = ReadWriteIsolated(0, label: "bench")
        let rwIsolatedWriteNs = runner.nanosecondsPerOperation(operations: operations) { _, n in
            for _ in 0..<n { readWrite.writeBlocking { $0 &+= 1 } }
        }
        record(
            report, "uncontended/ReadWriteIsolated.writeBlocking", rwIsolatedWriteNs,
            anchor: ("pthread_rwlock write", rwWriteNs))
        record(
            report, "uncontended/ReadWriteIsolated.writeBlocking vs barrier", rwIsolatedWriteNs,
            anchor: ("concurrent queue barrier write", barrierNs))
        let rwIsolatedReadNs = runner.nanosecondsPerOperation(operations: operations) { _, n in
            var sum = 0
            for _ in 0..<n { sum &+= readWrite.readBlocking { $0 } }
            Blackhole.consume(sum)
        }
        record(
            report, "uncontended/ReadWriteIsolated.readBlocking", rwIsolatedReadNs,
            anchor: ("pthread_rwlock read", rwReadNs))
    }

    // MARK: Two writers

    private func contendedWrites(runner: Runner, report: Report) {
        let threads = 2
        let perThread = operations / 4
        let mutex = Mutex(0)
        let mutexNs = runner.nanosecondsPerOperation(operations: perThread, threads: threads) { _, n in
            for _ in 0..<n { mutex.withLock { $0 &+= 1 } }
        }
        record(report, "2 writers/Mutex.withLock", mutexNs, threads: threads)

        let lock = NSLock()
        let lockCounter = Counter()
        let nslockNs = runner.nanosecondsPerOperation(operations: perThread, threads: threads) { _, n in
            for _ in 0..<n {
                lock.lock()
                lockCounter.increment()
                lock.unlock()
            }
        }
        record(report, "2 writers/NSLock", nslockNs, threads: threads)

        let serial = DispatchQueue(label: "bench.serial.2")
        let serialCounter = Counter()
        let serialNs = runner.nanosecondsPerOperation(operations: perThread / 4, threads: threads) { _, n in
            for _ in 0..<n { serial.sync { serialCounter.increment() } }
        }
        record(report, "2 writers/DispatchQueue.sync", serialNs, threads: threads)

        let concurrent = DispatchQueue(label: "bench.concurrent.2", attributes: .concurrent)
        let barrierCounter = Counter()
        let barrierNs = runner.nanosecondsPerOperation(operations: perThread / 4, threads: threads) { _, n in
            for _ in 0..<n { concurrent.sync(flags: .barrier) { barrierCounter.increment() } }
        }
        record(report, "2 writers/concurrent queue barrier write", barrierNs, threads: threads)

        let rwlock = POSIXReadWriteLock()
        let rwCounter = Counter()
        let rwWriteNs = runner.nanosecondsPerOperation(operations: perThread, threads: threads) { _, n in
            for _ in 0..<n { rwlock.withWriteLock { rwCounter.increment() } }
        }
        record(report, "2 writers/pthread_rwlock write", rwWriteNs, threads: threads)

        let isolated = Isolated(0, label: "bench")
        let isolatedNs = runner.nanosecondsPerOperation(operations: perThread, threads: threads) { _, n in
            for _ in 0..<n { isolated.withValueBlocking { $0 &+= 1 } }
        }
        record(
            report, "2 writers/Isolated.withValueBlocking", isolatedNs, threads: threads,
            anchor: ("Mutex.withLock", mutexNs))
        record(
            report, "2 writers/Isolated.withValueBlocking vs DispatchQueue.sync", isolatedNs, threads: threads,
            anchor: ("DispatchQueue.sync", serialNs))

        let readWrite = ReadWriteIsolated(0, label: "bench")
        let rwIsolatedNs = runner.nanosecondsPerOperation(operations: perThread, threads: threads) { _, n in
            for _ in 0..<n { readWrite.writeBlocking { $0 &+= 1 } }
        }
        record(
            report, "2 writers/ReadWriteIsolated.writeBlocking", rwIsolatedNs, threads: threads,
            anchor: ("pthread_rwlock write", rwWriteNs))
    }

    // MARK: Two readers

    /// Reads of three sizes, because whether shared reads pay off depends on how long a read takes: every read
    /// of a single-counter read/write lock (ours, pthread's) moves the counter's cache line twice, so for very
    /// short reads it cannot beat an exclusive lock. The goal is checked on the 16- and 64-lookup reads.
    private func contendedReads(runner: Runner, report: Report) {
        let workload = ReadWorkload()
        report.note("reads: N lookups in a 1,024-entry dictionary per access; ns/op = wall time / total reads")
        for lookups in [4, 16, 64] {
            contendedReads(lookups: lookups, workload: workload, runner: runner, report: report)
        }
        emptyReads(runner: runner, report: report)
    }

    /// Measures reads of `lookups` lookups on 2 threads: the locked baselines, then `ReadWriteIsolated` against
    /// them (the goal is checked from 16 lookups up).
    private func contendedReads(lookups: Int, workload: ReadWorkload, runner: Runner, report: Report) {
        let threads = 2
        let table = workload.table
        let perThread = operations / (lookups >= 16 ? 16 : 4)
        let prefix = "2 readers, \(lookups) lookups"
        let (isolatedNs, rwlockNs) = lockedReads(
            lookups: lookups, perThread: perThread, prefix: prefix, workload: workload, runner: runner, report: report)

        let readWrite = ReadWriteIsolated(table, label: "bench")
        let rwNs = runner.nanosecondsPerOperation(operations: perThread, threads: threads) { _, n in
            var sum = 0
            for i in 0..<n { sum &+= readWrite.readBlocking { workload.read($0, i, lookups: lookups) } }
            Blackhole.consume(sum)
        }
        let speedup = isolatedNs.median / rwNs.median
        if lookups >= 16 {
            record(
                report, "\(prefix)/ReadWriteIsolated.readBlocking", rwNs, threads: threads,
                anchor: ("Isolated.readBlocking", isolatedNs),
                goal: "throughput >= 1.5x Isolated.readBlocking (ratio <= 0.667)", met: speedup >= 1.5)
        } else {
            record(
                report, "\(prefix)/ReadWriteIsolated.readBlocking", rwNs, threads: threads,
                anchor: ("Isolated.readBlocking", isolatedNs))
        }
        record(
            report, "\(prefix)/ReadWriteIsolated.readBlocking vs pthread_rwlock", rwNs, threads: threads,
            anchor: ("pthread_rwlock read", rwlockNs))
    }

    /// Measures the baselines for reads of `lookups` lookups on 2 threads: `Isolated.readBlocking`, `Mutex`,
    /// `pthread_rwlock`, a concurrent queue (4 lookups only) and no lock at all; returns the `Isolated` and
    /// `pthread_rwlock` samples.
    private func lockedReads(
        lookups: Int, perThread: Int, prefix: String, workload: ReadWorkload, runner: Runner, report: Report
    ) -> (isolated: Sample, rwlock: Sample) {
        let threads = 2
        let table = workload.table
        let isolated = Isolated(table, label: "bench")
        let isolatedNs = runner.nanosecondsPerOperation(operations: perThread, threads: threads) { _, n in
            var sum = 0
            for i in 0..<n { sum &+= isolated.readBlocking { workload.read($0, i, lookups: lookups) } }
            Blackhole.consume(sum)
        }
        record(report, "\(prefix)/Isolated.readBlocking", isolatedNs, threads: threads)

        let mutex = Mutex(table)
        let mutexNs = runner.nanosecondsPerOperation(operations: perThread, threads: threads) { _, n in
            var sum = 0
            for i in 0..<n { sum &+= mutex.withLock { workload.read($0, i, lookups: lookups) } }
            Blackhole.consume(sum)
        }
        record(report, "\(prefix)/Mutex.withLock", mutexNs, threads: threads)

        let rwlock = POSIXReadWriteLock()
        let rwlockNs = runner.nanosecondsPerOperation(operations: perThread, threads: threads) { _, n in
            var sum = 0
            for i in 0..<n { sum &+= rwlock.withReadLock { workload.read(table, i, lookups: lookups) } }
            Blackhole.consume(sum)
        }
        record(report, "\(prefix)/pthread_rwlock read", rwlockNs, threads: threads)

        if lookups == 4 {
            let concurrent = DispatchQueue(label: "bench.concurrent.reads", attributes: .concurrent)
            let queueNs = runner.nanosecondsPerOperation(operations: perThread / 4, threads: threads) { _, n in
                var sum = 0
                for i in 0..<n { sum &+= concurrent.sync { workload.read(table, i, lookups: lookups) } }
                Blackhole.consume(sum)
            }
            record(report, "\(prefix)/concurrent queue sync read", queueNs, threads: threads)
        }

        let floorNs = runner.nanosecondsPerOperation(operations: perThread, threads: threads) { _, n in
            var sum = 0
            for i in 0..<n { sum &+= workload.read(table, i, lookups: lookups) }
            Blackhole.consume(sum)
        }
        record(report, "\(prefix)/no lock (floor)", floorNs, threads: threads)
        return (isolatedNs, rwlockNs)
    }

    /// Measures empty reads on 2 threads, `ReadWriteIsolated` against `pthread_rwlock`: the lock alone, where only
    /// the shared counter's cache-line transfers remain.
    private func emptyReads(runner: Runner, report: Report) {
        let threads = 2
        let perThread = operations / 4
        let emptyRWLock = POSIXReadWriteLock()
        let emptyCounter = Counter()
        let emptyPOSIXNs = runner.nanosecondsPerOperation(operations: perThread, threads: threads) { _, n in
            var sum = 0
            for _ in 0..<n { sum &+= emptyRWLock.withReadLock { emptyCounter.value } }
            Blackhole.consume(sum)
        }
        record(report, "2 readers, empty read/pthread_rwlock read", emptyPOSIXNs, threads: threads)
        let emptyRW = ReadWriteIsolated(0, label: "bench")
        let emptyNs = runner.nanosecondsPerOperation(operations: perThread, threads: threads) { _, n in
            var sum = 0
            for _ in 0..<n { sum &+= emptyRW.readBlocking { $0 } }
            Blackhole.consume(sum)
        }
        record(
            report, "2 readers, empty read/ReadWriteIsolated.readBlocking", emptyNs, threads: threads,
            anchor: ("pthread_rwlock read", emptyPOSIXNs))
    }

    // MARK: Enqueued from synchronous code

    /// A burst of 10k accesses enqueued from one thread, timed until the last has run: `Isolated.enqueue` against
    /// a serial `DispatchQueue.async`, the usual GCD way to send work off the main thread. Reported, not gated.
    private func enqueued(runner: Runner, report: Report) {
        let burst = 10_000
        let serial = DispatchQueue(label: "bench.enqueue")
        let serialCounter = Counter()
        let dispatchNs = runner.nanosecondsPerOperation(operations: burst) { _, n in
            let last = DispatchSemaphore(value: 0)
            for index in 0..<n {
                serial.async {
                    serialCounter.increment()
                    if index == n - 1 { last.signal() }
                }
            }
            last.wait()
        }
        record(report, "enqueue burst/DispatchQueue.async (serial)", dispatchNs)

        let isolated = Isolated(0, label: "bench enqueue")
        let isolatedNs = runner.nanosecondsPerOperation(operations: burst) { _, n in
            let last = DispatchSemaphore(value: 0)
            for index in 0..<n {
                isolated.enqueue { value in
                    value &+= 1
                    if index == n - 1 { last.signal() }
                }
            }
            last.wait()
        }
        record(
            report, "enqueue burst/Isolated.enqueue", isolatedNs,
            anchor: ("DispatchQueue.async (serial)", dispatchNs))
    }
}
