import SingletonDaemon
import Testing

@Suite(.timeLimit(.minutes(3))) struct DecodeCommandTests {
    @Test func unreadableFileExitsWithStatus1() {
        #expect(DecodeCommand.run(["/nonexistent/singletond-decode-test.nmea"]) == 1)
    }

    @Test func badArgumentsExitWithUsageStatus64() {
        #expect(DecodeCommand.run(["--bogus"]) == 64)
        #expect(DecodeCommand.run(["a.nmea", "b.nmea"]) == 64)
        #expect(DecodeCommand.run(["--device"]) == 64)
    }
}
