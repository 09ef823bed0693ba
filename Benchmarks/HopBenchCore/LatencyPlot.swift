import Foundation

/// Draws a report's latency distributions as an SVG document, with nothing but string building.
///
/// One curve per case: nanoseconds on a logarithmic x axis, the percentile on y, so a case's median is where its
/// curve crosses 50 and its tail is how far right the top of the curve reaches. The cases of each ratio row with a
/// limit are marked at their median, and the rows are listed under the plot with their ratio and verdict. The
/// caption is the machine line and the date of the run.
public enum LatencyPlot {
    /// The plot area and the margins around it, in SVG user units.
    static let width = 1_080.0
    static let plotLeft = 70.0
    static let plotTop = 40.0
    static let plotWidth = 620.0
    static let plotHeight = 400.0

    /// The SVG document for `report`; cases without a distribution (older reports) are left out.
    public static func svg(_ report: Report) -> String {
        let cases = report.cases.filter { !($0.distribution ?? []).isEmpty }
        let values = cases.flatMap { $0.distribution ?? [] }.filter { $0 > 0 }
        let lowDecade = floor(log10(values.min() ?? 1))
        let highDecade = max(ceil(log10(values.max() ?? 10)), lowDecade + 1)
        func x(_ nanoseconds: Double) -> Double {
            let clamped = max(nanoseconds, pow(10, lowDecade))
            return plotLeft + (log10(clamped) - lowDecade) / (highDecade - lowDecade) * plotWidth
        }
        func y(_ quantile: Double) -> Double { plotTop + (1 - quantile) * plotHeight }

        let marked = report.ratios.filter { $0.limit != nil }
        let legendHeight = Double(cases.count) * 16 + 20
        let ratioTop = max(plotTop + plotHeight + 60, plotTop + legendHeight)
        let height = ratioTop + Double(marked.count) * 16 + 50
        var svg = """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(format(width))" height="\(format(height))" \
            viewBox="0 0 \(format(width)) \(format(height))" font-family="sans-serif" font-size="11">
            <title>hop-bench latency distributions</title>
            <rect width="100%" height="100%" fill="white"/>

            """
        svg += axes(lowDecade: lowDecade, highDecade: highDecade, x: x, y: y)
        for (index, result) in cases.enumerated() {
            let color = Self.color(index, of: cases.count)
            let points = zip(Distribution.quantiles, result.distribution ?? []).map { quantile, value in
                "\(format(x(value))),\(format(y(quantile)))"
            }
            svg += """
                <path class="curve" data-case="\(escape(result.name))" fill="none" stroke="\(color)" \
                stroke-width="1.5" d="M \(points.joined(separator: " L "))"/>

                """
            let legendY = plotTop + 10 + Double(index) * 16
            svg += """
                <line x1="710" y1="\(format(legendY - 4))" x2="730" y2="\(format(legendY - 4))" stroke="\(color)" \
                stroke-width="3"/><text x="736" y="\(format(legendY))">\(escape(result.name)) \
                (p50 \(format(result.medianP50)) ns)</text>

                """
        }
        svg += ratioMarks(marked, cases: cases, x: x, y: y, top: ratioTop)
        let machine = report.machine
        let caption =
            "\(machine.cpuModel), \(machine.activeCores) of \(machine.logicalCores) cores, \(machine.kernel), "
            + "\(machine.compiler), \(machine.buildConfiguration) build, load \(format(machine.loadAverage)); "
            + "\(report.date), \(report.runsPerCase) runs per case"
        svg += """
            <text class="caption" x="\(format(plotLeft))" y="\(format(height - 14))">\(escape(caption))</text>
            </svg>

            """
        return svg
    }

