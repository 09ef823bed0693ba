import Foundation
import SingletonRegistry
import TestSupport

/// A well-behaved control client: asks for the status again and again on a thread of its own and records how long
/// each round trip took, until ``stop()``.
///
/// Each answer must come within ``answerTimeout`` seconds; a late or wrong answer is recorded as a failure and ends
/// the probe (its connection would be out of step). Between round trips it paces itself (10 ms), so that it measures
/// the daemon rather than loading it.
final class StatusProbe: Sendable {
    /// How long one status answer may take.
    static let answerTimeout = 5.0

    private struct State {
        var latencies: [Duration] = []
        var failures: [String] = []
        var stopping = false
    }

    private let client: StreamClient
    private let state = SanitizerVisibleMutex(State())
    private let finished = DispatchSemaphore(value: 0)
    private let answered = DispatchSemaphore(value: 0)

    /// Starts probing over `client`, which must be connected and idle.
    init(client: StreamClient) {
        self.client = client
        Thread { [self] in self.run() }.start()
    }

    /// The round trips so far.
    var count: Int { state.withLock { $0.latencies.count } }

    /// Waits until the probe has completed `count` round trips in all; `false` if it failed or did not within
    /// `timeout` seconds.
    func waitForRoundTrips(_ count: Int, timeout: Double = waitHangBound) -> Bool {
        let deadline = DispatchTime.now() + timeout
        while true {
            let (done, failed) = state.withLock { ($0.latencies.count >= count, !$0.failures.isEmpty) }
            if done { return true }
            if failed || answered.wait(timeout: deadline) == .timedOut { return false }
        }
    }

    /// Stops the probe and returns every round trip's latency and every failure.
    func stop() async -> (latencies: [Duration], failures: [String]) {
        state.withLock { $0.stopping = true }
        let finished = finished
        let stopped = await blocking { finished.wait(timeout: .now() + Self.answerTimeout + 5) == .success }
        return state.withLock { state in
            (state.latencies, state.failures + (stopped ? [] : ["the probe did not stop"]))
        }
    }

    private func run() {
        defer { finished.signal() }
        let clock = ContinuousClock()
        for _ in 0..<100_000 {
            if state.withLock({ $0.stopping }) { return }
            let start = clock.now
            guard client.send("{\"cmd\":\"status\"}\n") else {
                state.withLock { $0.failures.append("cannot send a status request") }
                answered.signal()
                return
            }
            let line = client.readLineNow(timeout: Self.answerTimeout)
            let latency = clock.now - start
            guard let line, line.hasPrefix("{\"class\":\"STATUS\"") else {
                state.withLock {
                    $0.failures.append(line.map { "not a status: \($0.prefix(200))" } ?? "no status within \(latency)")
                }
                answered.signal()
                return
            }
            state.withLock { $0.latencies.append(latency) }
            answered.signal()
            usleep(10_000)
        }
    }
}
