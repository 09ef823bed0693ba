import Glibc

/// One connection of the gpsd-protocol listener: its unread request bytes, its watch policy and its bounded queue
/// of lines to send.
///
/// The queue holds whole lines; the line being written is apart from it, so that dropping never cuts a line. When a
/// line would take the queue past its limit, the oldest lines go, and the client is told how many in an `ERROR`
/// object before the next line it gets.
package struct GPSDListenerClient: ConnectionClient, Sendable {
    package let fd: Int32
    /// Received bytes that do not yet make a complete request.
    var input: [UInt8] = []
    /// Whether the rest of an over-long line is being skipped.
    var discarding = false
    var policy = GPSDWatchPolicy()
    /// The lines being written, taken from the queue (so that dropping never cuts one) and shared with the other
    /// clients they were sent to, their bytes, and how many of those are written.
    var sending: [[UInt8]] = []
    var sendingBytes = 0
    var written = 0
    /// Lines waiting, oldest first, and their bytes.
    var queue: [[UInt8]] = []
    var head = 0
    var queuedBytes = 0
    /// Lines dropped since the client was last told.
    var droppedUntold = 0
    /// Lines dropped in all.
    var droppedTotal = 0
    /// When the client last sent a complete request (or connected), in the server's timeline.
    var lastRequest: Duration
    /// Why the client is to be closed; `""` for a plain end.
    var closeReason: String?

    init(fd: Int32, now: Duration) {
        self.fd = fd
        self.lastRequest = now
    }

    /// Whether lines wait to be written.
    var hasOutput: Bool { written < sendingBytes || head < queue.count || droppedUntold > 0 }

    /// The most lines, and bytes, one write takes from the queue: a backlog goes out in a system call per 64 lines,
    /// not one per line. In a flood to 50 watchers, a write per line was a system call (and a loopback segment) per
    /// line and client, over 47,000 a second; on a loaded machine the listener's thread fell behind on them and the
    /// queues overflowed while the watchers had nothing left to read.
    static let batchLines = 64
    static let batchBytes = 64 * 1_024

    /// Queues `line`, dropping the oldest lines while the queue would exceed `limit` bytes; returns how many
    /// were dropped.
    mutating func enqueue(_ line: [UInt8], limit: Int) -> Int {
        var dropped = 0
        while head < queue.count, queuedBytes + line.count > limit {
            queuedBytes -= queue[head].count
            queue[head] = []
            head += 1
            dropped += 1
        }
        if head > 64, head * 2 > queue.count {
            queue.removeFirst(head)
            head = 0
        }
        if queuedBytes + line.count > limit {
            dropped += 1
        } else {
            queue.append(line)
            queuedBytes += line.count
        }
        droppedUntold += dropped
        droppedTotal += dropped
        return dropped
    }

    /// Takes the next lines (after the notice of dropped lines, when some were) into ``sending`` once the last
    /// ones are written, up to ``batchLines`` lines and ``batchBytes`` bytes; returns whether there is anything to
    /// write.
    mutating func nextToWrite() -> Bool {
        guard written >= sendingBytes else { return true }
        sending.removeAll(keepingCapacity: true)
        sendingBytes = 0
        written = 0
        if droppedUntold > 0 {
            let notice = GPSDListenerLines.error(
                "singletond dropped \(droppedUntold) reports: this client reads too slowly")
            sending.append(notice)
            sendingBytes = notice.count
            droppedUntold = 0
        }
        while head < queue.count, sending.count < Self.batchLines,
            sending.isEmpty || sendingBytes + queue[head].count <= Self.batchBytes
        {
            let line = queue[head]
            queue[head] = []
            head += 1
            queuedBytes -= line.count
            sending.append(line)
            sendingBytes += line.count
        }
        if head >= queue.count {
            queue.removeAll(keepingCapacity: queue.capacity <= 256)
            head = 0
        }
        return !sending.isEmpty
    }

    /// Calls `body` with one vector for each line of ``sending`` with bytes not yet written, from the first such
    /// byte on: what one gathering write sends. The vectors point into the lines and are valid only in `body`.
    func withUnwrittenVectors<Result>(_ body: (UnsafeMutableBufferPointer<iovec>) -> Result) -> Result {
        var skip = written
        var index = sending.startIndex
        while index < sending.endIndex, skip >= sending[index].count {
            skip -= sending[index].count
            index += 1
        }
        var vectors: [iovec] = []
        vectors.reserveCapacity(sending.endIndex - index)
        return Self.pin(sending[index...], skipping: skip, into: &vectors, body)
    }

    /// Appends a vector for each of `lines` (the first from byte `offset` on) while their storage is pinned, then
    /// calls `body` with them.
    private static func pin<Result>(
        _ lines: ArraySlice<[UInt8]>, skipping offset: Int, into vectors: inout [iovec],
        _ body: (UnsafeMutableBufferPointer<iovec>) -> Result
    ) -> Result {
        guard let line = lines.first else { return vectors.withUnsafeMutableBufferPointer { body($0) } }
        return line.withUnsafeBytes { bytes in
            if let base = bytes.baseAddress, offset < bytes.count {
                vectors.append(
                    iovec(iov_base: UnsafeMutableRawPointer(mutating: base + offset), iov_len: bytes.count - offset))
            }
            return pin(lines.dropFirst(), skipping: 0, into: &vectors, body)
        }
    }
}
