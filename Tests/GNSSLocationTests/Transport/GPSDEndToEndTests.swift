import Foundation
import GNSSLocation
import GNSSProtocol
import Glibc
import SingletonRegistry
import TestSupport
import Testing

/// A real gpsd (run by `gpsfake`) read through the TCP transport and the gpsd decoder, checked against what gpsd's
/// own client `gpspipe -w` sees on the same session.
@Suite(.gpsdTools, .hangBound) struct GPSDEndToEndTests {
    enum Log: String, CustomTestStringConvertible, CaseIterable {
        /// Written by the test: 30 one-second cycles of RMC, GGA and GSA.
        case generated
        /// A SkyTraq recording from gpsd's regression suite, read from ../shared when present. Not a u-blox log
        /// (`ublox-lea-4h.log`, `rx210.log`): under gpsfake, gpsd 3.22 sometimes reported nothing of them for a minute
        /// or more, with our client connected and watching (3 of about 45 loaded runs, and 1 of 2 quiet ones).
        case skytraq = "skytraq-fix.log"

        var testDescription: String { rawValue }
    }

    @Test func transportAndDecoderSeeWhatGpspipeSeesOfAGeneratedLog() async throws {
        try await transportAndDecoderSeeWhatGpspipeSees(log: .generated)
    }

    @Test(.sharedSamples) func transportAndDecoderSeeWhatGpspipeSeesOfASharedLog() async throws {
        try await transportAndDecoderSeeWhatGpspipeSees(log: .skytraq)
    }

    /// What one replay of a log showed: our side's stream and decoder, and what gpspipe wrote.
    struct Replay {
        var end: ByteReaderEnd?
        var logEnded = false
        var decoder = GPSDStreamDecoder()
        var messages: [GPSDMessage] = []
        var ours: [Fix] = []
        var theirs: [Fix] = []
        var gpspipeStatus: ProcessExit?
        var gpsfakeSaid = ""
    }

    func transportAndDecoderSeeWhatGpspipeSees(log: Log) async throws {
        let replay = try await replay(log)
        #expect(replay.end == .endOfFile)
        #expect(
            replay.logEnded,
            "gpsd reports a removed device as DEVICE with \"activated\":0; gpsfake said: \(replay.gpsfakeSaid)")
        #expect(replay.decoder.version?.protocolMajor == 3)
        #expect(replay.decoder.invalidLineCount == 0)
        #expect(replay.decoder.droppedLineCount == 0)
        #expect(replay.messages.first?.className == "VERSION")
        #expect(replay.messages.contains(.error(message: "Unrecognized request '?FOO;\n'")))
        #expect(replay.messages.contains { if case .devices = $0 { true } else { false } })
        #expect(replay.ours.filter { $0.mode == .threeD && $0.latitude != nil }.count >= 5)
        #expect(replay.gpspipeStatus == .exited(0))
        // gpspipe joined after us and left before us, so what it saw is one run of what we saw.
        #expect(replay.theirs.count >= 3)
        #expect(
            LocationGPSDTests.contains(replay.ours, run: replay.theirs),
            "gpspipe's \(replay.theirs.count) TPVs are one run of our \(replay.ours.count)")
    }

    /// Replays `log` through gpsfake, reading it with our transport and decoder and with gpspipe.
    ///
    /// Nothing here depends on how fast the test runs: gpsfake loops the log until the end, gpspipe joins once our
    /// stream runs and leaves after 20 lines (`-n`), and only then is the device removed from gpsd (as gpsfake does
    /// at the end of a single pass), which gpsd reports to us as `DEVICE` with `activated` 0; then gpsfake is
    /// stopped, and its gpsd closing our connection ends the stream.
    func replay(_ log: Log) async throws -> Replay {
        let gpsfake = try GPSDTools.find("gpsfake")
        let gpspipe = try GPSDTools.find("gpspipe")
        let logPath = try GPSDTools.logPath(log)
        defer { if log == .generated { unlink(logPath) } }

        // -n: gpsd opens the device as soon as gpsfake adds it, whoever watches.
        let fake = try await GPSFake.start(gpsfake, ["-n", "-q", "-c", "0.1", logPath])
        defer { fake.process.terminate() }
        let channel = try await GPSDTools.connect(port: fake.port, while: fake.process)

        var replay = Replay()
        let pipeOutput = TemporaryDirectory.uniquePath("gpspipe.json")
        defer { unlink(pipeOutput) }
        var pipe: ChildProcess?
        defer { pipe?.terminate() }
        var removing = false
        for await event in ByteReader(channel: channel).events() {
            guard case .data(let chunk) = event else {
                if case .finished(let why) = event { replay.end = why }
                break
            }
            for case .message(let message) in try replay.decoder.receive(chunk) {
                replay.messages.append(message)
                switch message {
                case .version: try channel.write(Array("?FOO;\n".utf8))
                case .error: try channel.write(GPSDRequest.enableWatch)
                case .watch:
                    // Our stream is running: start gpsd's own client on the same session.
                    pipe = try ChildProcess(gpspipe, ["-w", "-n", "20", "-o", pipeOutput, "127.0.0.1:\(fake.port)"])
                case .tpv(let fix):
                    replay.ours.append(fix)
                    let fixes = replay.ours.filter { $0.mode == .threeD && $0.latitude != nil }.count
                    if !removing, fixes >= 5, let pipe, !pipe.isRunning {
                        removing = true
                        // gpsd writes the DEVICE to its watchers before it answers the removal, so it is on its way
                        // to us before gpsfake's stop closes the connection.
                        try await fake.removeDevice()
                        fake.process.terminate()
                    }
                case .device(let device) where device.activation == .inactive:
                    replay.logEnded = true
                default: break
                }
            }
        }
        if let pipe { replay.gpspipeStatus = await pipe.wait() }
        _ = await fake.process.wait()
        replay.gpsfakeSaid = fake.process.errorOutput
        // gpsd ends lines with CR LF, which Swift's String treats as one Character: split bytes with the framer.
        var framer = GPSDLineFramer()
        let written = (try? String(contentsOfFile: pipeOutput, encoding: .utf8)) ?? ""
        replay.theirs = framer.append(Array(written.utf8)).compactMap { output -> Fix? in
            guard case .line(let line) = output, case .tpv(let fix) = try? GPSDMessage(line: line) else { return nil }
            return fix
        }
        return replay
    }
}

