import GNSSProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// The hop-bench case for the NMEA decoder: parse-only throughput (bytes in, fixes out, no output).
enum NMEADecodeBenchmark {
    /// The result of one measurement.
    struct Result {
        var sentences: Int
        var bytes: Int
        var seconds: Double
        var fixes: Int
        var sentencesPerSecond: Double { Double(sentences) / seconds }
        var megabytesPerSecond: Double { Double(bytes) / 1e6 / seconds }
    }

    /// A synthetic 1 Hz stream (RMC, VTG, GGA, GSA, 3×GSV, GLL per cycle) of `cycles` cycles.
    static func input(cycles: Int) -> [UInt8] {
        func line(_ body: String) -> String {
            var sum: UInt8 = 0
            for c in body.utf8 { sum ^= c }
            let hex = Array("0123456789ABCDEF".utf8)
            return "$" + body + "*"
                + String(decoding: [hex[Int(sum >> 4)], hex[Int(sum & 15)]], as: UTF8.self)
                + "\r\n"
        }
        var text = ""
        for c in 0..<cycles {
            let t = c % 86_400
            let hms =
                String(100 + t / 3600).dropFirst() + String(100 + t / 60 % 60).dropFirst()
                + String(100 + t % 60).dropFirst()
            text += line("GPRMC,\(hms).00,A,4807.038,N,01131.000,E,022.4,084.4,230326,003.1,W,A")
            text += line("GPVTG,084.4,T,087.5,M,022.4,N,041.5,K,A")
            text += line("GPGGA,\(hms).00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
            text += line("GPGSA,A,3,04,05,09,12,17,24,25,29,,,,,1.8,0.9,1.5")
            text += line("GPGSV,3,1,11,04,45,100,40,05,30,200,35,09,12,300,38,12,60,010,44")
            text += line("GPGSV,3,2,11,17,45,100,40,24,30,200,35,25,12,300,38,29,60,010,44")
            text += line("GPGSV,3,3,11,31,05,080,20,32,70,270,45,02,10,020,30")
            text += line("GPGLL,4807.038,N,01131.000,E,\(hms).00,A,A")
        }
        return Array(text.utf8)
    }

    /// Decodes `input` `repetitions` times and reports the best pass.
    static func measure(_ input: [UInt8], repetitions: Int = 5) -> Result {
        var sentences = 0
        for b in input where b == UInt8(ascii: "$") { sentences += 1 }
        var best = Double.infinity
        var fixes = 0
        for _ in 0..<repetitions {
            var decoder = NMEADecoder()
            var count = 0
            let start = now()
            input.withUnsafeBytes { decoder.feed($0) { if case .fix = $0 { count += 1 } } }
            decoder.finish { if case .fix = $0 { count += 1 } }
            best = min(best, now() - start)
            fixes = count
        }
        return Result(sentences: sentences, bytes: input.count, seconds: best, fixes: fixes)
    }

    /// Runs the case and prints one line.
    static func run() {
        let r = measure(input(cycles: 100_000))
        print(
            "nmea-decode: \(Int(r.sentencesPerSecond)) sentences/s, "
                + "\(Int(r.megabytesPerSecond)) MB/s, \(r.fixes) fixes from \(r.sentences) sentences")
    }

    private static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
