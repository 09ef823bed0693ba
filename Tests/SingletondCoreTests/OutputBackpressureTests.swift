import Foundation
import SingletonRegistryTesting
import Synchronization
import TestSupport
import Testing

@testable import SingletondCore

/// A source that can wait is read no faster than the output takes its lines, so no fix is lost on the way; an
/// output that stalls loses lines, and each loss is counted: in the summary with a running total, and at the stop.
@Suite struct OutputBackpressureTests {
    /// The lines `singletond decode --device DEVICE` writes for `path`.
    private static func decoded(_ path: String, device: String) async throws -> [String] {
        let decode = try await SingletondProcess.run(["decode", "--device", device, path], timeout: 120)
        try #require(decode.status == 0, "\(decode.stderr)")
        return decode.stdout
    }

    /// The daemon's output, checked against `decode`'s: the same lines after the first, which a live source reports
    /// early (the first cycle's RMC, as gpsd reports a first cycle), and the stop's count of lines lost is 0.
    ///
    /// The file is read and compared on a thread of its own (``blocking(_:)``): under the sanitizers splitting and
    /// comparing 50,000 lines takes seconds, which on a cooperative thread would hold back every other test of the
    /// run. The first difference is found by hand: Swift Testing would diff two arrays of 50,000 lines on failure.
    private static func expectNoLoss(outputFile: String, decoded: [String], log: [String]) async throws {
        let (count, difference) = try await blocking {
            Result { () throws -> (Int, String?) in
                let output = try String(contentsOfFile: outputFile, encoding: .utf8).split(separator: "\n")
                let first = zip(output.dropFirst(), decoded).enumerated().first { $0.element.0 != $0.element.1 }
                return (output.count, first.map { "line \($0.offset + 2): \($0.element.0) against \($0.element.1)" })
            }
        }.get()
        #expect(count == decoded.count + 1, "TPV lines: \(count) against decode's \(decoded.count)")
        #expect(difference == nil, "the output is decode's, line for line")
        let totals = log.first { $0.contains("TPV lines written,") }
        #expect(totals?.hasSuffix(" \(decoded.count + 1) TPV lines written, 0 lost") == true, "\(log.suffix(8))")
    }

    /// Waits until `path` holds `count` lines: the output took every fix the source gave (a stop before then counts
    /// the lines still on their way as lost, which is what the stop's total says, not what these tests check). Each
    /// look reads only what was appended since the last one.
    private static func waitForLines(_ path: String, count: Int) async throws {
        let counter = try #require(AppendedLineCounter(path: path), "\(path) cannot be opened")
        let full = try await Polling.firstAnswer(while: { true }) { () -> Bool? in
            counter.countAppended() >= count ? true : nil
        }
        try #require(full == true, "the output never held \(count) lines")
    }

