import GNSSProtocol
import Testing

@Suite struct GPSDStreamDecoderTests {
    private func bytes(_ lines: [String]) -> [UInt8] { Array(lines.map { $0 + "\r\n" }.joined().utf8) }

    @Test func decodesSessionAndCountsBadLines() throws {
        var decoder = GPSDStreamDecoder()
        let stream = bytes([
            CapturedLines.version, CapturedLines.devicesEmpty, CapturedLines.watch,
            #"{"class":"TPV","mode":3,"lat":"abc"}"#,
            CapturedLines.tpvFull, CapturedLines.gst,
        ])
        var events: [GPSDStreamEvent] = []
        // Split at an awkward place to exercise reassembly.
        events += try decoder.receive(stream[..<100])
        events += try decoder.receive(stream[100...])
        #expect(events.count == 6)
        #expect(decoder.version?.release == "3.22")
        #expect(decoder.invalidLineCount == 1)
        guard case .invalidLine(.wrongType(className: "TPV", field: "lat", _, _)) = events[3] else {
            Issue.record("bad TPV not reported: \(events[3])")
            return
        }
        guard case .message(.tpv(let fix)) = events[4] else {
            Issue.record("TPV lost")
            return
        }
        #expect(fix.latitude == 49.1261335)
        #expect(events[5] == .message(.other(className: "GST")))
    }

    @Test func reportsOversizedLineAndContinues() throws {
        var decoder = GPSDStreamDecoder(maximumLineLength: 200)
        let long = #"{"class":"SKY","satellites":["# + String(repeating: #"{"PRN":1},"#, count: 40) + #"{"PRN":2}]}"#
        let events = try decoder.receive(bytes([CapturedLines.version, long, CapturedLines.tpvNoFix]))
        #expect(events.count == 3)
        #expect(events[1] == .oversizedLine(byteCount: long.utf8.count + 1))
        #expect(decoder.droppedLineCount == 1)
        guard case .message(.tpv) = events[2] else {
            Issue.record("did not resynchronise")
            return
        }
    }

    @Test func refusesOldProtocol() {
        var decoder = GPSDStreamDecoder()
        let old = #"{"class":"VERSION","release":"2.39","rev":"2.39","proto_major":2,"proto_minor":5}"#
        #expect(throws: GPSDProtocolError.self) { _ = try decoder.receive(bytes([old])) }
        #expect(decoder.version == nil)
    }

    @Test func refusesAPeerThatIsNotGpsd() {
        var decoder = GPSDStreamDecoder()
        let nmea = "$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A"
        #expect(throws: GPSDProtocolError.missingVersionBanner(firstLine: nmea)) {
            _ = try decoder.receive(bytes([nmea]))
        }
        var second = GPSDStreamDecoder()
        #expect(throws: GPSDProtocolError.self) { _ = try second.receive(bytes([CapturedLines.tpvFull])) }
    }
}
