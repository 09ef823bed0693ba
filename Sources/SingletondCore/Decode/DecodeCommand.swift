import GNSSProtocol
import Glibc
import SystemCalls

/// `singletond decode [FILE|-]`: NMEA 0183 in, gpsd-style JSON lines out (TPV per fix cycle, SKY per view).
///
/// Reads with `read(2)` in large chunks and writes stdout with large `write(2)` calls; a one-line summary goes to
/// stderr, ending with the week-rollover rule applied. Exit status 0, 1 when the input cannot be read or the output
/// cannot be written, 64 on a usage error.
///
/// The input is taken for a recording: its dates stay as sent (``WeekRolloverRule/asSent``) unless
/// `--week-rollover gpsd` asks for gpsd's correction, which moves every time before 2017 1024 weeks forward (what
/// `gpsdecode` prints, and right only for a receiver whose week number rolled over).
package enum DecodeCommand {
    /// The usage line printed on a bad argument.
    package static let usage = "usage: singletond decode [--device NAME] [--week-rollover as-sent|gpsd] [FILE|-]"

    /// What `--help` prints after the usage line.
    package static let help = """
          --device NAME           the device named in every TPV and SKY (default: FILE, or stdin)
          --week-rollover RULE    as-sent (the default): dates as the receiver sent them, right for a
                                  recording; gpsd: as gpsd and gpsdecode, a time before 2017 moves 1024
                                  GPS weeks forward, right for a receiver whose week number rolled over
        The summary on standard error ends with the rule applied.

        """

    /// What the arguments that follow `decode` ask for.
    package enum Request: Sendable, Hashable {
        /// Print the usage.
        case help
        /// Decode `input` (a file path, or `-` for standard input); `device` names the device in the output, `nil`
        /// meaning the input's name; `weekRollover` is the rule for dates that may be 1024 weeks late.
        case decode(input: String, device: String?, weekRollover: WeekRolloverRule = .asSent)
    }

    /// Reads the arguments that follow `decode`: a pure function, tested and fuzzed alone.
    ///
    /// - Throws: ``UsageError`` naming the first argument that is wrong.
    package static func parse(_ arguments: [String]) throws(UsageError) -> Request {
        var path: String?
        var device: String?
        var weekRollover = WeekRolloverRule.asSent
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "-h", "--help":
                return .help
            case "--device":
                guard index + 1 < arguments.count else { throw UsageError("--device needs a name") }
                device = arguments[index + 1]
                index += 1
            case "--week-rollover":
                guard index + 1 < arguments.count else { throw UsageError("--week-rollover needs as-sent or gpsd") }
                switch arguments[index + 1] {
                case "as-sent": weekRollover = .asSent
                case "gpsd": weekRollover = .gpsd
                default: throw UsageError("--week-rollover takes as-sent or gpsd, not '\(arguments[index + 1])'")
                }
                index += 1
            default:
                if argument.hasPrefix("-"), argument != "-" { throw UsageError("unknown option '\(argument)'") }
                guard path == nil else { throw UsageError("more than one input") }
                path = argument
            }
            index += 1
        }
        return .decode(input: path ?? "-", device: device, weekRollover: weekRollover)
    }

    /// Runs the command with the arguments that follow `decode`; returns the exit status.
    package static func run(_ arguments: [String]) -> Int32 {
        let input: String
        let device: String?
        let weekRollover: WeekRolloverRule
        do throws(UsageError) {
            switch try parse(arguments) {
            case .help:
                report(usage + "\n" + help)
                return 0
            case .decode(let path, let name, let rule):
                (input, device, weekRollover) = (path, name, rule)
            }
        } catch {
            return usageError(error.message)
        }
        let fd: Int32
        if input == "-" {
            fd = 0
        } else {
            do throws(Errno) {
                fd = try System.open(input, O_RDONLY)
            } catch {
                report("singletond decode: cannot open '\(input)': \(error)\n")
                return 1
            }
        }
        defer { if fd > 0 { System.close(fd) } }
        let name = input == "-" ? "stdin" : input
        return decode(fd: fd, name: name, device: device ?? name, weekRollover: weekRollover)
    }

    private static func usageError(_ message: String) -> Int32 {
        report("singletond decode: \(message)\n\(usage)\n")
        return 64
    }

    private static func decode(fd: Int32, name: String, device: String, weekRollover: WeekRolloverRule) -> Int32 {
        let chunkSize = 1 << 16
        let flushAt = 1 << 16
        var decoder = NMEADecoder(device: device, weekRollover: weekRollover)
        var lines = GPSDReportLines(capacity: flushAt + 16_384)
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        var failed = false
        var writeFailure: Errno?

        while true {
            let count: Int
            do throws(Errno) {
                count = try chunk.withUnsafeMutableBufferPointer { (bytes) throws(Errno) in
                    try System.read(fd, into: UnsafeMutableRawBufferPointer(bytes))
                }
            } catch {
                report("singletond decode: cannot read '\(name)': \(error)\n")
                failed = true
                break
            }
            if count == 0 { break }
            chunk.withUnsafeBytes { decoder.feed(UnsafeRawBufferPointer(rebasing: $0[0..<count]), writingTo: &lines) }
            if lines.bytes.count >= flushAt {
                writeFailure = output(lines.bytes)
                if writeFailure != nil { break }
                lines.bytes.removeAll(keepingCapacity: true)
            }
        }
        if !failed && writeFailure == nil {
            decoder.finish(writingTo: &lines)
            writeFailure = output(lines.bytes)
        }
        if let writeFailure {
            report("singletond decode: cannot write output: \(writeFailure)\n")
        }
        let s = decoder.statistics
        let summary =
            "singletond decode: \(name): sentences \(s.sentences), decoded \(s.decoded), "
            + "bad checksum \(s.badChecksum), too long \(s.tooLong), unknown \(s.unsupported), "
            + "malformed \(s.malformed), truncated \(s.truncated), noise bytes \(s.noiseBytes), binary packets \(s.binaryPackets), "
            + "fixes \(s.fixes), sky \(s.skyViews), \(ruleSummary(weekRollover, s))\n"
        report(summary)
        return failed || writeFailure != nil ? 1 : 0
    }

    /// The summary's last part: which week-rollover rule was applied, and under gpsd's how often it moved a time.
    package static func ruleSummary(_ rule: WeekRolloverRule, _ statistics: NMEAStatistics) -> String {
        switch rule {
        case .asSent:
            "week rollover: as-sent (dates as the receiver sent them)"
        case .gpsd:
            "week rollover: gpsd (times before 2017 moved 1024 weeks forward: \(statistics.weekRolloverCorrections))"
        }
    }

    /// Writes `text` to standard error; a message that cannot be written is lost, as there is nowhere to say so.
    private static func report(_ text: String) {
        _ = try? System.writeAll(2, Array(text.utf8))
    }

    /// Writes all of `bytes` to standard output; the failure, or `nil` when all went out.
    private static func output(_ bytes: [UInt8]) -> Errno? {
        do throws(Errno) {
            try System.writeAll(1, bytes)
            return nil
        } catch {
            return error
        }
    }
}