    /// `--nmea FILE --output OUT` on 50,000 epochs, read as fast as they decode: every fix reaches the file.
    @Test func aFileOfFiftyThousandEpochsLosesNoFixAtTheOutput() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let track = directory.file("track.nmea")
        let out = directory.file("out.jsonl")
        try await Self.write(cycles: 50_000, to: track)
        let daemon = try SingletondProcess(["--nmea", track, "--control", directory.file("c.sock"), "--output", out])
        defer { daemon.kill() }
        let ended = await daemon.stderr.line(containing: "location: idle (\(track) ended)", timeout: 300)
        try #require(ended != nil, "\(daemon.stderr.history.suffix(8))")
        let decoded = try await Self.decoded(track, device: track)
        try await Self.waitForLines(out, count: decoded.count + 1)
        daemon.signal(SIGTERM)
        #expect(await daemon.exitStatus() == 0)
        let log = daemon.stderr.history + (await daemon.stderr.rest())
        try await Self.expectNoLoss(outputFile: out, decoded: decoded, log: log)
    }

    /// A TCP peer that sends 30,000 epochs in one burst and closes: the daemon reads it no faster than the output
    /// takes the lines, and loses none.
    @Test func aTCPPeersBurstOfThirtyThousandEpochsLosesNoFixAtTheOutput() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let track = directory.file("burst.nmea")
        let burst = try await Self.write(cycles: 30_000, to: track)
        let out = directory.file("out.jsonl")
        let connections = Atomic<Int>(0)
        // The first connection gets the burst; a reconnection gets nothing, so the file holds the burst once.
        let peer = try LoopbackPeer { connection in
            guard connections.add(1, ordering: .relaxed).oldValue == 0 else { return }
            try? writeAll(connection, burst)
            LoopbackPeer.finish(connection)
        }
        defer { peer.close() }
        let device = "tcp://127.0.0.1:\(peer.port)"
        let daemon = try SingletondProcess([
            "--nmea-tcp", "127.0.0.1:\(peer.port)", "--control", directory.file("c.sock"), "--output", out,
        ])
        defer { daemon.kill() }
        let closed = await daemon.stderr.line(containing: "closed the connection", timeout: 300)
        try #require(closed != nil, "\(daemon.stderr.history.suffix(8))")
        let decoded = try await Self.decoded(track, device: device)
        try await Self.waitForLines(out, count: decoded.count + 1)
        daemon.signal(SIGTERM)
        #expect(await daemon.exitStatus() == 0)
        let log = daemon.stderr.history + (await daemon.stderr.rest())
        try await Self.expectNoLoss(outputFile: out, decoded: decoded, log: log)
    }

    /// An output whose reader stopped (a FIFO nobody reads), written as a source that cannot wait writes it: the
    /// lines over its limit are dropped, said once, summarised a minute later with the running total, and counted
    /// again at the stop, with the output's totals.
    @Test func anOutputThatStallsCountsItsDropsInTheSummaryAndAtTheStop() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let log = try CapturedLog(in: directory)
        let fifo = try HeldFIFO(directory.file("out"))
        defer { fifo.close() }
        let clock = TestClock()
        let output = try FixOutput(path: fifo.path, logger: log.logger, clock: clock)
        let line = Array(repeating: UInt8(ascii: "x"), count: 1_023) + [0x0A]
        // 64 KiB go into the pipe, 1 MiB waits; the rest of 2,000 KiB is dropped.
        for _ in 0..<2_000 { output.write(line) }
        await clock.advance(by: .seconds(60))
        for _ in 0..<10 { output.write(line) }
        for _ in 0..<5 { output.write(line) }
        await output.close()
        let lines = try log.lines().map(String.init)
        let summary = lines.first { $0.contains("more TPV lines dropped (") }
        #expect(lines.contains { $0.contains("is too slow: dropping TPV lines") }, "said once: \(lines)")
        let total = try #require(summary.flatMap { Self.number(in: $0, after: "dropped (", before: " lost in all)") })
        #expect(total > 0, "\(lines)")
        let totals = try #require(lines.last, "\(lines)")
        let written = try #require(Self.number(in: totals, after: "output \(fifo.path): ", before: " TPV lines"))
        let lost = try #require(Self.number(in: totals, after: "written, ", before: " lost"))
        #expect(written + lost == 2_015, "every line written or counted lost: \(lines)")
        #expect(lost >= total + 14, "the stop's total holds the summary's and what came after: \(lines)")
        #expect(lines.contains { $0.contains("more TPV lines dropped before the stop") }, "\(lines)")
    }

    /// Writes `cycles` epochs to `path`, on a thread of its own (building them takes seconds under the sanitizers),
    /// and returns them.
    @discardableResult
    private static func write(cycles: Int, to path: String) async throws -> String {
        try await blocking {
            Result { () throws -> String in
                let text = SingletondEndToEndTests.manyCycles(cycles)
                try text.write(toFile: path, atomically: false, encoding: .utf8)
                return text
            }
        }.get()
    }

    /// The number between `start` and `end` in `line`.
    private static func number(in line: String, after start: String, before end: String) -> Int? {
        guard let from = line.range(of: start), let to = line.range(of: end, range: from.upperBound..<line.endIndex)
        else { return nil }
        return Int(line[from.upperBound..<to.lowerBound])
    }
}
