import Foundation
import GNSSLocation
import GNSSProtocol
import Glibc
import SingletonRegistry
import SingletonRegistryTesting
import TestSupport
import Testing

/// A serial receiver, played by a pseudo-terminal behind a stable device path (`…/ttyUSB0`, a symlink as udev
/// makes): fixes arrive at the baud rate, unplugging makes the manager reconnect, plugging back in resumes them.
/// Reconnection backs off on the live clock: these tests wait for a real server to come back.
@Suite(.hangBound, .singletons { $0.clock = ContinuousClock() }) struct LocationSerialTests {
    /// A receiver that can be unplugged and plugged in again at the same path.
    final class Receiver {
        let path: String
        private let directory: String
        private(set) var pty: PseudoTerminal?

        init() throws {
            directory = TemporaryDirectory.uniquePath("serial")
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            path = directory + "/ttyUSB0"
            try plugIn()
        }

        /// A new pseudo-terminal appears behind `path`.
        func plugIn() throws {
            let pty = try PseudoTerminal()
            let temporary = path + ".new"
            unlink(temporary)
            try #require(symlink(pty.slavePath, temporary) == 0)
            try #require(rename(temporary, path) == 0)
            self.pty = pty
        }

        /// The path disappears and the receiver's end closes, as when the USB cable is pulled.
        func unplug() {
            unlink(path)
            pty?.closeMaster()
            pty = nil
        }

        deinit {
            unplug()
            rmdir(directory)
        }
    }

    @Test @RegistryActor
    func fixesArriveAndResumeOnTheSameStreamAfterReplugging() async throws {
        let baud = 38_400
        let receiver = try Receiver()
        let source = LocationSource.nmeaSerial(path: receiver.path, baud: baud)
        let manager = LocationManager().withoutLiveTimeouts()
        manager.reconnectPolicy = LocationTesting.quickReconnect
        var states = StateWatch(manager)
        var fixes = FixReader(manager.updates(bufferSize: 1_000))
        // Serial devices are opened (and their stale input flushed) before start returns.
        try await manager.start(source)
        #expect(manager.state == .waitingForFix(source: receiver.path))

        var expected: [Fix] = []
        let passes = [0, 100].map { LocationTesting.cycles(from: $0, count: 12) }
        // One decoder for both connections, as the session keeps it: the second pass's first cycle is reported once.
        let decoded = LocationTesting.fixes(ofPasses: passes, device: source.description)
        for (pass, bytes) in passes.enumerated() {
            let (whileFeeding, all) = decoded[pass]
            try await LocationTesting.writePaced(try #require(receiver.pty?.master), bytes, baud: baud)
            // The receiver wrote everything; the fixes it completes arrive.
            await fixes.read(whileFeeding.count)

            receiver.unplug()
            let reason = try #require(await states.nextReconnectReason())
            #expect(reason == "\(receiver.path) hung up (device gone)", "pass \(pass)")
            // The kernel may discard what the receiver wrote last when it goes; the cycle still held is flushed.
            let flushed = await fixes.read(manager.fixCount - fixes.fixes.count)
            #expect(flushed.count <= all.count - whileFeeding.count)
            expected += whileFeeding + all.dropFirst(whileFeeding.count).prefix(flushed.count)

            // While unplugged the path is missing, and the state says so.
            let missing = try #require(await states.nextReconnectReason())
            #expect(missing == "cannot open \(receiver.path): No such file or directory")
            try receiver.plugIn()
            await states.next { $0.name == "waiting" }
        }
        #expect(fixes.fixes == expected)
        #expect(fixes.dropped == 0)
        #expect(expected.count >= 20)
        await manager.shutdown()
    }
}
