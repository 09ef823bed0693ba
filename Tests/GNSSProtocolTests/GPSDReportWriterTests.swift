import GNSSProtocol
import Testing

/// A writer kept from line to line (the decoder's and the daemon's) writes what a fresh one writes for each line.
@Suite struct GPSDReportWriterTests {
    /// `time` as the writer's uncached formatter writes it.
    private func text(_ time: GNSSTime) -> String {
        var out: [UInt8] = []
        GPSDJSONWriter.appendTime(time, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Times on the same day, across midnight, before 1970, at the ends of years 0 and 9999 and beyond them: each
    /// line has the time the uncached formatter gives, whatever day the line before had.
    @Test func eachLineHasItsOwnDate() {
        let day: Int64 = 86_400_000
        let milliseconds: [Int64] = [
            1_529_000_000_123, 1_529_000_001_000, 1_529_000_000_000 + day, 1_529_000_000_000, -1, 0, -day,
            -62_167_219_200_000, -62_167_219_200_001, 253_402_300_799_999, 253_402_300_800_000, 1_529_000_000_999,
            -62_167_219_200_000 - 400 * day, 1_529_000_000_999 + 7 * day,
        ]
        var writer = GPSDReportWriter()
        for ms in milliseconds {
            let time = GNSSTime(millisecondsSince1970: ms)
            var tpv: [UInt8] = []
            writer.appendTPV(Fix(mode: .noFix, time: time), to: &tpv)
            #expect(
                String(decoding: tpv, as: UTF8.self) == "{\"class\":\"TPV\",\"mode\":1,\"time\":\"\(text(time))\"}\n",
                "\(ms)")
            var sky: [UInt8] = []
            writer.appendSKY(SkyView(time: time), newline: false, to: &sky)
            #expect(
                String(decoding: sky, as: UTF8.self)
                    == "{\"class\":\"SKY\",\"time\":\"\(text(time))\",\"nSat\":0,\"uSat\":0,\"satellites\":[]}",
                "\(ms)")
        }
    }

    /// The device member follows each line's device: a new name, one that needs escapes, none, a name longer
    /// than the formatting buffer, and a return to the first.
    @Test func eachLineHasItsOwnDevice() {
        let devices: [String?] = ["stdin", "stdin", "a\"b\n", nil, String(repeating: "x\\", count: 700), "stdin"]
        var writer = GPSDReportWriter()
        for device in devices {
            var kept: [UInt8] = []
            writer.appendTPV(Fix(mode: .twoD, latitude: 1.5, longitude: -2, device: device), to: &kept)
            var fresh: [UInt8] = []
            GPSDJSONWriter.appendTPV(Fix(mode: .twoD, latitude: 1.5, longitude: -2, device: device), to: &fresh)
            #expect(kept == fresh)
            var expected = "{\"class\":\"TPV\""
            if let device {
                var name: [UInt8] = []
                GPSDJSONWriter.appendString(device, to: &name)
                expected += ",\"device\":" + String(decoding: name, as: UTF8.self)
            }
            expected += ",\"mode\":2,\"lat\":1.500000000,\"lon\":-2.000000000}\n"
            #expect(String(decoding: kept, as: UTF8.self) == expected)
        }
    }
}
