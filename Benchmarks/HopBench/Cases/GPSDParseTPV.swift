import GNSSProtocol
import HopBenchCore

/// A TPV report as gpsd 3.22 sends it for a 3D fix (from `GPSDMessageTests`' captured lines).
let typicalTPVLine =
    #"{"class":"TPV","device":"/dev/pts/1","mode":3,"time":"2026-03-26T03:15:16.000Z","ept":0.005,"lat":49.126133500,"lon":-122.710178833,"altHAE":82.4000,"altMSL":99.1000,"alt":99.1000,"epx":8.997,"epy":14.222,"epv":79.350,"track":39.1400,"magtrack":54.9307,"magvar":15.8,"speed":0.043,"climb":0.094,"epd":55.2223,"eps":0.14,"epc":0.52,"geoidSep":-16.700,"eph":40.850,"sep":77.140}"#

extension Cases {
    /// Decoding one gpsd TPV line into a `Fix`: what a gpsd source pays per fix before its hop to the actor.
    ///
    /// It calls the `String` initializer, which is not generic: the decoder runs specialized for `[UInt8]` inside
    /// `GNSSProtocol`, as under `GPSDStreamDecoder` (the generic one called from here measured ~2 % slower).
    static let gpsdParseTPV = lineParsing(
        "gpsd.parseTPV",
        summary: "GPSDMessage(line:) of a full gpsd 3.22 TPV line (\(typicalTPVLine.utf8.count) bytes)",
        line: typicalTPVLine
    ) { message in
        if case .tpv(let fix) = message { fix.mode.rawValue } else { 0 }
    }

    /// A case that decodes `line` once per operation and folds each message into a sum with `fold`, so that the
    /// optimizer must decode it.
    static func lineParsing(
        _ name: String, summary: String, line: String, fold: @escaping @Sendable (GPSDMessage) -> Int
    ) -> BenchmarkCase {
        BenchmarkCase(
            batched: name, summary: summary,
            throughput: Throughput(itemName: "lines", bytesPerOperation: Double(line.utf8.count))
        ) { operations in
            let line = identity(line)
            var sum = 0
            let start = MonotonicClock.now()
            for _ in 0..<operations {
                if let message = try? GPSDMessage(line: line) { sum &+= fold(message) }
            }
            let end = MonotonicClock.now()
            blackHole(sum)
            return end &- start
        }
    }
}
