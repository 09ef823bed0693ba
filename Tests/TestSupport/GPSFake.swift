import Foundation
import Glibc

/// A running gpsfake, a real gpsd fed a log through a pty, and the port its gpsd serves.
///
/// Every test that replays a log through gpsd starts gpsfake with ``start(_:_:port:)``, which works around three
/// races of gpsfake 3.22.
package struct GPSFake: Sendable {
    /// gpsfake, in a process group with its gpsd.
    package let process: ChildProcess
    /// The TCP port of gpsfake's gpsd on 127.0.0.1.
    package let port: UInt16
    /// The pty gpsfake feeds, gpsd's device.
    package let device: String
    /// gpsd's control socket.
    package let controlSocket: String

    /// Removes the device from gpsd, as gpsfake does at the end of a single pass (`-1`): gpsd tells its watchers with
    /// a `DEVICE` whose `activated` is 0, and the log plays on into a pty nobody reads.
    package func removeDevice() async throws {
        let (device, controlSocket) = (device, controlSocket)
        let reply = try await blocking { Result { try GPSFakeDevice.request("-\(device)\r\n\0", to: controlSocket) } }
            .get()
        guard reply.hasPrefix("OK") else {
            throw GPSFakeError("gpsd answered \(reply.debugDescription) to removing \(device)")
        }
    }

    /// Starts gpsfake with `arguments` on `port` (a free one when `nil`), once its gpsd has its device.
    ///
    /// gpsfake names its gpsd's control socket `$TMPDIR/gpsfake-PID.sock` and, if a file of that name exists, takes
    /// it for its gpsd being ready. gpsd leaves the socket behind when it is stopped, so once pids wrap around, a
    /// shared /tmp holds stale ones: each gpsfake gets an empty `$TMPDIR` of its own, which also keeps its standard
    /// error for the failure message.
    ///
    /// gpsfake can fail to give its gpsd the device, without a word: ``GPSFakeDevice`` gives it again.
    ///
    /// With `-p`, gpsfake connects its own client as soon as the control socket exists, but gpsd creates that socket
    /// before it listens on TCP: on a loaded machine the client is refused and gpsfake exits with "socket error".
    /// So with `-p` this returns once gpsfake's client is connected, and starts again on a new port (at most five
    /// times) when gpsfake exited before that: on a machine loaded to the point of starving it (sanitizer runs next
    /// to builds) gpsfake has also given up with nothing but gpsd's D-Bus warning to say.
    package static func start(_ gpsfake: String, _ arguments: [String], port: UInt16? = nil) async throws -> GPSFake {
        var said = ""
        for _ in 0..<5 {
            let port = try port ?? freePort()
            let process = try ChildProcess(
                gpsfake, ["-P", String(port)] + arguments, stderr: .kept, ownTemporaryDirectory: true)
            // The process was started with a temporary directory of its own.
            let directory = process.temporaryDirectory ?? ""
            let device: String
            do {
                device = try await GPSFakeDevice.add(gpsfake: process.pid, temporaryDirectory: directory) {
                    process.isRunning
                }
            } catch {
                _ = await process.terminateAndWait(hangBound: ChildProcess.gpsfakeTerminationBound)
                said += "attempt on port \(port): \(error); gpsfake said: \(process.errorOutput)\n"
                continue
            }
            let started = GPSFake(
                process: process, port: port, device: device,
                controlSocket: GPSFakeDevice.controlSocket(gpsfake: process.pid, temporaryDirectory: directory))
            guard arguments.contains("-p") else { return started }
            // gpsfake starts its gpsd and connects, or exits.
            let connected = try await Polling.firstAnswer(while: { process.isRunning }) {
                try LoopbackQueues.socketsConnected(toPort: port, ofProcess: process.pid) > 0 ? true : nil
            }
            if connected == true { return started }
            _ = await process.terminateAndWait(hangBound: ChildProcess.gpsfakeTerminationBound)
            said += "attempt on port \(port): \(process.errorOutput)\n"
        }
        throw GPSFakeError("gpsfake did not start: \(said)")
    }
}

/// Why gpsfake could not be started, or its gpsd given its device.
package struct GPSFakeError: Error, CustomStringConvertible {
    package let description: String

    init(_ description: String) { self.description = description }
}
