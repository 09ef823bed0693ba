import Foundation
import HopBenchCore
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `hop-bench --plot`: the SVG is well-formed XML with one curve per case, its ratio rows and its caption.
@Suite struct LatencyPlotTests {
    /// Counts the elements of an XML document, and the `path` elements of class `curve` by their `data-case`.
    final class ElementCounter: NSObject, XMLParserDelegate {
        var curves: [String] = []
        var ratioMarks = 0
        var texts = ""

        func parser(
            _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            if element == "path", attributes["class"] == "curve" { curves.append(attributes["data-case"] ?? "") }
            if element == "circle", attributes["class"] == "ratio-mark" { ratioMarks += 1 }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { texts += string }
    }

    static func report() -> Report {
        var report = BaselineComparisonTests.report([
            ("same-actor.call", 3), ("tasklocal.read", 11), ("registry.read", 25),
        ])
        for index in report.cases.indices {
            let p50 = report.cases[index].medianP50
            report.cases[index].distribution = Distribution.quantiles.map { p50 * (0.5 + $0 * $0 * 4) }
        }
        let row = RatioCheck(
            "registry.read <= 2 x (same-actor.call + tasklocal.read)", numerator: ["registry.read"],
            denominator: ["same-actor.call", "tasklocal.read"], limit: 2)
        report.ratios = [row.evaluate(report.cases)]
        return report
    }

    @Test func theSVGIsWellFormedWithOneCurvePerCase() throws {
        let svg = LatencyPlot.svg(Self.report())
        let parser = XMLParser(data: Data(svg.utf8))
        let counter = ElementCounter()
        parser.delegate = counter
        #expect(parser.parse(), "not well-formed XML: \(String(describing: parser.parserError))")
        #expect(counter.curves == ["same-actor.call", "tasklocal.read", "registry.read"])
        #expect(counter.ratioMarks == 3, "each case of the ratio row is marked at its median")
        #expect(
            counter.texts.contains("registry.read <= 2 x (same-actor.call + tasklocal.read) = 1.79 (limit 2): pass"))
        #expect(counter.texts.contains("Synthetic CPU, 2 of 2 cores") && counter.texts.contains("2026-01-01T00:00:00Z"))
    }

    @Test func aReportWithoutDistributionsDrawsNoCurveButStaysWellFormed() {
        var report = Self.report()
        for index in report.cases.indices { report.cases[index].distribution = nil }
        let parser = XMLParser(data: Data(LatencyPlot.svg(report).utf8))
        let counter = ElementCounter()
        parser.delegate = counter
        #expect(parser.parse())
        #expect(counter.curves.isEmpty)
    }
}
