import GNSSProtocol
import Testing

/// u-blox UBX packets between NMEA sentences, as a ZED-F9P sends them (`ublox-zed-f9p_hpg1.11.log` in gpsd's
/// regression logs): framed whole, their leap seconds kept for every later fix, as gpsd 3.22's `driver_ubx.c` does.
@Suite(.hangBound) struct UBXPacketTests {
    /// One cycle of the ZED-F9P's log.
    static let cycle = [
        "$GNVTG,,T,,M,0.214,N,0.396,K,A*36",
        "$GNGGA,011903.00,4552.65550,S,17030.00756,E,1,12,1.17,16.7,M,1.8,M,,*5C",
        "$GNGLL,4552.65550,S,17030.00756,E,011903.00,A,A*64",
    ].map { Array(($0 + "\r\n").utf8) }.joined()

    /// The same cycle a second later.
    static let nextCycle = [
        "$GNVTG,,T,,M,0.187,N,0.347,K,A*33",
        "$GNGGA,011904.00,4552.65551,S,17030.00748,E,1,12,1.17,16.8,M,1.8,M,,*5A",
        "$GNGLL,4552.65551,S,17030.00748,E,011904.00,A,A*6D",
    ].map { Array(($0 + "\r\n").utf8) }.joined()

    /// The cycle a second after ``nextCycle`` (made from it: the receiver's next fix moved by a few millimetres).
    static let thirdCycle = [
        "$GNVTG,,T,,M,0.201,N,0.372,K,A*38",
        "$GNGGA,011905.00,4552.65552,S,17030.00741,E,1,12,1.17,16.8,M,1.8,M,,*51",
        "$GNGLL,4552.65552,S,17030.00741,E,011905.00,A,A*66",
    ].map { Array(($0 + "\r\n").utf8) }.joined()

    /// A UBX packet of `messageClass` and `id` around `payload`, with its Fletcher checksum.
    static func packet(_ messageClass: UInt8, _ id: UInt8, _ payload: [UInt8]) -> [UInt8] {
        let body = [messageClass, id, UInt8(payload.count & 0xFF), UInt8(payload.count >> 8)] + payload
        var a: UInt8 = 0
        var b: UInt8 = 0
        for byte in body {
            a &+= byte
            b &+= a
        }
        return [0xB5, 0x62] + body + [a, b]
    }

    /// UBX-RXM-RAWX with no measurements: `leapS` at 10, `recStat` at 12, as the log's first one (leapS 18).
    static func rawx(leapSeconds: Int8, recStat: UInt8) -> [UInt8] {
        var payload = [UInt8](repeating: 0, count: 16)
        payload[10] = UInt8(bitPattern: leapSeconds)
        payload[12] = recStat
        return packet(0x02, 0x15, payload)
    }

    static func decode(_ bytes: [UInt8]) -> ([Fix], NMEAStatistics) {
        let (events, statistics) = NMEADecoder.decode(bytes)
        return (events.compactMap { if case .fix(let f) = $0 { f } else { nil } }, statistics)
    }

    /// The second cycle is reported at its GLL, which ended the first: the packet after it is in the third cycle's
    /// report, and in no report before it.
    @Test func rawxLeapSecondsReachEveryFixReportedAfterIt() {
        let (fixes, statistics) = Self.decode(
            Array(Self.cycle) + Array(Self.nextCycle) + Self.rawx(leapSeconds: 18, recStat: 1) + Array(Self.thirdCycle))
        #expect(fixes.map(\.leapSeconds) == [nil, nil, 18])
        #expect(statistics.binaryPackets == 1)
        #expect(statistics.noiseBytes == 0)
        #expect(fixes.allSatisfy { $0.latitude != nil })
    }

    @Test func leapSecondsNotMarkedValidAreNotUsed() {
        let (fixes, statistics) = Self.decode(Self.rawx(leapSeconds: 18, recStat: 0) + Array(Self.cycle))
        #expect(fixes.map(\.leapSeconds) == [nil])
        #expect(statistics.binaryPackets == 1)
    }

    @Test func navTimeGPSAndNavTimeLSCarryLeapSeconds() {
        var timeGPS = [UInt8](repeating: 0, count: 16)
        timeGPS[10] = 18
        timeGPS[11] = 0x07
        var timeLS = [UInt8](repeating: 0, count: 24)
        timeLS[9] = 17
        timeLS[23] = 0x03
        let bytes =
            Self.packet(0x01, 0x20, timeGPS) + Array(Self.cycle) + Array(Self.nextCycle)
            + Self.packet(0x01, 0x26, timeLS)
            + Array(Self.thirdCycle)
        #expect(Self.decode(bytes).0.map(\.leapSeconds) == [18, 18, 17])
    }

    /// A packet's bytes are never a sentence, whatever they hold, as gpsd's lexer takes the packet whole.
    @Test func aSentenceInsideAPacketIsNotDecoded() {
        let inside = Array("\r\n$GNGGA,011905.00,4552.65551,S,17030.00748,E,1,12,1.17,16.8,M,1.8,M,,*5B\r\n".utf8)
        let (fixes, statistics) = Self.decode(Self.packet(0x02, 0x13, inside) + Array(Self.cycle))
        #expect(fixes.count == 1)
        #expect(statistics.sentences == 3)
        #expect(statistics.binaryPackets == 1)
    }

    /// Its bytes count as noise, never as a sentence.
    @Test func aPacketWithABadChecksumIsDroppedAndCounted() {
        var bad = Self.rawx(leapSeconds: 18, recStat: 1)
        bad[bad.count - 1] &+= 1
        let (fixes, statistics) = Self.decode(bad + Array(Self.cycle))
        #expect(fixes.map(\.leapSeconds) == [nil])
        #expect(statistics.noiseBytes == bad.count)
        #expect(statistics.badChecksum == 0)
        #expect(statistics.binaryPackets == 0)
        #expect(fixes.count == 1)
    }

    /// A length over gpsd's 9,216-byte limit ends the packet at its header; the sentences after it are decoded.
    @Test func anOverlongLengthDoesNotSwallowTheSentencesAfterIt() {
        let header: [UInt8] = [0xB5, 0x62, 0x02, 0x15, 0x01, 0x24]
        let (fixes, statistics) = Self.decode(header + Array(Self.cycle))
        #expect(fixes.count == 1)
        #expect(statistics.noiseBytes == header.count)
    }

    /// `B5` not followed by `62` is noise, and the byte after it is read afresh.
    @Test func aLoneSyncByteIsNoise() {
        let (fixes, statistics) = Self.decode([0xB5] + Array(Self.cycle))
        #expect(fixes.count == 1)
        #expect(statistics.noiseBytes == 1)
        #expect(statistics.sentences == 3)
    }

    /// Cut at every byte, the stream decodes as it does whole.
    @Test func aPacketSplitAtEveryByteDecodesTheSame() {
        let bytes = Array(Self.cycle) + Self.rawx(leapSeconds: 18, recStat: 1) + Array(Self.nextCycle)
        let whole = Self.decode(bytes).0.map(\.leapSeconds)
        for cut in 1..<bytes.count {
            var decoder = NMEADecoder()
            var fixes: [Fix] = []
            let collect: (NMEAEvent) -> Void = { if case .fix(let f) = $0 { fixes.append(f) } }
            decoder.feed(bytes[..<cut], emit: collect)
            decoder.feed(bytes[cut...], emit: collect)
            decoder.finish(emit: collect)
            #expect(fixes.map(\.leapSeconds) == whole, "cut at \(cut)")
        }
    }
}
