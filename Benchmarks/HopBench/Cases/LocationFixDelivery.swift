@_spi(Benchmarks) import GNSSLocation
import GNSSProtocol
import HopBenchCore
import SingletonRegistry

/// The fix the delivery cases send, its time advanced one second per operation as a receiver's would be (an
/// unchanged fix would make `@Observable`'s equality check of `lastFix` compare every field).
let sampleFix = Fix(
    mode: .threeD, time: GNSSTime(millisecondsSince1970: 1_774_494_916_000), latitude: 49.1261335,
    longitude: -122.710178833, altitudeHAE: 82.4, altitudeMSL: 99.1, geoidSeparation: -16.7, speed: 0.043,
    track: 39.14, climb: 0.094, device: "/dev/ttyUSB0")

/// The manager `location.deliver.noSubscriber` delivers to in every sample, as a daemon's one manager receives every
/// fix. Nothing reads its `lastFix` or `fixCount` through their observable getters, as in the daemon, so `deliver`
/// skips Observation's registrar for it. A manager per sample would measure something else: each arms its own
/// staleness watch on its first fix, a task on the actor that sleeps `staleAfter` on a timer, so thousands of samples
/// left thousands of timers that all fired on the actor five seconds later, in the middle of other samples
/// (CONCURRENCY.md, "Measured costs").
let deliveryManager = LocationManager()

extension Cases {
    /// A fix decoded off the actor reaching a subscriber of `LocationManager.updates()`.
    ///
    /// A cooperative-pool task stamps the clock and calls `await manager.deliver(fix)` (the session's one hop per
    /// fix); a subscriber task parked in `updates()` receives the fix and subtracts the stamp. The producer waits
    /// for the subscriber's acknowledgement before the next fix, so the subscriber is parked each time, as a
    /// subscriber of a 1–10 Hz receiver is.
    static let locationFixDelivery = BenchmarkCase(
        perOperation: "location.fixDelivery",
        summary: "pool task: await manager.deliver(fix) -> updates() subscriber receives (one way)"
    ) { operations in
        let manager = identity(LocationManager())
        let sentAt = StampCell()
        let received = Baton()
        let updates = await manager.updates()
        let subscriber = Task {
            var durations: [UInt64] = []
            durations.reserveCapacity(operations)
            for await update in updates {
                durations.append(MonotonicClock.now() &- sentAt.value.load(ordering: .acquiring))
                blackHole(update.droppedBefore)
                received.signal()
                if durations.count == operations { break }
            }
            return durations
        }
        var fix = identity(sampleFix)
        for _ in 0..<operations {
            fix.time?.millisecondsSince1970 += 1_000
            sentAt.value.store(MonotonicClock.now(), ordering: .releasing)
            await manager.deliver(fix)
            await received.wait()
        }
        return await subscriber.value
    }
}

/// The manager `location.deliver.observable` delivers to: its `fixCount` is read through the observable getter before
/// each sample, so `deliver` calls the registrar for every fix, as it does in an app that may observe `lastFix`.
let observableDeliveryManager = LocationManager()

extension Cases {
    /// `location.fixDelivery` without the subscriber: the hop and `deliver`'s own work (the stores, state check,
    /// fan-out with nobody to wake), batched. What `location.fixDelivery` costs beyond it is the wake-up. The count
    /// is read after each sample as the daemon's status query reads it, without registering an observation.
    static let locationDeliverNoSubscriber = BenchmarkCase(
        batched: "location.deliver.noSubscriber",
        summary: "pool task: await manager.deliver(fix) with no subscriber (hop + deliver's own work)"
    ) { operations in
        await deliverBatch(to: deliveryManager, operations: operations) { $0.untrackedFixCount }
    }

    /// `location.deliver.noSubscriber` to a manager whose `fixCount` is read through the observable getter: the
    /// registrar's `willSet` and `didSet` are called for every fix, with nobody registered.
    static let locationDeliverObservable = BenchmarkCase(
        batched: "location.deliver.observable",
        summary: "as location.deliver.noSubscriber, lastFix observable: deliver calls Observation's registrar"
    ) { operations in
        await deliverBatch(to: observableDeliveryManager, operations: operations) { $0.fixCount }
    }

    /// Delivers `operations` fixes to `manager` from the pool and returns the loop's nanoseconds; `count` reads the
    /// manager's count before (as an observer reads it when it registers) and after (so the loop's work is used).
    private static func deliverBatch(
        to manager: LocationManager, operations: Int, count: @RegistryActor (LocationManager) -> Int
    ) async -> UInt64 {
        let manager = identity(manager)
        blackHole(await count(manager))
        var fix = identity(sampleFix)
        let start = MonotonicClock.now()
        for _ in 0..<operations {
            fix.time?.millisecondsSince1970 += 1_000
            await manager.deliver(fix)
        }
        let end = MonotonicClock.now()
        blackHole(await count(manager))
        return end &- start
    }
}
