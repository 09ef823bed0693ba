import Synchronization
import Testing

@testable import GNSSLocation

/// The watch that gives up a silent network peer: the probe's answer gets its whole time, however late the watch ran.
@Suite(.timeLimit(.minutes(1))) struct SilenceWatchTests {
    /// A busy cooperative pool can wake the watch long after the silence's timeout; it then sends the probe, and the
    /// peer still has a whole timeout from that moment to answer.
    @Test func aProbeSentLateStillGetsTheWholeTimeoutForItsAnswer() async {
        let watch = SilenceWatch(timeout: .seconds(5))
        // As late as a starved pool could wake it: the silence began three timeouts ago.
        watch.waiting(since: .now - .seconds(15))
        let (probes, probed) = AsyncStream.makeStream(of: Void.self)
        let stops = Atomic<Int>(0)
        let answerable: @Sendable () -> Bool = {
            probed.yield()
            return true
        }
        let run = Task {
            await watch.run(
                source: "peer", probe: ("?VERSION;", answerable), stop: { _ = stops.add(1, ordering: .relaxed) })
        }
        var iterator = probes.makeAsyncIterator()
        #expect(await iterator.next() != nil)
        // The peer answers at once.
        watch.received()
        run.cancel()
        await run.value
        #expect(watch.stall == nil)
        #expect(stops.load(ordering: .relaxed) == 0)
    }

    /// A probe that goes unanswered is a stall, described as such, and the watch stops the reading.
    @Test func anUnansweredProbeIsAStall() async {
        let watch = SilenceWatch(timeout: .milliseconds(200))
        watch.waiting(since: .now - .seconds(1))
        let sent = Atomic<Int>(0)
        let stops = Atomic<Int>(0)
        let unanswered: @Sendable () -> Bool = {
            _ = sent.add(1, ordering: .relaxed)
            return true
        }
        await watch.run(
            source: "gpsd 127.0.0.1:2947", probe: ("?VERSION;", unanswered),
            stop: { _ = stops.add(1, ordering: .relaxed) })
        #expect(sent.load(ordering: .relaxed) == 1)
        #expect(stops.load(ordering: .relaxed) == 1)
        #expect(
            watch.stall
                == "gpsd 127.0.0.1:2947 sent nothing for 200 ms and did not answer ?VERSION; within 200 ms (stalled)")
    }
}
