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
    /// The line being written and how much of it is written.
    var writing: [UInt8] = []
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
    var hasOutput: Bool { written < writing.count || head < queue.count || droppedUntold > 0 }

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

    /// Moves the next line (or the notice of dropped lines) into ``writing`` once the last one is written; returns
    /// whether there is anything to write.
    mutating func nextToWrite() -> Bool {
        guard written >= writing.count else { return true }
        writing = []
        written = 0
        if droppedUntold > 0 {
            writing = GPSDListenerLines.error(
                "singletond dropped \(droppedUntold) reports: this client reads too slowly")
            droppedUntold = 0
            return true
        }
        guard head < queue.count else {
            queue.removeAll(keepingCapacity: queue.capacity <= 256)
            head = 0
            return false
        }
        writing = queue[head]
        queuedBytes -= writing.count
        queue[head] = []
        head += 1
        return true
    }
}
