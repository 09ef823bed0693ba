import SystemCalls
import Testing

/// `PollTimeout`: durations as `poll(2)` milliseconds, never shorter than asked.
@Suite struct PollTimeoutTests {
    @Test(arguments: [
        (Duration.zero, Int32(0)),
        (.seconds(-1), 0),
        (.nanoseconds(1), 1),
        (.milliseconds(1_500), 1_500),
        (.microseconds(1_500), 2),
        (.seconds(Int64.max), Int32.max),
    ])
    func roundsUpAndCaps(_ duration: Duration, _ milliseconds: Int32) {
        #expect(PollTimeout.milliseconds(duration) == milliseconds)
    }
}
