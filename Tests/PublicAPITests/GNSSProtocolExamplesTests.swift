// The code of GNSSProtocol's DocC catalog, compiled as a user compiles it. GNSSLocation's landing page shows the
// README's `firstPositions`, compiled in ReadmeExamplesTests.
import GNSSProtocol
import Testing

/// GNSSProtocol.md: the fixes of an NMEA log.
func positions(in log: [UInt8]) -> [Fix] {
    var decoder = NMEADecoder(device: "log")
    var fixes: [Fix] = []
    decoder.feed(log) { event in
        if case .fix(let fix) = event, fix.latitude != nil { fixes.append(fix) }
    }
    decoder.finish { event in
        if case .fix(let fix) = event, fix.latitude != nil { fixes.append(fix) }
    }
    return fixes
}

@Suite struct GNSSProtocolExamplesTests {
    @Test func aLogOfOneCycleGivesOneFix() throws {
        let log = Array(
            (NMEAChecksum.sentence("GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
                + NMEAChecksum.sentence("GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W")).utf8)
        let fixes = positions(in: log)
        let fix = try #require(fixes.first)
        #expect(fixes.count == 1)
        #expect(abs((fix.latitude ?? 0) - 48.1173) < 1e-6)
        #expect(abs((fix.longitude ?? 0) - 11.516_666_7) < 1e-6)
    }
}
