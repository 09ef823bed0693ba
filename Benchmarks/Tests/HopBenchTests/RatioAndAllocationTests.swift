import HopBenchCore
import Testing

/// Ratio rows and the allocation count read from glibc's mtrace log.
@Suite struct RatioAndAllocationTests {
    static func result(_ name: String, _ p50: Double) -> CaseResult {
        let percentiles = Percentiles(
            p0: p50, p25: p50, p50: p50, p75: p50, p90: p50, p99: p50, p100: p50)
        return CaseResult(
            name: name,
            kind: .batched,
            summary: "",
            runs: [RunResult(samples: 1, operationsPerSample: 1, percentiles: percentiles)],
            percentiles: percentiles,
            samples: 1
        )
    }

    @Test func aRatioRowPassesFailsOrIsSkipped() {
        let row = RatioCheck(
            "r", numerator: ["registry.read"], denominator: ["same-actor.call", "tasklocal.read"],
            limit: 2)
        let cheap = row.evaluate([
            Self.result("registry.read", 20), Self.result("same-actor.call", 4),
            Self.result("tasklocal.read", 6),
        ])
        #expect(cheap.status == .pass)
        #expect(cheap.ratio == 2)
        let dear = row.evaluate([
            Self.result("registry.read", 21), Self.result("same-actor.call", 4),
            Self.result("tasklocal.read", 6),
        ])
        #expect(dear.status == .fail)
        let partial = row.evaluate([
            Self.result("same-actor.call", 4), Self.result("tasklocal.read", 6),
        ])
        #expect(partial.status == .skipped)
        #expect(partial.missing == ["registry.read"])
    }

    @Test func aRowWithNoDenominatorChecksNanoseconds() {
        let row = RatioCheck("registry.scope <= 500 ns", numerator: ["registry.scope"], denominator: [], limit: 500)
        #expect(row.evaluate([Self.result("registry.scope", 480)]).status == .pass)
        #expect(row.evaluate([Self.result("registry.scope", 480)]).ratio == 480)
        #expect(row.evaluate([Self.result("registry.scope", 520)]).status == .fail)
    }

    @Test func anMtraceLogIsTalliedBetweenPassMarkers() {
        // Markers: pass 0 begins with a 777,777-byte block (0xbde31) and ends with 0xbde32; pass 1 uses 0xbde33/34.
        let log = """
            = Start
            @ ./hop-bench:[0x1] + 0x5590cb100000 0x99
            @ ./hop-bench:[0x2] + 0x7f0000000010 0xbde31
            @ ./hop-bench:[0x2] - 0x7f0000000010
            @ /usr/lib/libswiftCore.so:[0x48f932] + 0x5590cb1c1eb0 0x10
            @ /usr/lib/libswiftCore.so:[0x48f967] - 0x5590cb1c1eb0
            @ ./hop-bench:[0x1234] < 0x5590cb1c2000
            @ ./hop-bench:[0x1234] > 0x5590cb1c3000 0x40
            @ /lib/libstdc++.so.6:(_Znwm+1c)[0xa958c] + 0x5590cb1c0f10 0x28
            @ ./hop-bench:[0x2] + 0x7f0000000010 0xbde32
            @ ./hop-bench:[0x2] - 0x7f0000000010
            @ ./hop-bench:[0x1] + 0x5590cb100000 0x99
            @ ./hop-bench:[0x2] + 0x7f0000000010 0xbde33
            @ ./hop-bench:[0x2] + 0x7f0000000010 0xbde34
            """
        let tallies = AllocationCounter.tally(log)
        #expect(tallies[0]?.allocations == 3)
        #expect(tallies[0]?.bytes == 0x10 + 0x40 + 0x28)
        #expect(tallies[1]?.allocations == 0)
        #expect(tallies.count == 2)
    }

    @Test func theProbeChildsLinesAreReadBack() {
        let output =
            AllocationProbe.line(name: "actor.call", allocations: 0, bytes: 0) + "\n"
            + AllocationProbe.line(name: "asyncstream.handoff", allocations: 2.5, bytes: 112)
            + "\nnoise\n"
        let counts = AllocationProbe.parse(output)
        #expect(counts.count == 2)
        #expect(counts["asyncstream.handoff"]?.allocations == 2.5)
        #expect(counts["asyncstream.handoff"]?.bytes == 112)
    }
}
