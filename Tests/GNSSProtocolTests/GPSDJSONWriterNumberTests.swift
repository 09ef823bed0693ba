import GNSSProtocol
import TestSupport
import Testing

/// The writer's numbers and times against the plain formatting it replaced (`Reference`): byte for byte, on values
/// drawn across every magnitude, on halves, and at the edges of the fast paths.
@Suite struct GPSDJSONWriterNumberTests {
    /// The writer's formatting as it was before its fast paths, kept as the reference they must match.
    enum Reference {
        /// `%.Nf` by scaling, rounding half away from zero and dividing by 10^N.
        static func fixed(_ value: Double, _ decimals: Int) -> String {
            guard value.isFinite else { return "" }
            let d = max(0, min(decimals, 12))
            var scale = 1.0
            var intScale: UInt64 = 1
            for _ in 0..<d {
                scale *= 10
                intScale *= 10
            }
            let magnitude = abs(value)
            let scaled = (magnitude * scale).rounded(.toNearestOrAwayFromZero)
            guard scaled < 9.0e18 else { return (value < 0 ? "-" : "") + String(UInt64(min(magnitude, 9.0e18))) }
            let units = UInt64(scaled)
            var text = value < 0 && units != 0 ? "-" : ""
            text += String(units / intScale)
            if d > 0 {
                let fraction = String(units % intScale)
                text += "." + String(repeating: "0", count: d - fraction.count) + fraction
            }
            return text
        }

        /// `YYYY-MM-DDTHH:MM:SS.sssZ`, each component the last digits of its value, zero-padded.
        static func time(_ time: GNSSTime) -> String {
            func padded(_ value: Int, _ digits: Int) -> String {
                var v = value
                var bytes = [UInt8](repeating: 0, count: digits)
                for k in stride(from: digits - 1, through: 0, by: -1) {
                    bytes[k] = 0x30 &+ UInt8(truncatingIfNeeded: v % 10)
                    v /= 10
                }
                return String(decoding: bytes, as: UTF8.self)
            }
            let c = time.components
            return "\(padded(c.year, 4))-\(padded(c.month, 2))-\(padded(c.day, 2))T\(padded(c.hour, 2)):"
                + "\(padded(c.minute, 2)):\(padded(c.second, 2)).\(padded(c.millisecond, 3))Z"
        }
    }

    /// Values across every magnitude the writer meets and beyond, with halves and the edges of the fast paths.
    static func values(count: Int, seed: UInt64) -> [Double] {
        var random = SplitMix64(seed: seed)
        var values: [Double] = [
            0, -0.0, 0.05, 0.15, 0.25, 0.45, 0.5, 1.5, 2.5, -0.05, -0.04, 9.95, 99.95, 359.95, 0.049999999999999996,
            0.44999999999999996, 1e14, 99_999_999_999_999.9, 1e15, 1e16, 9e17, 9e18, 1e19, 1e300, -1e300,
            .nan, .infinity, -.infinity, .leastNonzeroMagnitude, .greatestFiniteMagnitude,
        ]
        for _ in 0..<count {
            let exponent = Int(random.next() % 40) - 20
            var value = Double(random.next() % 1_000_000_000) / 1e9
            for _ in 0..<abs(exponent) { value = exponent < 0 ? value / 10 : value * 10 }
            switch random.next() % 4 {
            case 0: value = (value * 1_000).rounded() / 1_000 + 0.0005  // a decimal half, near enough
            case 1: value = -value
            default: break
            }
            values.append(value)
        }
        return values
    }

    @Test func fixedMatchesTheReferenceForEveryDecimalCount() {
        for value in Self.values(count: 4_000, seed: 0x4669_7865) {
            for decimals in 0...12 {
                var out: [UInt8] = []
                GPSDJSONWriter.appendFixed(value, decimals: decimals, to: &out)
                let written = String(decoding: out, as: UTF8.self)
                #expect(written == Reference.fixed(value, decimals), "\(value) with \(decimals) decimals")
            }
        }
    }

    /// Satellites' elevations, azimuths and signal strengths go through the one-decimal path.
    @Test func satelliteNumbersMatchTheReference() {
        let values = Self.values(count: 3_000, seed: 0x5361_7473)
        var satellites: [Satellite] = []
        for (i, value) in values.enumerated() {
            satellites.append(
                Satellite(
                    prn: i - 5, gnssID: i % 3 == 0 ? nil : i, svID: i % 5 == 0 ? nil : -i, elevation: value,
                    azimuth: values[(i + 1) % values.count], signalStrength: i % 7 == 0 ? nil : value / 3,
                    used: i % 2 == 0))
        }
        var out: [UInt8] = []
        GPSDJSONWriter.appendSKY(SkyView(satellites: satellites), newline: false, to: &out)
        var expected = "{\"class\":\"SKY\",\"nSat\":\(satellites.count),\"uSat\":\((satellites.count + 1) / 2)"
        expected += ",\"satellites\":["
        for (i, s) in satellites.enumerated() {
            if i > 0 { expected += "," }
            expected += "{\"PRN\":\(s.prn)"
            for (key, value) in [("el", s.elevation), ("az", s.azimuth), ("ss", s.signalStrength)] {
                if let value, value.isFinite { expected += ",\"\(key)\":" + Reference.fixed(value, 1) }
            }
            expected += s.used ? ",\"used\":true" : ",\"used\":false"
            if let g = s.gnssID { expected += ",\"gnssid\":\(g)" }
            if let v = s.svID { expected += ",\"svid\":\(v)" }
            expected += "}"
        }
        expected += "]}"
        #expect(String(decoding: out, as: UTF8.self) == expected)
    }

    @Test func timesMatchTheReference() {
        var random = SplitMix64(seed: 0x5469_6D65)
        var times: [Int64] = [0, -1, 86_399_999, 253_402_300_799_999, 253_402_300_800_000, -62_167_219_200_000]
        for _ in 0..<5_000 { times.append(Int64(random.next() % 8_000_000_000_000) - 1_000_000_000_000) }
        for milliseconds in times {
            let time = GNSSTime(millisecondsSince1970: milliseconds)
            var out: [UInt8] = []
            GPSDJSONWriter.appendTime(time, to: &out)
            #expect(String(decoding: out, as: UTF8.self) == Reference.time(time), "\(milliseconds)")
        }
    }
}
