import GNSSProtocol
import HopBenchCore

/// The fixed inputs of the gpsd line cases: a TPV fix and a 30-satellite view, and their lines as gpsd writes them.
enum GPSDLines {
    /// A 3D fix with every field gpsd 3.22 reports for a u-blox receiver.
    static let fix: Fix = {
        guard case .tpv(let fix) = try? GPSDMessage(line: typicalTPVLine) else {
            preconditionFailure("the TPV line of gpsd.parseTPV decodes")
        }
        return fix
    }()

    /// A view of 30 satellites of four constellations, 20 of them used, with every DOP.
    static let view: SkyView = {
        var satellites: [Satellite] = []
        for index in 0..<30 {
            let gnssID = [0, 2, 3, 6][index % 4]
            satellites.append(
                Satellite(
                    prn: index + 1, gnssID: gnssID, svID: index / 4 + 1, elevation: Double(5 + index * 2),
                    azimuth: Double(index * 12), signalStrength: Double(20 + index % 25), used: index < 20))
        }
        var view = SkyView(
            time: GNSSTime(millisecondsSince1970: 1_774_494_916_000), satellites: satellites, hdop: 0.76,
            vdop: 0.87, pdop: 1.16, device: "/dev/pts/1")
        view.tdop = 0.95
        view.gdop = 1.49
        view.xdop = 0.52
        view.ydop = 0.55
        return view
    }()

    /// ``view`` as one SKY line, without its line end, written by the gpsd-compatible writer.
    static let skyLine: String = {
        var bytes: [UInt8] = []
        GPSDJSONWriter.appendSKY(view, newline: false, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }()
}

extension Cases {
    /// Decoding one gpsd SKY line of 30 satellites into a `SkyView`.
    static let gpsdParseSKY = BenchmarkCase(
        batched: "gpsd.parseSKY",
        summary: "GPSDMessage(line:) of a SKY line of 30 satellites (\(GPSDLines.skyLine.utf8.count) bytes)",
        throughput: Throughput(itemName: "lines", bytesPerOperation: Double(GPSDLines.skyLine.utf8.count))
    ) { operations in
        let line = identity(GPSDLines.skyLine)
        var seen = 0
        let start = MonotonicClock.now()
        for _ in 0..<operations {
            if case .sky(let view) = try? GPSDMessage(line: line) { seen &+= view.satellites.count }
        }
        let end = MonotonicClock.now()
        blackHole(seen)
        return end &- start
    }

    /// Writing one TPV line, as `singletond` and `singletond decode` do per fix.
    static let gpsdWriteTPV = BenchmarkCase(
        batched: "gpsd.writeTPV",
        summary: "GPSDJSONWriter.appendTPV of the fix of gpsd.parseTPV into a reused buffer",
        throughput: Throughput(itemName: "lines")
    ) { operations in
        let fix = identity(GPSDLines.fix)
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1_024)
        var written = 0
        let start = MonotonicClock.now()
        for _ in 0..<operations {
            buffer.removeAll(keepingCapacity: true)
            GPSDJSONWriter.appendTPV(fix, to: &buffer)
            written &+= buffer.count
        }
        let end = MonotonicClock.now()
        blackHole(written)
        return end &- start
    }

    /// Writing one SKY line of 30 satellites.
    static let gpsdWriteSKY = BenchmarkCase(
        batched: "gpsd.writeSKY",
        summary: "GPSDJSONWriter.appendSKY of a view of 30 satellites into a reused buffer",
        throughput: Throughput(itemName: "lines")
    ) { operations in
        let view = identity(GPSDLines.view)
        var buffer: [UInt8] = []
        buffer.reserveCapacity(8_192)
        var written = 0
        let start = MonotonicClock.now()
        for _ in 0..<operations {
            buffer.removeAll(keepingCapacity: true)
            GPSDJSONWriter.appendSKY(view, to: &buffer)
            written &+= buffer.count
        }
        let end = MonotonicClock.now()
        blackHole(written)
        return end &- start
    }
}
