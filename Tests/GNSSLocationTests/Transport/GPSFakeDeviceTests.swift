import Foundation
import Glibc
import TestSupport
import Testing

/// `GPSFakeDevice` against the gpsfake race it works around, made to happen every time: strace refuses gpsfake's
/// connect to its gpsd's control socket, as the kernel does when the connect falls between gpsd's `bind` and
/// `listen`.
@Suite(.requires(Requirement.gpsdTools + [.tool("strace", package: "strace")]), .hangBound)
struct GPSFakeDeviceTests {
    /// gpsfake's refused request leaves gpsd with no device and nothing to report; once `GPSFakeDevice` has added the
    /// device, gpsd reports the log's fixes from it.
    @Test func aDeviceGpsfakeFailedToAddIsAddedAndReports() async throws {
        let strace = try #require(Machine.path(of: "strace"), "strace is missing: apt-get install strace")
        let gpsfake = try GPSDTools.find("gpsfake")
        let gpspipe = try GPSDTools.find("gpspipe")
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let trace = directory.file("strace.txt")
        let port = try freePort()
        // gpsfake's first connect is the one to the control socket (it has no client of its own without -p).
        let traced = try ChildProcess(
            strace,
            [
                "-qq", "-o", trace, "-e", "trace=connect", "-e", "inject=connect:error=ECONNREFUSED:when=1",
                gpsfake, "-n", "-q", "-P", "\(port)", "-c", "0.01", Fixtures.path("multignss-midnight.nmea"),
            ], stderr: .kept, ownTemporaryDirectory: true)
        defer { traced.kill() }
        let pid = try await Self.child(of: traced)

        // Wait for gpsfake's refused request: the trace names its control socket with the injected error.
        let refused = try await Self.poll(while: traced) {
            let text = RawFile.text(trace) ?? ""
            return text.split(separator: "\n").contains {
                $0.contains("gpsfake-\(pid).sock") && $0.contains("ECONNREFUSED") && $0.contains("INJECTED")
            }
        }
        let traceText = RawFile.text(trace) ?? "nothing"
        try #require(refused, "strace did not refuse gpsfake \(pid)'s connect; it traced: \(traceText)")

        // gpsd has no device: what every test met when it "reported nothing".
        let before = try ChildProcess(gpspipe, ["-w", "-n", "3", "127.0.0.1:\(port)"], stdout: .pipe)
        defer { before.kill() }
        let greeting = await before.stdout.rest()
        #expect(
            greeting.contains { $0.contains("\"class\":\"DEVICES\"") && $0.contains("\"devices\":[]") }, "\(greeting)")

        let device = try await GPSFakeDevice.add(
            gpsfake: pid, temporaryDirectory: try #require(traced.temporaryDirectory)
        ) { traced.isRunning }
        #expect(device.hasPrefix("/dev/pts/"))

        // Now gpsd reads the device and reports its fixes.
        let after = try ChildProcess(gpspipe, ["-w", "-n", "40", "127.0.0.1:\(port)"], stdout: .pipe)
        defer { after.kill() }
        let reports = await after.stdout.rest()
        #expect(
            reports.contains {
                $0.contains("\"class\":\"TPV\"") && $0.contains("\"device\":\"\(device)\"") && $0.contains("\"lat\":")
            }, "\(reports)")
    }

    /// The gpsfake `traced` (strace) started. strace also forks short-lived copies of itself at start (to probe what
    /// ptrace supports), whose command line is strace's: gpsfake is the child that runs gpsfake's script.
    static func child(of traced: ChildProcess) async throws -> pid_t {
        var child: pid_t?
        _ = try await poll(while: traced) {
            let list = RawFile.text("/proc/\(traced.pid)/task/\(traced.pid)/children")
            child = list?.split(separator: " ").compactMap { pid_t($0) }.first { pid in
                let commandLine = RawFile.bytes("/proc/\(pid)/cmdline") ?? []
                let arguments = commandLine.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
                return arguments.first?.hasSuffix("strace") == false && arguments.contains { $0.hasSuffix("gpsfake") }
            }
            return child != nil
        }
        return try #require(child, "strace started no gpsfake; it said: \(traced.errorOutput)")
    }

    /// Asks `condition` every 25 ms (pacing, not synchronisation) until it holds, for up to 30 s, while `process`
    /// runs; returns whether it held.
    static func poll(while process: ChildProcess, _ condition: () -> Bool) async throws -> Bool {
        let held = try await Polling.firstAnswer(while: { process.isRunning }) { condition() ? true : nil }
        return held ?? condition()
    }
}
