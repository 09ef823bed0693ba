import Foundation
import GNSSLocation
import GNSSLocationTesting
import GNSSProtocol
import SingletonRegistry
import SingletonRegistryTesting
import SingletondCore
import TestSupport
import Testing

/// 1, 10 and 200 watchers of the gpsd listener in-process, a scripted manager delivering 100 fixes 10 ms apart:
/// every watcher gets every fix in order, or is told how many it lost. Each fix's fan-out latency (from the manager
/// to the last watcher) and the process's resident memory are printed for Documentation/Singletond.md.
@Suite(.serialized, .hangBound) struct GPSDListenerFanOutTests {
    static let fixCount = 100

    @Test(
        .singletons {
            $0.locationManager = ScriptedLocationManager(
                script: GPSDListenerServiceTests.fixes(GPSDListenerFanOutTests.fixCount), interval: .milliseconds(10))
        },
        arguments: [1, 10, 200])
    func everyWatcherGetsEveryFixInOrder(watchers: Int) async throws {
        #expect(SingletondFaultTests.raiseOpenFileLimit(to: 2 * watchers + 256))
        try await GPSDListenerServiceTests.withService(limits: ClientLimits(maximumClients: 256)) {
            service, port in
            let swarm = try #require(await blocking { WatcherSwarm(port: port, count: watchers) })
            defer { swarm.close() }
            #expect(service.listener?.statistics.watching == watchers)
            let before = ResidentMemory(of: getpid())
            let fixes = GPSDListenerServiceTests.fixes(Self.fixCount)
            let last = fixes.last?.time.map { String(describing: $0) } ?? ""
            // When each fix left the manager, as a subscriber of its own sees it.
            let updates = await appSingletons.locationManager.updates(bufferSize: 256)
            let delivery = Task {
                var delivered: [String: ContinuousClock.Instant] = [:]
                for await update in updates {
                    guard let time = update.fix.time.map({ String(describing: $0) }) else { continue }
                    delivered[time] = ContinuousClock.now
                    if time == last { break }
                }
                return delivered
            }
            try await appSingletons.locationManager.start(.nmeaFile(path: "/dev/scripted"))
            let received = await blocking { swarm.collect(until: last) }
            let delivered = await delivery.value
            let after = ResidentMemory(of: getpid())

            let expected = fixes.compactMap { $0.time.map { String(describing: $0) } }
            for (index, watcher) in received.enumerated() {
                #expect(
                    watcher.times.last == last,
                    "watcher \(index) got \(watcher.times.count) fixes; its stream \(watcher.ended ?? "stayed open")")
                #expect(zip(watcher.times, watcher.times.dropFirst()).allSatisfy { $0 < $1 }, "in order")
                #expect(
                    watcher.times.count + watcher.toldDropped == expected.count,
                    "watcher \(index): \(watcher.times.count) fixes and \(watcher.toldDropped) dropped")
            }
            // A fix's fan-out latency: from its delivery to its arrival at the last watcher.
            var latencies: [Duration] = []
            for time in expected {
                let arrivals = received.compactMap { watcher in
                    watcher.times.firstIndex(of: time).map { watcher.arrivals[$0] }
                }
                if let start = delivered[time], let latest = arrivals.max() { latencies.append(latest - start) }
            }
            let dropped = received.reduce(0) { $0 + $1.toldDropped }
            print(
                """
                GPSDListenerFanOutTests: \(watchers) watchers, \(expected.count) fixes: fan-out latency to the last watcher \
                p50 \(SingletondFaultTests.milliseconds(latencies, quantile: 0.5)), \
                p99 \(SingletondFaultTests.milliseconds(latencies, quantile: 0.99)), \
                max \(SingletondFaultTests.milliseconds(latencies, quantile: 1)); dropped \(dropped); \
                test process VmRSS \(before.map { ResidentMemory.megabytes($0.current) } ?? "?") before, \
                \(after.map { ResidentMemory.megabytes($0.current) } ?? "?") after
                """)
        }
    }
}
