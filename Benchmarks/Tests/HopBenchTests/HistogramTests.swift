import HopBenchCore
import Testing

/// The percentiles the table and the JSON report show.
@Suite struct HistogramTests {
    @Test func percentilesOfAUniformSpreadAreWithinOnePercent() {
        var histogram = Histogram()
        for value in 1...10_000 { histogram.record(nanoseconds: UInt64(value)) }
        let percentiles = histogram.percentiles
        #expect(percentiles.p0 == 1)
        #expect(percentiles.p100 == 10_000)
        for (label, expected) in [
            ("p25", 2500.0), ("p50", 5000), ("p75", 7500), ("p90", 9000), ("p99", 9900),
        ] {
            let value = percentiles.labelled.first { $0.label == label }!.value
            #expect(abs(value - expected) / expected < 0.01, "\(label) = \(value)")
        }
    }

    @Test func aBimodalDistributionShowsBothModes() {
        var histogram = Histogram()
        for _ in 0..<600 { histogram.record(nanoseconds: 7_000) }
        for _ in 0..<400 { histogram.record(nanoseconds: 25_000) }
        let percentiles = histogram.percentiles
        #expect(abs(percentiles.p50 - 7_000) < 70)
        #expect(abs(percentiles.p75 - 25_000) < 250)
    }

    @Test func subNanosecondBatchFiguresKeepTheirFraction() {
        var histogram = Histogram()
        histogram.record(picoseconds: 1_250)
        #expect(histogram.percentiles.p50 == 1.25)
    }

    @Test func mergingRunsAddsTheirSamples() {
        var first = Histogram()
        var second = Histogram()
        first.record(nanoseconds: 10)
        second.record(nanoseconds: 1_000)
        second.record(nanoseconds: 2_000)
        first.merge(second)
        #expect(first.count == 3)
        #expect(first.percentiles.p0 == 10)
        #expect(first.percentiles.p100 == 2_000)
    }

    @Test func theMedianOfRunsIgnoresOneOutlierRun() {
        #expect(CaseResult.median([60, 62, 900]) == 62)
        #expect(CaseResult.median([60, 70]) == 65)
    }
}
