import Dispatch
import Foundation
import Synchronization

/// A serial executor that runs every job on one thread of its own.
///
/// Jobs wait in a Mutex-protected ring; a semaphore wakes the thread. With `spinIterations > 0` the thread polls
/// the ring that many times before parking, trading a busy core for a shorter wake-up.
final class DedicatedThreadExecutor: SerialExecutor {
    private let jobs = Mutex(JobRing())
    private let wake = DispatchSemaphore(value: 0)
    private let spinIterations: Int

    /// Starts the thread, named `name`.
    init(name: String, spinIterations: Int = 0) {
        self.spinIterations = spinIterations
        let thread = Thread { [self] in runLoop() }
        thread.name = name
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.push(job) }
        wake.signal()
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    private func runLoop() -> Never {
        while true {
            if let job = jobs.withLock({ $0.pop() }) {
                job.runSynchronously(on: asUnownedSerialExecutor())
                continue
            }
            var spins = 0
            while spins < spinIterations && jobs.withLock({ $0.isEmpty }) { spins += 1 }
            if spins == spinIterations { wake.wait() }
        }
    }
}

/// A growable FIFO of jobs that does not allocate once it has grown to the queue's high-water mark.
struct JobRing: ~Copyable {
    private var slots: [UnownedJob?] = Array(repeating: nil, count: 16)
    private var head = 0
    private var count = 0

    var isEmpty: Bool { count == 0 }

    mutating func push(_ job: UnownedJob) {
        if count == slots.count {
            let ordered = (0..<count).map { slots[(head + $0) % slots.count] }
            slots = ordered + Array(repeating: nil, count: count)
            head = 0
        }
        slots[(head + count) % slots.count] = job
        count += 1
    }

    mutating func pop() -> UnownedJob? {
        guard count > 0 else { return nil }
        let job = slots[head]
        slots[head] = nil
        head = (head + 1) % slots.count
        count -= 1
        return job
    }
}
