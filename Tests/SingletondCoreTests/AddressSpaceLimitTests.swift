import Foundation
import TestSupport
import Testing

/// Whether this build runs under the address or thread sanitizer (their runtimes export these symbols); the daemon
/// next to the tests is built the same way.
private let sanitized = ["__tsan_init", "__asan_init"].contains { (name: String) in dlsym(nil, name) != nil }

/// The daemon under a small address space limit (`ulimit -v`): where its threads cannot all start, it either says
/// so at once and exits 1, or a part that cannot start its thread makes it exit 1, or it starts; in every case a
/// SIGTERM ends it: the signal thread needs neither Dispatch nor the cooperative pool, whose threads the runtime may
/// be unable to start at such a limit.
@Suite(
    .serialized, .hangBound,
    .disabled(if: sanitized, "a sanitizer's shadow memory needs far more address space"))
struct AddressSpaceLimitTests {
    @Test func tooSmallALimitIsRefusedAtOnceAndNothingIsWritten() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let daemon = try SingletondProcess(
            ["--control", directory.file("c.sock"), "--output", directory.file("out")], addressSpaceLimit: 32)
        defer { daemon.kill() }
        #expect(await daemon.exitStatus() == 1)
        let log = await daemon.stderr.rest()
        #expect(log.contains { $0.contains("address space limit (ulimit -v, LimitAS=) leaves no room") }, "\(log)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("out")))
        #expect(!FileManager.default.fileExists(atPath: directory.file("c.sock")))
    }

    /// Limits from just above the refused ones up: wherever the limit makes a thread fail, the daemon ends on
    /// SIGTERM, sent as soon as the thread that handles signals exists, whatever the startup has reached.
    @Test(arguments: Array(stride(from: 144, through: 320, by: 16)))
    func aSIGTERMEndsTheDaemonWhateverTheLimitLetItStart(megabytes: Int) async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let port = try freePort()
        let daemon = try SingletondProcess(
            [
                "--nmea-tcp", "127.0.0.1:1", "--listen", "127.0.0.1:\(port)", "--control", directory.file("c.sock"),
                "--output", directory.file("out"),
                // A start the runtime cannot finish ends at the signal thread's backstop, the stop timeout and a
                // second after the signal: either exit status passes, so the timeout decides nothing here.
                "--stop-timeout", "5",
            ], addressSpaceLimit: megabytes)
        defer { daemon.kill() }
        let handlesSignals = try await Polling.firstAnswer(while: { daemon.isRunning }) { () -> Bool? in
            let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(daemon.pid)/task")) ?? []
            return threads.contains {
                (try? String(contentsOfFile: "/proc/\(daemon.pid)/task/\($0)/comm", encoding: .utf8))?
                    .hasPrefix("singletond-sig") == true
            } ? true : nil
        }
        daemon.signal(SIGTERM)
        let status = await daemon.exitStatus()
        let log = await daemon.stderr.rest()
        if handlesSignals == nil {
            // It ended on its own before its signal thread was seen: the limit refused, or a part that could not
            // start its thread.
            let said = log.contains { $0.contains("address space limit") || $0.contains("cannot start") }
            #expect(status == 1 && said, "\(status): \(log)")
        } else {
            #expect(status == 0 || status == 1, "\(status): \(log)")
        }
    }
}
