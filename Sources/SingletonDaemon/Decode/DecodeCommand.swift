import GNSSProtocol

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `singletond decode [FILE|-]`: NMEA 0183 in, gpsd-style JSON lines out (TPV per fix cycle, SKY per view).
///
/// Reads with `read(2)` in large chunks and writes stdout with large `write(2)` calls; a one-line summary goes to
/// stderr. Exit status 0, 1 when the input cannot be read or the output cannot be written, 64 on a usage error.
public enum DecodeCommand {
    /// The usage line printed on a bad argument.
    public static let usage = "usage: singletond decode [--device NAME] [FILE|-]"

    /// Runs the command with the arguments that follow `decode`; returns the exit status.
    public static func run(_ arguments: [String]) -> Int32 {
        var path: String?
        var device = "stdin"
        var deviceGiven = false
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "-h", "--help":
                writeAll(2, Array((usage + "\n").utf8))
                return 0
            case "--device":
                guard index + 1 < arguments.count else { return usageError("--device needs a name") }
                device = arguments[index + 1]
                deviceGiven = true
                index += 1
            case "-":
                guard path == nil else { return usageError("more than one input") }
                path = "-"
            default:
                if argument.hasPrefix("-") { return usageError("unknown option '\(argument)'") }
                guard path == nil else { return usageError("more than one input") }
                path = argument
            }
            index += 1
        }
        let input = path ?? "-"
        let fd: Int32
        if input == "-" {
            fd = 0
        } else {
            fd = open(input, O_RDONLY)
            if fd < 0 {
                let reason = String(cString: strerror(errno))
                writeAll(2, Array("singletond decode: cannot open '\(input)': \(reason)\n".utf8))
                return 1
            }
            if !deviceGiven { device = input }
        }
        defer { if fd > 0 { close(fd) } }
        return decode(fd: fd, name: input == "-" ? "stdin" : input, device: device)
    }

    private static func usageError(_ message: String) -> Int32 {
        writeAll(2, Array("singletond decode: \(message)\n\(usage)\n".utf8))
        return 64
    }

    private static func decode(fd: Int32, name: String, device: String) -> Int32 {
        let chunkSize = 1 << 20
        let flushAt = 1 << 18
        var decoder = NMEADecoder(device: device)
        var output: [UInt8] = []
        output.reserveCapacity(flushAt + 16_384)
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        var failed = false
        var writeFailed = false

        let emit: (NMEAEvent) -> Void = { event in
            switch event {
            case .fix(let fix): GPSDJSONWriter.appendTPV(fix, to: &output)
            case .sky(let view): GPSDJSONWriter.appendSKY(view, to: &output)
            }
        }
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, chunkSize) }
            if count < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                writeAll(2, Array("singletond decode: cannot read '\(name)': \(reason)\n".utf8))
                failed = true
                break
            }
            if count == 0 { break }
            chunk.withUnsafeBytes {
                decoder.feed(UnsafeRawBufferPointer(rebasing: $0[0..<count]), emit: emit)
            }
            if output.count >= flushAt {
                if !writeAll(1, output) {
                    writeFailed = true
                    break
                }
                output.removeAll(keepingCapacity: true)
            }
        }
        if !failed && !writeFailed {
            decoder.finish(emit: emit)
            if !writeAll(1, output) { writeFailed = true }
        }
        if writeFailed {
            let reason = String(cString: strerror(errno))
            writeAll(2, Array("singletond decode: cannot write output: \(reason)\n".utf8))
        }
        let s = decoder.statistics
        let summary =
            "singletond decode: \(name): sentences \(s.sentences), decoded \(s.decoded), "
            + "bad checksum \(s.badChecksum), too long \(s.tooLong), unknown \(s.unsupported), "
            + "malformed \(s.malformed), truncated \(s.truncated), noise bytes \(s.noiseBytes), "
            + "fixes \(s.fixes), sky \(s.skyViews)\n"
        writeAll(2, Array(summary.utf8))
        return failed || writeFailed ? 1 : 0
    }

    /// Writes all of `bytes` to `fd`, retrying short writes; `false` on error.
    @discardableResult
    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += n
            }
            return true
        }
    }
}
