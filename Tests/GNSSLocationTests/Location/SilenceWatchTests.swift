import SingletonRegistry
import SingletonRegistryTesting
import Synchronization
import TestSupport
import Testing

@testable import GNSSLocation

/// The watch that gives up a silent network peer, on a test clock: silence, then a probe at the timeout exactly, then
/// a stall one more timeout later; an answered probe starts a new silence.
@Suite(.hangBound) struct SilenceWatchTests {
    /// A watch on a fresh test clock with its probes and stops counted.
    final class Rig: Sendable {
        let clock = TestClock()
        let watch: SilenceWatch
        let probes: AsyncStream<Duration>
        private let probed: AsyncStream<Duration>.Continuation
        let stops = Atomic<Int>(0)

        init(timeout: Duration) {
            watch = SilenceWatch(timeout: timeout, timeline: Timeline(clock))
            (probes, probed) = AsyncStream.makeStream(of: Duration.self)
        }

        /// Runs the watch with a probe that records the clock's time when it is sent.
        func run() -> Task<Void, Never> {
            Task {
                await watch.run(
                    source: "gpsd 127.0.0.1:2947",
                    probe: (
                        "?VERSION;",
                        {
                            self.probed.yield(self.clock.now.offset)
                            return true
                        }
                    ),
                    stop: { _ = self.stops.add(1, ordering: .relaxed) })
            }
        }
    }

    @Test func silenceThenAProbeAtTheTimeoutThenAStallOneTimeoutLater() async {
        let rig = Rig(timeout: .seconds(10))
        let run = rig.run()
        rig.watch.waiting()
        await rig.clock.sleepers(atLeast: 1)
        #expect(rig.clock.pendingDeadlines == [TestClock.Instant(offset: .seconds(10))])
        await rig.clock.advance(by: .milliseconds(9_999))
        #expect(rig.clock.pendingDeadlines == [TestClock.Instant(offset: .seconds(10))], "no probe before +10 s")
        await rig.clock.advance(by: .milliseconds(1))
        var probes = rig.probes.makeAsyncIterator()
        #expect(await probes.next() == .seconds(10))
        await rig.clock.sleepers(atLeast: 1)
        #expect(rig.clock.pendingDeadlines == [TestClock.Instant(offset: .seconds(20))])
        await rig.clock.advance(by: .seconds(10))
        await run.value
        #expect(rig.stops.load(ordering: .relaxed) == 1)
        #expect(
            rig.watch.stall
                == "gpsd 127.0.0.1:2947 sent nothing for 10 s and did not answer ?VERSION; within 10 s (stalled)")
        #expect(rig.clock.now == TestClock.Instant(offset: .seconds(20)))
    }

    /// A watch that runs long after the silence's timeout (a starved pool) sends the probe then, and the peer still
    /// has a whole timeout from that moment to answer.
    @Test func aProbeSentLateStillGetsTheWholeTimeoutForItsAnswer() async {
        let rig = Rig(timeout: .seconds(5))
        rig.watch.waiting(since: .seconds(-15))
        let run = rig.run()
        var probes = rig.probes.makeAsyncIterator()
        #expect(await probes.next() == .zero)
        await rig.clock.sleepers(atLeast: 1)
        #expect(rig.clock.pendingDeadlines == [TestClock.Instant(offset: .seconds(5))])
        run.cancel()
        await run.value
        #expect(rig.watch.stall == nil)
        #expect(rig.stops.load(ordering: .relaxed) == 0)
    }

    /// An answer to the probe ends that silence: the next one is timed from its own start, and the old probe's
    /// deadline no longer counts.
    @Test func anAnsweredProbeStartsANewSilence() async {
        let rig = Rig(timeout: .seconds(10))
        let run = rig.run()
        rig.watch.waiting()
        await rig.clock.sleepers(atLeast: 1)
        await rig.clock.advance(by: .seconds(10))
        var probes = rig.probes.makeAsyncIterator()
        #expect(await probes.next() == .seconds(10))
        await rig.clock.sleepers(atLeast: 1)
        await rig.clock.advance(by: .seconds(5))
        // The answer comes at +15 s; the reader waits again from then.
        rig.watch.received()
        rig.watch.waiting()
        await rig.clock.advance(by: .seconds(5))
        await rig.clock.sleepers(atLeast: 1)
        #expect(rig.clock.pendingDeadlines == [TestClock.Instant(offset: .seconds(25))], "a silence from +15 s")
        #expect(rig.watch.stall == nil)
        await rig.clock.advance(by: .seconds(5))
        #expect(await probes.next() == .seconds(25))
        run.cancel()
        await run.value
        #expect(rig.watch.stall == nil)
        #expect(rig.stops.load(ordering: .relaxed) == 0)
    }

    /// While the reader works on bytes no silence is timed, and the watch sleeps on no clock at all.
    @Test func aWatchWithNoSilenceSleepsOnNoClock() async {
        let rig = Rig(timeout: .seconds(10))
        let run = rig.run()
        rig.watch.waiting()
        await rig.clock.sleepers(atLeast: 1)
        rig.watch.received()
        await rig.clock.advance(by: .seconds(13))
        rig.watch.waiting()
        await rig.clock.sleepers(atLeast: 1)
        #expect(rig.clock.pendingDeadlines == [TestClock.Instant(offset: .seconds(23))], "only the new silence's timer")
        run.cancel()
        await run.value
        #expect(rig.watch.stall == nil)
    }
}
