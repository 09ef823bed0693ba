import GNSSProtocol
import Glibc

/// The NMEA track built into the daemon: five minutes of a walk around the pond in Amsterdam's Vondelpark,
/// generated in code, so that `singletond` with no arguments shows fixes at once with nothing installed.
///
/// One cycle a second, each with RMC, GGA, GSA and GSV sentences (correct checksums, CRLF) as a u-blox receiver
/// sends them: half a minute standing at the gate, a walk that speeds up to a jog, fifteen seconds without a fix
/// under the bridge (RMC status V, GGA quality 0, GSA mode 1, weak signals), five seconds of 2D recovery, then a
/// walk back that slows to a stop where it started, so the looped replay continues without a jump. Positions carry
/// a metre or two of correlated noise, like a real receiver's. The bytes are the same on every run.
package enum DemoTrack {
    /// The name the daemon gives the source (`demo`).
    package static let name = "demo"
    /// The length of one pass, in seconds.
    package static let duration = 300
    /// When the first cycle was "recorded".
    package static let startTime = GNSSTime(year: 2026, month: 5, day: 16, hour: 9, minute: 30, second: 0)!
    /// The seconds (from the start of a pass) without a fix.
    package static let outage = 210..<225
    /// The seconds of 2D fixes after the outage.
    package static let recovery2D = 225..<230

    private static let origin = (latitude: 52.358_150, longitude: 4.868_430)
    private static let geoidSeparation = 46.2
    private static let satellites: [(prn: Int, elevation: Double, azimuth: Double, strength: Double)] = [
        (2, 64, 112, 44), (5, 41, 281, 41), (7, 23, 47, 36), (9, 12, 320, 30), (13, 55, 201, 43),
        (15, 30, 160, 39), (18, 8, 15, 25), (20, 72, 250, 45), (26, 17, 95, 33), (29, 36, 8, 40),
    ]

    /// The track's NMEA bytes, one pass.
    package static func nmea() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(duration * 420)
        var random = SplitMix64(seed: 0x5EED_0D0C)
        var noise = (north: 0.0, east: 0.0, up: 0.0)
        let path = Path(totalLength: totalDistance)
        var travelled = 0.0
        for second in 0..<duration {
            let speed = speed(at: second)
            let (north, east, heading) = path.point(at: travelled)
            travelled += speed
            noise.north = 0.85 * noise.north + random.gaussian() * 0.45
            noise.east = 0.85 * noise.east + random.gaussian() * 0.45
            noise.up = 0.9 * noise.up + random.gaussian() * 0.6
            let scale = SurveyAccumulator.metresPerDegree(latitude: origin.latitude)
            let latitude = origin.latitude + (north + noise.north) / scale.north
            let longitude = origin.longitude + (east + noise.east) / scale.east
            let altitudeMSL = 1.8 + 0.6 * sin(Double(second) / 40) + noise.up
            let time = GNSSTime(millisecondsSince1970: startTime.millisecondsSince1970 + Int64(second) * 1_000)
            let cycle = Cycle(
                second: second, time: time, latitude: latitude, longitude: longitude, altitudeMSL: altitudeMSL,
                speed: speed + (speed > 0 ? random.gaussian() * 0.05 : 0), heading: heading)
            append(cycle, random: &random, to: &out)
        }
        return out
    }

    /// The speed in metres per second at `second`: standing, walking, speeding up to a jog, walking back, stopping.
    static func speed(at second: Int) -> Double {
        let t = Double(second)
        switch second {
        case ..<30: return 0
        case 30..<40: return 1.4 * (t - 30) / 10
        case 40..<130: return 1.4 + 0.1 * sin(t / 9)
        case 130..<150: return 1.4 + 1.6 * (t - 130) / 20
        case 150..<225: return 3.0 + 0.15 * sin(t / 7)
        case 225..<240: return 3.0 - 1.7 * (t - 225) / 15
        case 240..<285: return 1.3
        case 285..<duration: return 1.3 * Double(duration - 1 - second) / Double(duration - 1 - 285)
        default: return 0
        }
    }

    private static var totalDistance: Double {
        (0..<duration).reduce(0) { $0 + speed(at: $1) }
    }

    private struct Cycle {
        var second: Int
        var time: GNSSTime
        var latitude: Double
        var longitude: Double
        var altitudeMSL: Double
        var speed: Double
        var heading: Double
    }

    private static func append(_ cycle: Cycle, random: inout SplitMix64, to out: inout [UInt8]) {
        let c = cycle.time.components
        let hhmmss = pad(c.hour, 2) + pad(c.minute, 2) + pad(c.second, 2) + ".00"
        let date = pad(c.day, 2) + pad(c.month, 2) + pad(c.year % 100, 2)
        let lost = outage.contains(cycle.second)
        let twoD = recovery2D.contains(cycle.second)
        let lat = coordinate(abs(cycle.latitude), degreeDigits: 2) + (cycle.latitude >= 0 ? ",N" : ",S")
        let lon = coordinate(abs(cycle.longitude), degreeDigits: 3) + (cycle.longitude >= 0 ? ",E" : ",W")

        // Signal strengths: steady in the open, falling under the bridge, coming back after it.
        var inView: [(prn: Int, elevation: Int, azimuth: Int, strength: Int?)] = []
        for (index, satellite) in satellites.enumerated() {
            let drift = Double(cycle.second) / 120
            let elevation = Int((satellite.elevation + drift * (index.isMultiple(of: 2) ? 1 : -1)).rounded())
            let azimuth = Int((satellite.azimuth + drift * 2).truncatingRemainder(dividingBy: 360))
            var strength: Double? = satellite.strength + random.gaussian() * 1.5
            if lost {
                strength = index < 3 ? satellite.strength - 22 + random.gaussian() : nil
            } else if twoD {
                strength = index < 5 ? satellite.strength - 8 + random.gaussian() : nil
            }
            inView.append((satellite.prn, max(elevation, 1), azimuth, strength.map { Int($0.rounded()) }))
        }
        let used = inView.filter { ($0.strength ?? 0) >= 20 && $0.elevation >= 10 }.map(\.prn).prefix(12)
        let hdop = lost ? 99.99 : twoD ? 2.6 : 0.9 + Double(10 - used.count) * 0.12
        let pdop = lost ? 99.99 : twoD ? 3.4 : hdop + 0.6
        let vdop = lost ? 99.99 : twoD ? 2.1 : hdop * 1.3

        if lost {
            sentence("GPRMC,\(hhmmss),V,,,,,,,\(date),,,N", &out)
            sentence("GPGGA,\(hhmmss),,,,,0,00,99.99,,,,,,", &out)
        } else {
            let knots = cycle.speed * 3_600 / 1_852
            let course = cycle.speed > 0.2 ? fixed(cycle.heading, 2) : ""
            sentence("GPRMC,\(hhmmss),A,\(lat),\(lon),\(fixed(max(knots, 0), 3)),\(course),\(date),,,A", &out)
            // A 2D fix has no usable altitude: the receiver leaves it out.
            let altitude = twoD ? "," : "\(fixed(cycle.altitudeMSL, 1)),M"
            sentence(
                "GPGGA,\(hhmmss),\(lat),\(lon),1,\(pad(used.count, 2)),\(fixed(hdop, 2)),\(altitude),"
                    + "\(fixed(geoidSeparation, 1)),M,,", &out)
        }
        var gsa = "GPGSA,A,\(lost ? 1 : twoD ? 2 : 3)"
        for index in 0..<12 { gsa += "," + (index < used.count && !lost ? pad(used[index], 2) : "") }
        gsa += ",\(fixed(pdop, 2)),\(fixed(hdop, 2)),\(fixed(vdop, 2))"
        sentence(gsa, &out)
        let messages = (inView.count + 3) / 4
        for message in 0..<messages {
            var gsv = "GPGSV,\(messages),\(message + 1),\(pad(inView.count, 2))"
            for satellite in inView[(message * 4)..<min(inView.count, message * 4 + 4)] {
                gsv += ",\(pad(satellite.prn, 2)),\(pad(satellite.elevation, 2)),\(pad(satellite.azimuth, 3)),"
                gsv += satellite.strength.map { pad($0, 2) } ?? ""
            }
            sentence(gsv, &out)
        }
    }

    /// Appends `$BODY*HH\r\n`.
    static func sentence(_ body: String, _ out: inout [UInt8]) {
        NMEAChecksum.appendSentence(body, to: &out)
    }

    /// `DDMM.MMMMM` (or `DDDMM.MMMMM`) for NMEA.
    private static func coordinate(_ degrees: Double, degreeDigits: Int) -> String {
        var whole = Int(degrees)
        var minutes = (degrees - Double(whole)) * 60
        if (minutes * 100_000).rounded() >= 6_000_000 {
            whole += 1
            minutes = 0
        }
        let minuteText = fixed(minutes, 5)
        return pad(whole, degreeDigits) + (minutes < 10 ? "0" : "") + minuteText
    }

    private static func fixed(_ value: Double, _ decimals: Int) -> String {
        var bytes: [UInt8] = []
        GPSDJSONWriter.appendFixed(value, decimals: decimals, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func pad(_ value: Int, _ digits: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    /// A closed loop around the pond, walked by distance: metres north and east of the gate, and the heading.
    private struct Path {
        private var points: [(north: Double, east: Double)] = []
        private var cumulative: [Double] = []

        init(totalLength: Double) {
            // A lopsided oval with a bend on the far side; starts and ends at the gate (0, 0).
            var raw: [(north: Double, east: Double)] = []
            let count = 720
            for i in 0...count {
                let t = Double(i) / Double(count) * 2 * .pi
                let north = 1.0 - cos(t) + 0.25 * sin(2 * t)
                let east = 1.9 * sin(t) + 0.15 * sin(3 * t)
                raw.append((north, east))
            }
            var lengths = [0.0]
            for i in 1..<raw.count {
                let dn = raw[i].north - raw[i - 1].north
                let de = raw[i].east - raw[i - 1].east
                lengths.append(lengths[i - 1] + (dn * dn + de * de).squareRoot())
            }
            let scale = totalLength / lengths.last!
            points = raw.map { ($0.north * scale, $0.east * scale) }
            cumulative = lengths.map { $0 * scale }
        }

        func point(at distance: Double) -> (north: Double, east: Double, heading: Double) {
            let total = cumulative.last!
            var d = distance.truncatingRemainder(dividingBy: total)
            if d < 0 { d += total }
            var low = 0
            var high = cumulative.count - 1
            while high - low > 1 {
                let mid = (low + high) / 2
                if cumulative[mid] <= d { low = mid } else { high = mid }
            }
            let span = cumulative[high] - cumulative[low]
            let f = span > 0 ? (d - cumulative[low]) / span : 0
            let a = points[low]
            let b = points[high]
            var heading = atan2(b.east - a.east, b.north - a.north) * 180 / .pi
            if heading < 0 { heading += 360 }
            return (a.north + (b.north - a.north) * f, a.east + (b.east - a.east) * f, heading)
        }
    }

    /// A small deterministic generator, so the track is the same bytes on every run.
    private struct SplitMix64 {
        var state: UInt64

        init(seed: UInt64) { state = seed }

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }

        /// A standard normal deviate (Box–Muller).
        mutating func gaussian() -> Double {
            let u1 = (Double(next() >> 11) + 1) / 9_007_199_254_740_992
            let u2 = Double(next() >> 11) / 9_007_199_254_740_992
            return (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
        }
    }
}
