import GNSSProtocol
import TestSupport

/// Generates NMEA streams of random fixes: a random talker and sentence order per stream, random motion, and
/// injected corruption (bad checksums, binary noise, truncated and spliced lines, CR-only line ends).
struct NMEAStreamGenerator {
    private var rng: SplitMix64
    private(set) var summary = ""

    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    private static func checksummed(_ body: String, lowercase: Bool = false) -> String {
        NMEAChecksum.sentence(body, lowercase: lowercase, lineEnd: false)
    }

    private static func fixed(_ v: Double, _ decimals: Int, width: Int = 0) -> String {
        var out: [UInt8] = []
        GPSDJSONWriter.appendFixed(v, decimals: decimals, to: &out)
        var s = String(decoding: out, as: UTF8.self)
        while s.count < width { s = "0" + s }
        return s
    }

    private static func angle(_ value: Double, degreesWidth: Int) -> String {
        let a = abs(value)
        var degrees = Int(a)
        var minutes = (a - Double(degrees)) * 60
        if Self.fixed(minutes, 5) == "60.00000" {
            degrees += 1
            minutes = 0
        }
        var d = String(degrees)
        while d.count < degreesWidth { d = "0" + d }
        return d + fixed(minutes, 5, width: 8)
    }

    /// A stream of `cycles` one-second fix cycles.
    mutating func stream(cycles: Int) -> [UInt8] {
        let talkers = ["GP", "GN", "GL", "GA", "GB", "BD"]
        let talker = talkers[Int(rng.next() % UInt64(talkers.count))]
        var order = ["RMC", "GGA", "GSA", "GSV", "VTG", "GLL"]
        order.shuffle(using: &rng)
        let lineEnd = rng.next() % 3 == 0 ? "\n" : "\r\n"
        var lat = Double(rng.next() % 140_000) / 1_000 - 70
        var lon = Double(rng.next() % 340_000) / 1_000 - 170
        var alt = Double(rng.next() % 2_000) - 100
        var time = Int(rng.next() % 86_400)
        var day = 1 + Int(rng.next() % 28)
        let month = 1 + Int(rng.next() % 12)
        let year = 10 + Int(rng.next() % 30)
        summary = "talker \(talker) order \(order.joined(separator: ","))"
        var text = "# generated stream\n"
        for _ in 0..<cycles {
            let hms =
                (time / 3600 < 10 ? "0" : "") + "\(time / 3600)" + (time / 60 % 60 < 10 ? "0" : "")
                + "\(time / 60 % 60)" + (time % 60 < 10 ? "0" : "") + "\(time % 60)" + ".00"
            let date =
                (day < 10 ? "0" : "") + "\(day)" + (month < 10 ? "0" : "") + "\(month)" + "\(year)"
            let latText = Self.angle(lat, degreesWidth: 2) + (lat >= 0 ? ",N" : ",S")
            let lonText = Self.angle(lon, degreesWidth: 3) + (lon >= 0 ? ",E" : ",W")
            let knots = Double(rng.next() % 30_000) / 1_000
            let track = Double(rng.next() % 36_000) / 100
            let satellites = 4 + Int(rng.next() % 9)
            for type in order {
                let body: String
                switch type {
                case "RMC":
                    body =
                        "\(talker)RMC,\(hms),A,\(latText),\(lonText),\(Self.fixed(knots, 3)),"
                        + "\(Self.fixed(track, 2)),\(date),,,A"
                case "GGA":
                    body =
                        "\(talker)GGA,\(hms),\(latText),\(lonText),1,\(satellites < 10 ? "0" : "")\(satellites),"
                        + "0.9,\(Self.fixed(alt, 1)),M,12.5,M,,"
                case "GSA":
                    body = "\(talker)GSA,A,3,02,05,07,09,13,,,,,,,,1.6,0.9,1.3"
                case "GSV":
                    text +=
                        Self.checksummed(
                            "\(talker)GSV,2,1,06,02,45,120,40,05,30,200,35,07,12,300,,09,60,010,44")
                        + lineEnd
                    body = "\(talker)GSV,2,2,06,13,05,080,20,15,70,270,45"
                case "VTG":
                    body =
                        "\(talker)VTG,\(Self.fixed(track, 2)),T,,M,\(Self.fixed(knots, 3)),N,"
                        + "\(Self.fixed(knots * 1.852, 3)),K,A"
                default:
                    body = "\(talker)GLL,\(latText),\(lonText),\(hms),A,A"
                }
                text += Self.checksummed(body, lowercase: rng.next() % 4 == 0) + lineEnd
                // Corruption, never in the sentences that carry the fix: gpsd and we must both skip it.
                switch rng.next() % 40 {
                case 0: text += "\u{1}\u{2}binary\u{7F}noise" + lineEnd
                case 1: text += Self.checksummed("\(talker)ZZZ,1,2,3") + lineEnd
                case 2:
                    text +=
                        String(Self.checksummed("\(talker)GSA,A,3,01,,,,,,,,,,,,1.0,1.0,1.0").dropLast()) + "0"
                        + lineEnd
                case 3: text += "$PGRME,15.0,M,45.0,M,25.0,M*1" + lineEnd
                default: break
                }
            }
            time += 1
            if time == 86_400 {
                time = 0
                day = day % 28 + 1
            }
            lat = max(-80, min(80, lat + Double(Int(rng.next() % 200) - 100) / 100_000))
            lon = max(-179, min(179, lon + Double(Int(rng.next() % 200) - 100) / 100_000))
            alt += Double(Int(rng.next() % 40) - 20) / 10
        }
        return Array(text.utf8)
    }
}
