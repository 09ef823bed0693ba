import Foundation
import Glibc

/// Gives gpsfake's gpsd the device gpsfake feeds, which gpsfake 3.22 can silently fail to give it.
///
/// gpsfake waits until its gpsd's control socket file exists, then connects to it and sends `+DEVICE`. gpsd makes
/// that file with `bind` and calls `listen` only after it: a connect in between is refused, and gpsfake's
/// `DaemonInstance.add_device` takes the refusal for "no control socket" and sends nothing, without a word. gpsd then
/// never learns of the device. It lists no device (`"devices":[]`) and reports nothing for as long as gpsfake runs,
/// while gpsfake writes the whole log into a pty nobody reads. On a loaded machine gpsd is preempted between the two
/// calls often enough to fail a CI run now and then.
///
/// ``add(gpsfake:temporaryDirectory:while:)`` sends the same request itself, once gpsd listens. When gpsfake's
/// request got through as well, gpsd answers the second one `ERROR` (the device is already active), and nothing
/// changes.
package enum GPSFakeDevice {
    /// Adds the device of gpsfake `pid` to its gpsd, once both exist, and returns the device's path.
    ///
    /// - Parameters:
    ///   - pid: gpsfake's process ID.
    ///   - temporaryDirectory: gpsfake's `$TMPDIR`, where it names its gpsd's control socket `gpsfake-PID.sock`.
    ///   - isRunning: Whether gpsfake still runs: asked between attempts, so that one that exited fails at once.
    package static func add(
        gpsfake pid: pid_t, temporaryDirectory: String, while isRunning: () -> Bool
    ) async throws -> String {
        let controlSocket = controlSocket(gpsfake: pid, temporaryDirectory: temporaryDirectory)
        var lastProblem = "gpsfake has not opened its device's pty"
        // gpsfake opens its pty and starts its gpsd, which listens on its control socket; or gpsfake exits.
        let added = try await Polling.firstAnswer(while: isRunning) { () async throws -> String? in
            guard let device = devicePTY(of: pid) else { return nil }
            do {
                // On a thread of its own: gpsd answers once it gets the CPU, which on a loaded machine can take
                // seconds, and a cooperative thread held that long stalls every other test of the run.
                let reply = try await blocking { Result { try request("+\(device)\r\n\0", to: controlSocket) } }.get()
                guard reply.hasPrefix("OK") || reply.hasPrefix("ERROR") else {
                    throw GPSFakeError("gpsd answered \(reply.debugDescription) to adding \(device)")
                }
                return device
            } catch let error as ControlSocketRefused {
                lastProblem = error.description
                return nil
            }
        }
        if let added { return added }
        throw GPSFakeError(
            isRunning()
                ? "after two minutes: \(lastProblem)" : "gpsfake exited before its gpsd had its device: \(lastProblem)"
        )
    }

    /// The control socket of gpsfake `pid`'s gpsd: gpsfake names it after itself, in its `$TMPDIR`.
    static func controlSocket(gpsfake pid: pid_t, temporaryDirectory: String) -> String {
        "\(temporaryDirectory)/gpsfake-\(pid).sock"
    }

    /// The pty gpsfake feeds, once it has opened it.
    ///
    /// gpsfake 3.22 holds two ptys: first the one it opens to check that ptys work (`pty.openpty()` in
    /// /usr/bin/gpsfake, never closed), then its device's. So the device is the second, on the higher descriptor.
    static func devicePTY(of pid: pid_t) -> String? {
        let directory = "/proc/\(pid)/fd"
        let ptys = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).compactMap {
            name -> (fd: Int, path: String)? in
            guard let fd = Int(name),
                let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "\(directory)/\(name)"),
                path.hasPrefix("/dev/pts/"), path.dropFirst("/dev/pts/".count).allSatisfy(\.isNumber)
            else { return nil }
            return (fd, path)
        }
        guard ptys.count >= 2 else { return nil }
        return ptys.max { $0.fd < $1.fd }?.path
    }

    /// Sends `text` to the Unix socket at `path` and returns gpsd's one-line reply.
    ///
    /// Throws ``ControlSocketRefused`` while nothing listens there yet (no file, or a file not listened on).
    static func request(_ text: String, to path: String) throws -> String {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw GPSFakeError("socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw GPSFakeError("control socket path too long: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            let code = errno
            // EINTR: a signal (another test's child ending) interrupted the connect; the next attempt starts over.
            if code == ENOENT || code == ECONNREFUSED || code == EINTR {
                throw ControlSocketRefused(description: "\(path): \(String(cString: strerror(code)))")
            }
            throw GPSFakeError("connect \(path): \(String(cString: strerror(code)))")
        }
        // A hang bound only: gpsd answers a control request as soon as it reads it.
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        try writeAll(fd, text)
        var reply = [UInt8](repeating: 0, count: 64)
        var count: Int
        repeat {
            count = reply.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        } while count < 0 && errno == EINTR
        guard count > 0 else {
            throw GPSFakeError("no reply from \(path): \(count < 0 ? String(cString: strerror(errno)) : "EOF")")
        }
        return String(decoding: reply[0..<count], as: UTF8.self)
    }

    /// Nothing listens on the control socket yet.
    struct ControlSocketRefused: Error, CustomStringConvertible {
        let description: String
    }
}
