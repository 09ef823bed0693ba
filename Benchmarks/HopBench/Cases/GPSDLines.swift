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
    static let gpsdParseSKY = lineParsing(
        "gpsd.parseSKY",
        summary: "GPSDMessage(line:) of a SKY line of 30 satellites (\(GPSDLines.skyLine.utf8.count) bytes)",
        line: GPSDLines.skyLine
    ) { message in
        if case .sky(let view) = message { view.satellites.count } else { 0 }
    }

    /// Writing one TPV line, as `singletond` and `singletond decode` do per fix.
    static let gpsdWriteTPV = lineWriting(
        "gpsd.writeTPV", summary: "GPSDJSONWriter.appendTPV of the fix of gpsd.parseTPV into a reused buffer",
        value: GPSDLines.fix, capacity: 1_024
    ) { fix, buffer in
        GPSDJSONWriter.appendTPV(fix, to: &buffer)
    }

    /// Writing one SKY line of 30 satellites.
    static let gpsdWriteSKY = lineWriting(
        "gpsd.writeSKY", summary: "GPSDJSONWriter.appendSKY of a view of 30 satellites into a reused buffer",
        value: GPSDLines.view, capacity: 8_192
    ) { view, buffer in
        GPSDJSONWriter.appendSKY(view, to: &buffer)
    }

    /// A case that writes one line of `value` per operation into a buffer of `capacity` bytes, emptied each time.
    static func lineWriting<Value: Sendable>(
        _ name: String, summary: String, value: Value, capacity: Int,
        write: @escaping @Sendable (Value, inout [UInt8]) -> Void
    ) -> BenchmarkCase {
        BenchmarkCase(batched: name, summary: summary, throughput: Throughput(itemName: "lines")) { operations in
            let value = identity(value)
            var buffer: [UInt8] = []
            buffer.reserveCapacity(capacity)
            var written = 0
            let start = MonotonicClock.now()
            for _ in 0..<operations {
                buffer.removeAll(keepingCapacity: true)
                write(value, &buffer)
                written &+= buffer.count
            }
            let end = MonotonicClock.now()
            blackHole(written)
            return end &- start
        }
    }
}
