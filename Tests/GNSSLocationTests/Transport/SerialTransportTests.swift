import GNSSLocation
import Glibc
import SingletonRegistry
import TestSupport
import Testing

@Suite(.hangBound) struct SerialTransportTests {
    static let nmea =
        "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47\r\n"
        + "$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A\r\n"

    @Test(arguments: [9_600, 115_200]) func readsRawBytesAtBaud(baud: Int) async throws {
        let pty = try PseudoTerminal()
        let channel = try ByteChannel.open(.serial(path: pty.slavePath, baud: baud))
        var settings = termios()
        try #require(tcgetattr(channel.fileDescriptor, &settings) == 0)
        #expect(cfgetispeed(&settings) == speed_t(baud == 9_600 ? B9600 : B115200))
        #expect(settings.c_lflag & tcflag_t(ICANON | ECHO) == 0)
        #expect(settings.c_cflag & tcflag_t(CSIZE) == tcflag_t(CS8))
        #expect(settings.c_cflag & tcflag_t(CLOCAL | CREAD) == tcflag_t(CLOCAL | CREAD))
        #expect(settings.c_cflag & tcflag_t(PARENB | CSTOPB) == 0)

        var events = EventCollector(ByteReader(channel: channel))
        // Raw mode: CR LF must arrive untouched (a cooked terminal would turn CR into LF and echo back).
        try writeAll(pty.master, Self.nmea)
        let received = await events.bytes(count: Self.nmea.utf8.count)
        #expect(String(decoding: received, as: UTF8.self) == Self.nmea)
        #expect(readBytes(pty.master, count: 1, timeoutMs: 0) == [], "the terminal echoed input")

        try channel.write(Array("$PMTK220,1000*1F\r\n".utf8))
        #expect(String(decoding: readBytes(pty.master, count: 18), as: UTF8.self) == "$PMTK220,1000*1F\r\n")

        pty.closeMaster()
        #expect(await events.untilEnd().end == .hangUp)
    }

    @Test func rejectsUnsupportedBaudRate() throws {
        let pty = try PseudoTerminal()
        let error = try #require(
            sourceError { () throws(SourceError) in try ByteChannel.open(.serial(path: pty.slavePath, baud: 1_234)) })
        #expect(error.operation == .configure)
        #expect(
            error.description.hasPrefix(
                "cannot configure \(pty.slavePath): unsupported baud rate 1234 (supported: 4800, 9600"))
        #expect(
            ByteChannel.supportedBaudRates == [
                4_800, 9_600, 19_200, 38_400, 57_600, 115_200, 230_400, 460_800, 921_600,
            ])
    }

    @Test func namesAMissingDevice() {
        let error = sourceError { () throws(SourceError) in
            try ByteChannel.open(.serial(path: "/dev/ttyNOSUCH0", baud: 4_800))
        }
        #expect(error?.description == "cannot open /dev/ttyNOSUCH0: No such file or directory")
        #expect(error?.errorNumber == ENOENT)
    }

    @Test func refusesADeviceThatIsNotATerminal() {
        let error = sourceError { () throws(SourceError) in
            try ByteChannel.open(.serial(path: "/dev/null", baud: 4_800))
        }
        #expect(error?.operation == .configure)
        #expect(error?.errorNumber == ENOTTY)
        #expect(error?.description.hasPrefix("cannot configure /dev/null: not a serial device") == true)
    }

    @Test func stopEndsAReaderOnASilentReceiver() async throws {
        let pty = try PseudoTerminal()
        let reader = ByteReader(channel: try ByteChannel.open(.serial(path: pty.slavePath, baud: 4_800)))
        var events = EventCollector(reader)
        try writeAll(pty.master, "$")
        #expect(await events.bytes(count: 1) == [UInt8(ascii: "$")])
        reader.stop()
        #expect(await events.untilEnd().end == .stopped)
    }
}
