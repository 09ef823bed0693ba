import SingletondCore
import TestSupport
import Testing

@Suite(.hangBound) struct DecodeCommandTests {
    @Test func unreadableFileExitsWithStatus1() {
        #expect(DecodeCommand.run(["/nonexistent/singletond-decode-test.nmea"]) == 1)
    }

    @Test func badArgumentsExitWithUsageStatus64() {
        #expect(DecodeCommand.run(["--bogus"]) == 64)
        #expect(DecodeCommand.run(["a.nmea", "b.nmea"]) == 64)
        #expect(DecodeCommand.run(["--device"]) == 64)
    }

    @Test func argumentsNameTheInputAndTheDevice() throws {
        #expect(try DecodeCommand.parse([]) == .decode(input: "-", device: nil))
        #expect(try DecodeCommand.parse(["-"]) == .decode(input: "-", device: nil))
        #expect(try DecodeCommand.parse(["log.nmea"]) == .decode(input: "log.nmea", device: nil))
        #expect(
            try DecodeCommand.parse(["--device", "/dev/ttyUSB0", "log.nmea"])
                == .decode(input: "log.nmea", device: "/dev/ttyUSB0"))
        #expect(try DecodeCommand.parse(["log.nmea", "--help"]) == .help)
    }

    @Test func weekRolloverIsAsSentUnlessGpsdIsAskedFor() throws {
        #expect(try DecodeCommand.parse(["log.nmea"]) == .decode(input: "log.nmea", device: nil, weekRollover: .asSent))
        #expect(
            try DecodeCommand.parse(["--week-rollover", "gpsd", "log.nmea"])
                == .decode(input: "log.nmea", device: nil, weekRollover: .gpsd))
        #expect(
            try DecodeCommand.parse(["--week-rollover", "as-sent", "-"])
                == .decode(input: "-", device: nil, weekRollover: .asSent))
    }

    @Test(arguments: [
        (["--bogus"], "unknown option '--bogus'"),
        (["a.nmea", "b.nmea"], "more than one input"),
        (["-", "-"], "more than one input"),
        (["--device"], "--device needs a name"),
        (["--week-rollover"], "--week-rollover needs as-sent or gpsd"),
        (["--week-rollover", "1024"], "--week-rollover takes as-sent or gpsd, not '1024'"),
    ])
    func wrongArgumentsAreUsageErrors(arguments: [String], expected: String) {
        #expect(throws: UsageError(expected)) { try DecodeCommand.parse(arguments) }
    }
}
