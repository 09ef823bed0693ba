import GNSSLocation
import Glibc
import SingletondCore
import Testing

/// Which source a `--nmea PATH` becomes: a terminal is a serial receiver, any other path is read as a file, and
/// `--baud` makes any path a serial device.
@Suite struct SourceOptionTests {
    @Test func aCharacterDeviceThatIsNoTerminalIsReadAsAFile() {
        #expect(
            Singletond.locationSource(for: .nmea(path: "/dev/urandom", baud: nil)) == .nmeaFile(path: "/dev/urandom"))
        #expect(Singletond.locationSource(for: .nmea(path: "/dev/null", baud: nil)) == .nmeaFile(path: "/dev/null"))
        #expect(
            Singletond.locationSource(for: .nmea(path: "/dev/null", baud: nil), replaySpeed: 2)
                == .nmeaFile(path: "/dev/null", pacing: .timestamps(speed: 2)))
    }

    @Test func aTerminalIsASerialReceiverAt9600Baud() throws {
        var master: Int32 = -1
        var slave: Int32 = -1
        try #require(openpty(&master, &slave, nil, nil, nil) == 0)
        defer {
            close(master)
            close(slave)
        }
        let path = String(cString: ttyname(slave))
        #expect(Singletond.locationSource(for: .nmea(path: path, baud: nil)) == .nmeaSerial(path: path, baud: 9_600))
    }

    @Test func baudMakesAnyPathASerialDevice() {
        #expect(
            Singletond.locationSource(for: .nmea(path: "/dev/urandom", baud: 4_800))
                == .nmeaSerial(path: "/dev/urandom", baud: 4_800))
    }
}
