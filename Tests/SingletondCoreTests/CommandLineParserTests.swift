import SingletondCore
import Testing

@Suite struct CommandLineParserTests {
    private func run(_ arguments: [String]) throws -> RunOptions {
        guard case .run(let options) = try CommandLineParser.parse(arguments) else {
            Issue.record("\(arguments) is not a run command")
            return RunOptions()
        }
        return options
    }

    private func usageError(_ arguments: [String]) -> String? {
        do {
            _ = try CommandLineParser.parse(arguments)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func noArgumentsRunsTheDemoWithDefaults() throws {
        let options = try run([])
        #expect(options == RunOptions(source: .demo, control: nil, output: "-", logLevel: .info, surveySeconds: 60))
    }

    @Test func bareSourceFlagMeansRun() throws {
        #expect(try run(["--gpsd"]).source == .gpsd(host: "127.0.0.1", port: 2947))
        #expect(try run(["run", "--gpsd"]).source == .gpsd(host: "127.0.0.1", port: 2947))
        #expect(try run(["--gpsd", "gps.local:3000"]).source == .gpsd(host: "gps.local", port: 3000))
        #expect(try run(["--gpsd=10.0.0.2"]).source == .gpsd(host: "10.0.0.2", port: 2947))
        #expect(try run(["--gpsd", "[::1]:2948"]).source == .gpsd(host: "::1", port: 2948))
        #expect(try run(["--gpsd", "--log-level", "debug"]).logLevel == .debug)
    }

    @Test func nmeaSources() throws {
        #expect(try run(["run", "--nmea", "-"]).source == .nmea(path: "-", baud: nil))
        #expect(try run(["--nmea", "/var/log/track.nmea"]).source == .nmea(path: "/var/log/track.nmea", baud: nil))
        #expect(
            try run(["--nmea", "/dev/ttyUSB0", "--baud", "4800"]).source == .nmea(path: "/dev/ttyUSB0", baud: 4800))
        #expect(try run(["--baud=115200", "--nmea=/dev/ttyACM0"]).source == .nmea(path: "/dev/ttyACM0", baud: 115_200))
        #expect(try run(["--nmea-tcp", "192.168.1.10:10110"]).source == .nmeaTCP(host: "192.168.1.10", port: 10110))
        #expect(try run(["--demo"]).source == .demo)
    }

    @Test func runOptions() throws {
        let options = try run([
            "run", "--demo", "--control", "/run/singletond/control.sock", "--output", "/var/lib/fixes.json",
            "--log-level", "warning", "--survey-seconds", "300", "--stop-timeout", "0.25",
        ])
        #expect(options.control == "/run/singletond/control.sock")
        #expect(options.output == "/var/lib/fixes.json")
        #expect(options.logLevel == .warning)
        #expect(options.surveySeconds == 300)
        #expect(options.stopTimeout == .milliseconds(250))
        #expect(try run([]).stopTimeout == .milliseconds(1_800))
        #expect(try run(["--output", "-"]).output == "-")
        #expect(try run(["--output=fixes.json"]).output == "fixes.json")
        #expect(try run([]).listen == nil, "the gpsd listener is off unless asked for")
        #expect(try run(["--nmea", "log", "--listen", "2947"]).listen == ListenAddress(port: 2947))
        #expect(try run(["--listen=0.0.0.0:2948"]).listen == ListenAddress(octets: [0, 0, 0, 0], port: 2948))
        #expect(try run(["--nmea", "log", "--replay-speed", "10"]).replaySpeed == 10)
        #expect(try run(["--nmea", "log", "--replay-speed", "0.001"]).replaySpeed == 0.001)
        #expect(try run(["--nmea", "log", "--replay-speed", "1000"]).replaySpeed == 1_000)
        #expect(try run(["--nmea", "log"]).replaySpeed == nil)
    }

    @Test func clientCommands() throws {
        #expect(try CommandLineParser.parse(["status"]) == .status(ClientOptions()))
        #expect(
            try CommandLineParser.parse(["watch", "--control", "/tmp/x.sock"])
                == .watch(ClientOptions(control: "/tmp/x.sock")))
        #expect(try CommandLineParser.parse(["survey"]) == .survey(seconds: nil, ClientOptions()))
        #expect(
            try CommandLineParser.parse(["survey", "30", "--control=/c"])
                == .survey(seconds: 30, ClientOptions(control: "/c")))
        #expect(try CommandLineParser.parse(["cancel"]) == .cancel(ClientOptions()))
        #expect(
            try CommandLineParser.parse(["status", "--timeout", "0.25"])
                == .status(ClientOptions(timeout: .milliseconds(250))))
        #expect(throws: UsageError.self) { try CommandLineParser.parse(["status", "--timeout", "0"]) }
        #expect(throws: UsageError.self) { try CommandLineParser.parse(["watch", "--timeout"]) }
        #expect(try CommandLineParser.parse(["decode", "x.log"]) == .decode(["x.log"]))
        #expect(try CommandLineParser.parse(["--help"]) == .help)
        #expect(try CommandLineParser.parse(["--version"]) == .version)
    }

    @Test func helpAndVersionWinWhereverTheyStand() throws {
        #expect(try CommandLineParser.parse(["run", "--help"]) == .help)
        #expect(try CommandLineParser.parse(["--gpsd", "127.0.0.1:2947", "-h"]) == .help)
        #expect(try CommandLineParser.parse(["run", "--bogus", "--help"]) == .help)
        #expect(try CommandLineParser.parse(["survey", "30", "--help"]) == .help)
        #expect(try CommandLineParser.parse(["run", "--nmea", "-", "--version"]) == .version)
        #expect(try CommandLineParser.parse(["status", "--version"]) == .version)
        #expect(try CommandLineParser.parse(["decode", "--help"]) == .decode(["--help"]))
    }

    @Test(arguments: [
        (["--bogus"], "unknown option '--bogus'"),
        (["frobnicate"], "unknown command 'frobnicate'"),
        (["--gpsd", "--nmea", "x"], "only one source"),
        (["--nmea"], "--nmea needs a value"),
        (["--nmea", "--demo"], "--nmea needs a value"),
        (["--baud", "9600"], "--baud only goes with --nmea"),
        (["--nmea", "-", "--baud", "9600"], "--baud needs a serial device"),
        (["--nmea", "/dev/ttyS0", "--baud", "fast"], "not a serial speed"),
        (["--gpsd", "host:0"], "not a port number"),
        (["--gpsd", "host:99999"], "not a port number"),
        (["--gpsd", "::1"], "IPv6 address in brackets"),
        (["--nmea-tcp", "hostonly"], "not HOST:PORT"),
        (["--log-level", "loud"], "not one of trace"),
        (["--survey-seconds", "-5"], "not a number of seconds"),
        (["--survey-seconds", "nan"], "not a number of seconds"),
        (["--survey-seconds", "1e9"], "not a number of seconds"),
        (["--stop-timeout", "0"], "--stop-timeout: '0' is not a number of seconds between 0 and 3600"),
        (["--stop-timeout", "7200"], "not a number of seconds"),
        (["--control", "a", "--control", "b"], "--control given twice"),
        (["run", "stray"], "unexpected argument 'stray'"),
        (["status", "now"], "unexpected argument 'now' for status"),
        (["survey", "10", "20"], "unexpected argument '20'"),
        (["survey", "0"], "not a number of seconds"),
        (["watch", "--follow"], "unknown option '--follow' for watch"),
        (["help", "x"], "unexpected argument 'x'"),
        (["--demo=yes"], "--demo takes no value"),
        (["--listen"], "--listen needs a value"),
        (["--nmea", "log", "--replay-speed", "0"], "--replay-speed: '0' is not a speed between 0.001 and 1000"),
        (["--nmea", "log", "--replay-speed", "1e-19"], "'1e-19' is not a speed between 0.001 and 1000"),
        (["--nmea", "log", "--replay-speed", "0.0009"], "is not a speed between 0.001 and 1000"),
        (["--nmea", "log", "--replay-speed", "1000.5"], "is not a speed between 0.001 and 1000"),
        (["--nmea", "log", "--replay-speed", "nan"], "is not a speed between 0.001 and 1000"),
        (["--nmea", "-", "--replay-speed", "1"], "--replay-speed only goes with --nmea FILE"),
        (["--demo", "--replay-speed", "1"], "--replay-speed only goes with --nmea FILE"),
        (["--listen", "gps.local:2947"], "--listen: 'gps.local:2947' is not [HOST:]PORT"),
        (["--listen", "2947", "--listen", "2948"], "--listen given twice"),
    ])
    func wrongCommandLinesAreUsageErrors(arguments: [String], expected: String) {
        let message = usageError(arguments)
        #expect(message?.contains(expected) == true, "\(arguments) gave \(message ?? "no error")")
    }

    @Test func randomArgumentsNeverCrashTheParser() {
        let pieces = [
            "run", "--gpsd", "--nmea", "-", "--baud", "9600", "--output", "--control", ":", "[", "]", "[::1]:",
            "--survey-seconds", "1e308", "=", "--=", "survey", "status", "", "--gpsd=", "x:1:2",
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let count = Int.random(in: 0...6, using: &generator)
            let arguments = (0..<count).map { _ in pieces.randomElement(using: &generator)! }
            _ = try? CommandLineParser.parse(arguments)
        }
    }

    @Test func defaultControlPath() {
        #expect(
            ControlPath.defaultPath(environment: ["XDG_RUNTIME_DIR": "/run/user/1000"], userID: 1000)
                == "/run/user/1000/singletond.sock")
        #expect(ControlPath.defaultPath(environment: [:], userID: 1000) == "/tmp/singletond-1000/singletond.sock")
        #expect(
            ControlPath.defaultPath(environment: ["XDG_RUNTIME_DIR": "relative"], userID: 7)
                == "/tmp/singletond-7/singletond.sock"
        )
        #expect(ControlPath.resolve("/x.sock", environment: [:], userID: 0) == "/x.sock")
    }
}
