/// Follows one u-blox UBX packet through a byte stream that mixes them with NMEA sentences, as gpsd's packet lexer
/// does: `B5 62`, class, id, a little-endian length, the payload and a two-byte Fletcher checksum over all but the
/// sync bytes.
///
/// The bytes of a packet are never taken for sentences or noise, whatever they hold (a `$`, a line end). Of the
/// packets, only the leap seconds are used, from the three that carry them, with gpsd 3.22's validity flags
/// (`driver_ubx.c`): UBX-RXM-RAWX (`leapS`, valid when `recStat` bit 0 is set), UBX-NAV-TIMEGPS (`leapS`, read
/// unsigned, valid when `valid` bit 2 is set) and UBX-NAV-TIMELS (`currLs`, valid when `valid` bit 0 is set). A
/// packet is used only when its checksum matches; a length over gpsd's 9,216-byte packet limit ends the packet at
/// once, as gpsd's lexer returns to looking for a start there.
struct UBXPacketScanner: Sendable {
    /// gpsd's `MAX_PACKET_LENGTH`: the longest payload a packet may declare.
    static let maximumPayloadLength = 9216

    /// What ``feed(_:from:count:)`` found.
    enum Outcome: Equatable, Sendable {
        /// The chunk ended inside the packet: more bytes are needed.
        case needsMore
        /// The byte after `B5` was not `62`: no packet; the byte at the returned position is not consumed.
        case notAPacket
        /// A packet ended with its checksum; `leapSeconds` is the GPS−UTC offset it states, if any.
        case packet(leapSeconds: Int?)
        /// A packet whose length is over the limit or whose checksum does not match, dropped: its bytes
        /// (``bytesRead``) are noise.
        case dropped
    }

    /// Where a packet's leap seconds are and when they are valid.
    private struct LeapField: Sendable {
        var offset: Int
        var isSigned: Bool
        var flagOffset: Int
        var flagMask: UInt8
        var minimumLength: Int
    }

    /// Header bytes read after `B5` (the second sync byte counts as the first): 0 to 5.
    private var headerBytes = 0
    private var length = 0
    private var payloadRead = 0
    private var checksumA: UInt8 = 0
    private var checksumB: UInt8 = 0
    private var checksumBytes = 0
    private var expectedA: UInt8 = 0
    private var messageClass: UInt8 = 0
    private var leapField: LeapField?
    private var leapByte: UInt8 = 0
    private var flagByte: UInt8 = 0

    /// The bytes of the packet read so far, `B5` included: what a dropped packet counts as noise.
    var bytesRead: Int { 1 + headerBytes + payloadRead + checksumBytes }

    /// Starts a packet: the `B5` was just read.
    mutating func begin() {
        self = UBXPacketScanner()
    }

    private mutating func sum(_ byte: UInt8) {
        checksumA &+= byte
        checksumB &+= checksumA
    }

    private static func leapField(messageClass: UInt8, id: UInt8) -> LeapField? {
        switch (messageClass, id) {
        case (0x02, 0x15): LeapField(offset: 10, isSigned: true, flagOffset: 12, flagMask: 0x01, minimumLength: 16)
        case (0x01, 0x20): LeapField(offset: 10, isSigned: false, flagOffset: 11, flagMask: 0x04, minimumLength: 16)
        case (0x01, 0x26): LeapField(offset: 9, isSigned: true, flagOffset: 23, flagMask: 0x01, minimumLength: 24)
        default: nil
        }
    }

    /// Reads the packet's bytes from `p[start]` up to `p[count]`; returns where it stopped and what it found.
    mutating func feed(_ p: UnsafePointer<UInt8>, from start: Int, count n: Int) -> (next: Int, outcome: Outcome) {
        var i = start
        while i < n, headerBytes < 5 {
            let c = p[i]
            switch headerBytes {
            case 0: if c != 0x62 { return (i, .notAPacket) }
            case 1: messageClass = c
            case 2: leapField = Self.leapField(messageClass: messageClass, id: c)
            case 3: length = Int(c)
            default:
                length |= Int(c) << 8
                if length > Self.maximumPayloadLength {
                    headerBytes += 1
                    return (i + 1, .dropped)
                }
            }
            if headerBytes != 0 { sum(c) }
            headerBytes += 1
            i += 1
        }
        while i < n, payloadRead < length {
            let c = p[i]
            if let field = leapField {
                if payloadRead == field.offset { leapByte = c }
                if payloadRead == field.flagOffset { flagByte = c }
            }
            sum(c)
            payloadRead += 1
            i += 1
        }
        while i < n, headerBytes == 5, payloadRead == length, checksumBytes < 2 {
            if checksumBytes == 0 {
                expectedA = p[i]
            } else if expectedA != checksumA || p[i] != checksumB {
                checksumBytes += 1
                return (i + 1, .dropped)
            }
            checksumBytes += 1
            i += 1
        }
        guard checksumBytes == 2 else { return (i, .needsMore) }
        guard let field = leapField, length >= field.minimumLength, flagByte & field.flagMask != 0 else {
            return (i, .packet(leapSeconds: nil))
        }
        return (i, .packet(leapSeconds: field.isSigned ? Int(Int8(bitPattern: leapByte)) : Int(leapByte)))
    }
}
