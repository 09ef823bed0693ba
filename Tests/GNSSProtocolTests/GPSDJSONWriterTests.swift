import GNSSProtocol
import Testing

@Suite struct GPSDJSONWriterTests {
    @Test func writesTPVWithGpsdNamesOrderAndPrecision() {
        var fix = Fix(
            mode: .threeD, time: GNSSTime(iso8601: "2018-08-20T09:47:37Z"), latitude: 52.850155,
            longitude: -5.3136166666, altitudeHAE: 42.8, altitudeMSL: -4, geoidSeparation: 46.8,
            speed: 2.8812,
            track: 230.5, device: "stdin")
        fix.status = 2
        var out: [UInt8] = []
        GPSDJSONWriter.appendTPV(fix, to: &out)
        #expect(
            String(decoding: out, as: UTF8.self)
                == "{\"class\":\"TPV\",\"device\":\"stdin\",\"status\":2,\"mode\":3,"
                + "\"time\":\"2018-08-20T09:47:37.000Z\",\"lat\":52.850155000,\"lon\":-5.313616667,"
                + "\"altHAE\":42.8000,\"altMSL\":-4.0000,\"alt\":-4.0000,\"track\":230.5000,\"speed\":2.881,"
                + "\"geoidSep\":46.800}\n")
    }

    @Test func writesSKYAndEscapesTheDevice() {
        let view = SkyView(
            satellites: [
                Satellite(
                    prn: 7, gnssID: 0, svID: 7, elevation: 10, azimuth: 333, signalStrength: 39, used: true)
            ],
            hdop: 0.6, device: "a\"b")
        var out: [UInt8] = []
        GPSDJSONWriter.appendSKY(view, to: &out)
        #expect(
            String(decoding: out, as: UTF8.self)
                == "{\"class\":\"SKY\",\"device\":\"a\\\"b\",\"hdop\":0.60,\"nSat\":1,\"uSat\":1,\"satellites\":"
                + "[{\"PRN\":7,\"el\":10.0,\"az\":333.0,\"ss\":39.0,\"used\":true,\"gnssid\":0,\"svid\":7}]}\n"
        )
    }

    @Test func formatsFixedPointLikePrintf() {
        func text(_ v: Double, _ d: Int) -> String {
            var out: [UInt8] = []
            GPSDJSONWriter.appendFixed(v, decimals: d, to: &out)
            return String(decoding: out, as: UTF8.self)
        }
        #expect(text(-0.0004, 3) == "0.000")
        #expect(text(-1.5, 0) == "-2")
        #expect(text(123.456789, 4) == "123.4568")
        #expect(text(.nan, 2) == "")
    }

    /// The writer formats in a 1 KiB buffer: lines far longer than that (a long escaped device name, a sky with
    /// many satellites) come out whole and in order.
    @Test func linesLongerThanTheFormattingBufferComeOutWhole() throws {
        let device = String(repeating: "dev\"ice\n/", count: 300)
        let escaped = String(repeating: "dev\\\"ice\\n/", count: 300)
        var out: [UInt8] = []
        GPSDJSONWriter.appendTPV(Fix(mode: .noFix, device: device), to: &out)
        #expect(String(decoding: out, as: UTF8.self) == "{\"class\":\"TPV\",\"device\":\"\(escaped)\",\"mode\":1}\n")

        let satellites = (1...90).map {
            Satellite(prn: $0, elevation: -12.26, azimuth: 359.96, signalStrength: 45, used: $0 % 2 == 0)
        }
        out.removeAll()
        GPSDJSONWriter.appendSKY(SkyView(satellites: satellites, device: device), to: &out)
        let line = String(decoding: out, as: UTF8.self)
        #expect(line.hasPrefix("{\"class\":\"SKY\",\"device\":\"\(escaped)\",\"nSat\":90,\"uSat\":45,"))
        #expect(line.contains("{\"PRN\":89,\"el\":-12.3,\"az\":360.0,\"ss\":45.0,\"used\":false},{\"PRN\":90,"))
        #expect(line.hasSuffix("\"used\":true}]}\n"))
        #expect(line.split(separator: "\"PRN\"").count == 91)
    }
}