    /// The frame, the decades on x and the percentiles on y, with their grid lines and labels.
    private static func axes(
        lowDecade: Double, highDecade: Double, x: (Double) -> Double, y: (Double) -> Double
    ) -> String {
        var out = """
            <rect x="\(format(plotLeft))" y="\(format(plotTop))" width="\(format(plotWidth))" \
            height="\(format(plotHeight))" fill="none" stroke="#444"/>

            """
        var decade = lowDecade
        while decade <= highDecade {
            let position = x(pow(10, decade))
            out += """
                <line x1="\(format(position))" y1="\(format(plotTop))" x2="\(format(position))" \
                y2="\(format(plotTop + plotHeight))" stroke="#ddd"/><text x="\(format(position))" \
                y="\(format(plotTop + plotHeight + 16))" text-anchor="middle">\(durationLabel(pow(10, decade)))</text>

                """
            decade += 1
        }
        // p100 is the frame's top edge, 4 units above p99: labelling both would print one over the other.
        for percentile in [0.0, 25, 50, 75, 90, 99] {
            let position = y(percentile / 100)
            out += """
                <line x1="\(format(plotLeft))" y1="\(format(position))" x2="\(format(plotLeft + plotWidth))" \
                y2="\(format(position))" stroke="#eee"/><text x="\(format(plotLeft - 6))" y="\(format(position + 4))" \
                text-anchor="end">p\(format(percentile))</text>

                """
        }
        out += """
            <text x="\(format(plotLeft + plotWidth / 2))" y="\(format(plotTop + plotHeight + 34))" \
            text-anchor="middle">latency per operation (log scale)</text>
            <text x="\(format(plotLeft))" y="\(format(plotTop - 14))">percentile of samples</text>

            """
        return out
    }

    /// A marker at the median of every case a limited ratio row names, and the rows listed from `top` down.
    private static func ratioMarks(
        _ rows: [RatioResult], cases: [CaseResult], x: (Double) -> Double, y: (Double) -> Double, top: Double
    ) -> String {
        var out = """
            <text x="\(format(plotLeft))" y="\(format(top - 8))" font-weight="bold">ratio rows \
            (o: each case's median)</text>

            """
        var markedCases: Set<String> = []
        for (index, row) in rows.enumerated() {
            let verdict = row.ratio.map { "\(format($0)) (limit \(format(row.limit ?? 0))): \(row.status.rawValue)" }
            out += """
                <text class="ratio" x="\(format(plotLeft))" y="\(format(top + 8 + Double(index) * 16))">\
                \(escape("\(row.name) = \(verdict ?? "skipped")"))</text>

                """
            for name in row.name.split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "." && $0 != "-" })
            where !markedCases.contains(String(name)) {
                guard let result = cases.first(where: { $0.name == name }) else { continue }
                markedCases.insert(String(name))
                out += """
                    <circle class="ratio-mark" cx="\(format(x(result.medianP50)))" cy="\(format(y(0.5)))" r="4" \
                    fill="none" stroke="black"/>

                    """
            }
        }
        return out
    }

    /// A distinct color for curve `index` of `count`.
    static func color(_ index: Int, of count: Int) -> String {
        "hsl(\(Int(Double(index) * 360 / Double(max(count, 1)))), 70%, 42%)"
    }

    /// `nanoseconds` as 1 ns, 10 µs, 1 ms …
    static func durationLabel(_ nanoseconds: Double) -> String {
        switch nanoseconds {
        case ..<1_000: "\(format(nanoseconds)) ns"
        case ..<1_000_000: "\(format(nanoseconds / 1_000)) µs"
        case ..<1_000_000_000: "\(format(nanoseconds / 1_000_000)) ms"
        default: "\(format(nanoseconds / 1_000_000_000)) s"
        }
    }

    /// A number with at most two decimals and no trailing zeros.
    static func format(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let rounded = (value * 100).rounded() / 100
        if rounded == rounded.rounded() { return String(Int(rounded)) }
        return String(format: "%.2f", rounded).replacingOccurrences(of: #"0+$"#, with: "", options: .regularExpression)
    }

    /// `text` with the characters XML reserves escaped.
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
