import Foundation
import TestSupport

/// Many watchers of the gpsd listener, read together on the calling thread with `poll(2)`: the TPV times each got,
/// when each came, and how many reports each was told it lost.
final class WatcherSwarm: Sendable {
    /// What one watcher got.
    struct Received: Sendable {
        /// The `time` of each TPV, in the order they came.
        var times: [String] = []
        /// When each TPV came.
        var arrivals: [ContinuousClock.Instant] = []
        /// The reports the listener said it dropped for this watcher.
        var toldDropped = 0
        /// The bytes of a line not yet complete.
        var pending: [UInt8] = []
        /// Why the stream ended before the last TPV, if it did: "end of file" (the listener closed it) or the read's
        /// error (`Bad file descriptor` would mean something else in the process closed this descriptor).
        var ended: String?
    }

    let descriptors: [Int32]

    /// Connects `count` clients to `port` and has each send `?WATCH`; `nil` when a connection fails.
    init?(port: UInt16, count: Int) {
        var descriptors: [Int32] = []
        for _ in 0..<count {
            guard let client = StreamClient(port: port) else {
                for fd in descriptors { Foundation.close(fd) }
                return nil
            }
            let fd = dup(client.fd)
            client.disconnect()
            descriptors.append(fd)
            let watch = Array("?WATCH={\"enable\":true,\"json\":true}\n".utf8)
            _ = watch.withUnsafeBytes { send(fd, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL)) }
        }
        self.descriptors = descriptors
        // The listener answers WATCH once the client watches: after every answer, every client is a watcher.
        for fd in descriptors where !Self.readUntilWatchReply(fd) {
            close()
            return nil
        }
    }

    /// Reads `fd` (the VERSION, DEVICES and WATCH lines, and nothing after) until the WATCH reply has come.
    private static func readUntilWatchReply(_ fd: Int32) -> Bool {
        var bytes: [UInt8] = []
        let marker = Array("{\"class\":\"WATCH\"".utf8)
        while !bytes.split(separator: 0x0A).contains(where: { $0.starts(with: marker) }) {
            var descriptors = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
            guard blockingPoll(&descriptors, timeout: 60) == 1 else { return false }
            var chunk = [UInt8](repeating: 0, count: 4_096)
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            guard count > 0 else { return false }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return true
    }

    /// Reads every watcher until each has a TPV of `lastTime` (or its stream ended), or `timeout` seconds passed.
    func collect(until lastTime: String, timeout: Double = waitHangBound) -> [Received] {
        var received = [Received](repeating: Received(), count: descriptors.count)
        var done = [Bool](repeating: false, count: descriptors.count)
        let clock = ContinuousClock()
        let deadline = Date().addingTimeInterval(timeout)
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while deadline.timeIntervalSinceNow > 0 {
            let open = descriptors.indices.filter { !done[$0] }
            if open.isEmpty { break }
            var fds = open.map { pollfd(fd: descriptors[$0], events: Int16(POLLIN), revents: 0) }
            let ready = blockingPoll(&fds, timeout: deadline.timeIntervalSinceNow)
            if ready < 0 || blockingWasCancelled { break }
            let now = clock.now
            for (slot, index) in open.enumerated() where fds[slot].revents != 0 {
                let count = chunk.withUnsafeMutableBytes { read(descriptors[index], $0.baseAddress!, $0.count) }
                guard count > 0 else {
                    received[index].ended = count == 0 ? "end of file" : String(cString: strerror(errno))
                    done[index] = true
                    continue
                }
                received[index].pending.append(contentsOf: chunk[0..<count])
                while let newline = received[index].pending.firstIndex(of: 0x0A) {
                    let line = String(decoding: received[index].pending[..<newline], as: UTF8.self)
                    received[index].pending.removeSubrange(...newline)
                    Self.note(line, in: &received[index], at: now)
                }
                if received[index].times.last == lastTime { done[index] = true }
            }
        }
        return received
    }

    /// Records a TPV's time or a drop notice.
    private static func note(_ line: String, in received: inout Received, at now: ContinuousClock.Instant) {
        if line.hasPrefix("{\"class\":\"TPV\""), let range = line.range(of: "\"time\":\"") {
            received.times.append(String(line[range.upperBound...].prefix(24)))
            received.arrivals.append(now)
        } else if let range = line.range(of: "singletond dropped ") {
            received.toldDropped += Int(line[range.upperBound...].prefix { $0.isNumber }) ?? 0
        }
    }

    /// Closes every connection.
    func close() {
        for fd in descriptors { Foundation.close(fd) }
    }
}