/// Finding and running gpsd's tools for the end-to-end tests.
enum GPSDTools {
    /// The path of one of gpsd's tools; a test that calls this is marked `.gpsdTools`.
    static func find(_ tool: String) throws -> String {
        try #require(Machine.path(of: tool), "\(tool) is missing: apt-get install gpsd gpsd-clients")
    }

    /// The log to replay: generated into /tmp, or the shared sample (a test that replays one is `.sharedSamples`).
    static func logPath(_ log: GPSDEndToEndTests.Log) throws -> String {
        switch log {
        case .generated:
            let path = TemporaryDirectory.uniquePath("generated.log")
            try generatedLog().write(toFile: path, atomically: false, encoding: .utf8)
            return path
        case .skytraq:
            return Machine.sharedSample(log.rawValue)
        }
    }

    /// 30 cycles of RMC, GGA and GSA with valid checksums, moving slowly north-east.
    static func generatedLog() -> String {
        func sentence(_ body: String) -> String { NMEAChecksum.sentence(body) }
        var out = "# Generated by GPSDEndToEndTests: 30 one-second cycles\n"
        for second in 0..<30 {
            let time = String(format: "1200%02d.00", second)
            let lat = String(format: "4807.%03d", 38 + second)
            let lon = String(format: "01131.%03d", 100 + 2 * second)
            out += sentence("GPRMC,\(time),A,\(lat),N,\(lon),E,000.5,054.7,221126,,,A")
            out += sentence("GPGGA,\(time),\(lat),N,\(lon),E,1,08,0.9,545.4,M,46.9,M,,")
            out += sentence("GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1")
        }
        return out
    }

    /// Connects once gpsfake's gpsd listens, asking as ``Polling`` does while gpsfake runs.
    static func connect(port: UInt16, while fake: ChildProcess) async throws -> ByteChannel {
        var lastError: SourceError?
        let channel = try await Polling.firstAnswer(while: { fake.isRunning }) { () -> ByteChannel? in
            do throws(SourceError) {
                return try ByteChannel.open(.tcp(host: "127.0.0.1", port: port), connectTimeout: .seconds(2))
            } catch {
                lastError = error
                return nil
            }
        }
        if let channel { return channel }
        throw lastError ?? SourceError(.connect, source: "127.0.0.1:\(port)", reason: "gpsfake exited")
    }
}
