import Foundation
import Glibc
import SingletonRegistryTesting
import TestSupport
import Testing

@testable import SingletondCore

/// A broken or slow output costs a few log lines, in words that match the cause, not one line per fix.
@Suite struct OutputLossLogTests {
    @Test func aWriteErrorIsSaidOnceThenCountedOnceAMinuteAndItsEndGivesTheTotal() {
        var log = OutputLossLog(name: "standard output")
        var lines: [String] = []
        // Ten lines a second for 90 s fail with EPIPE.
        for tenth in 0..<900 {
            if let line = log.lost(.writeError(EPIPE), at: .milliseconds(100 * tenth)) { lines.append(line.text) }
        }
        if let line = log.wrote() { lines.append(line.text) }
        #expect(
            lines == [
                "cannot write TPV lines to standard output: Broken pipe; dropping lines until it works again",
                "cannot write TPV lines to standard output: Broken pipe; 600 more lines lost (601 in all)",
                "writing TPV lines to standard output again (900 lines lost)",
            ])
        #expect(log.wrote() == nil, "nothing more to say once it works")
    }

    @Test func aSlowReaderIsSaidOnceThenCountedOnceAMinute() {
        var log = OutputLossLog(name: "/var/lib/singletond/tpv.jsonl")
        var lines: [String] = []
        for second in 0..<130 {
            if let line = log.lost(.slowReader, at: .seconds(second)) { lines.append(line.text) }
            #expect(log.wrote() == nil, "writes go on between drops")
        }
        #expect(
            lines == [
                "output /var/lib/singletond/tpv.jsonl is too slow: dropping TPV lines while over 1 MiB waits for it",
                "output /var/lib/singletond/tpv.jsonl is too slow: 60 more TPV lines dropped (61 lost in all)",
                "output /var/lib/singletond/tpv.jsonl is too slow: 60 more TPV lines dropped (121 lost in all)",
            ])
    }

    /// The real output on a full device, on a test clock: a thousand failed lines give one line, and a minute later
    /// one summary.
    @Test func aFullDeviceCostsOneLineAndASummaryAMinute() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let log = try CapturedLog(in: directory)
        let clock = TestClock()
        let output = try FixOutput(path: "/dev/full", logger: log.logger, clock: clock)
        let line = Array(#"{"class":"TPV","mode":1}"#.utf8) + [0x0A]
        for _ in 0..<1_000 { output.write(line) }
        await output.flush()
        await clock.advance(by: .seconds(60))
        output.write(line)
        await output.close()
        let lines = try log.lines().dropLast()
        #expect(lines.count == 2, "\(lines)")
        #expect(
            lines.first?.hasSuffix(
                "cannot write TPV lines to /dev/full: No space left on device; dropping lines until it works again")
                == true)
        #expect(
            lines.last?.hasSuffix(
                "cannot write TPV lines to /dev/full: No space left on device; 1000 more lines lost (1001 in all)")
                == true)
        #expect(try log.lines().last?.hasSuffix("warning: output /dev/full: 0 TPV lines written, 1001 lost") == true)
    }

    /// The lines lost after the last summary are counted when the output closes.
    @Test func theLinesLostSinceTheLastSummaryAreCountedAtTheStop() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let log = try CapturedLog(in: directory)
        let clock = TestClock()
        let output = try FixOutput(path: "/dev/full", logger: log.logger, clock: clock)
        let line = Array(#"{"class":"TPV","mode":1}"#.utf8) + [0x0A]
        for _ in 0..<10 { output.write(line) }
        await output.flush()
        await clock.advance(by: .seconds(60))
        for _ in 0..<6 { output.write(line) }
        await output.close()
        let lines = try log.lines().dropLast()
        #expect(lines.count == 3, "\(lines)")
        #expect(
            lines.dropFirst().first?.hasSuffix(
                "cannot write TPV lines to /dev/full: No space left on device; 10 more lines lost (11 in all)") == true,
            "\(lines)")
        #expect(try log.lines().last?.hasSuffix("output /dev/full: 0 TPV lines written, 16 lost") == true)
        #expect(
            lines.last?.hasSuffix(
                "cannot write TPV lines to /dev/full: No space left on device; 5 more lines lost before the stop")
                == true, "\(lines)")
    }

    @Test func aStopRightAfterASummaryAddsNothing() {
        var log = OutputLossLog(name: "standard output")
        _ = log.lost(.writeError(EPIPE), at: .zero)
        _ = log.lost(.slowReader, at: .zero)
        #expect(log.lost(.writeError(EPIPE), at: .seconds(60)) != nil)
        #expect(log.finish().isEmpty)
        #expect(log.lost(.slowReader, at: .seconds(61)) != nil, "what is lost after the stop is new again")
        #expect(log.lost(.slowReader, at: .seconds(62)) == nil)
        #expect(
            log.finish().map(\.text) == ["output standard output is too slow: 1 more TPV lines dropped before the stop"]
        )
    }
}
