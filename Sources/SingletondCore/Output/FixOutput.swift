import Dispatch
import Glibc
import SingletonRegistry
import SystemCalls

/// Where the daemon writes its TPV lines: standard output or a file, one `write(2)` per line.
///
/// Every line in a file is whole or absent: a write that fails after part of a line went out (a full disk) takes
/// that part back, truncating the file to where the line started, before the next line is written.
///
/// Writes happen on a serial queue of their own so that a slow reader of standard output (a stopped pipe) never
/// blocks the cooperative pool. A writer that can wait does, with ``waitForRoom()``, once ``write(_:)`` says that
/// over ``roomMark`` bytes wait: the daemon then reads a source that can wait no faster than the output takes its
/// lines, and loses none. At most ``maximumPendingBytes`` wait, and lines beyond that (from a source that cannot
/// wait, a serial device) are dropped and counted. The queue never sits in a `write(2)` that waits for a reader: it waits in `poll(2)` until the output
/// takes a line (the file it opened is non-blocking; standard output, which other processes may share, is left
/// as it is, and a line, shorter than `PIPE_BUF`, goes whole into a pipe that has room). ``close()`` ends that wait:
/// what the output takes at once is written, the rest counted and logged, so that a reader that stopped reading
/// does not hold up the stop. A failing write is logged once, lines are dropped while it fails, and the recovery is logged:
/// the daemon keeps running. What is lost is summarised at most once a minute of the registry's clock, and once
/// more when the output closes (``OutputLossLog``). ``reopen()`` (on SIGHUP) closes and reopens a file, for log rotation.
package final class FixOutput: Sendable {
    /// How many bytes may wait to be written before new lines are dropped.
    package static let maximumPendingBytes = 1 << 20
    /// How many bytes may wait before a writer that can wait should (``write(_:)`` returns `true`); it is let go once
    /// half as many wait.
    package static let roomMark = 64 << 10

    /// Writes bytes to a descriptor as `write(2)` does: how many it took, or the failure.
    package typealias Writer = @Sendable (Int32, UnsafeRawBufferPointer) throws(Errno) -> Int

    private struct State {
        var fd: Int32
        var pendingBytes = 0
        var losses: OutputLossLog
        /// The writer waiting in ``waitForRoom()``.
        var roomWaiter: CheckedContinuation<Void, Never>?
        /// Whether ``close()`` has begun: nobody waits for room any more.
        var closing = false
    }

    /// The file path, or `-` for standard output.
    package let path: String
    private let logger: LogWriter
    private let queue = DispatchQueue(label: "singletond.output")
    private let state: SanitizerVisibleMutex<State>
    /// A pipe that ``close()`` writes to, ending the writer's waits for room.
    private let closing: (read: Int32, write: Int32)
    /// The time the loss summaries are counted in.
    private let timeline: Timeline
    /// How the bytes go out: `write(2)`, or a test's writer that fails on purpose.
    private let writeBytes: Writer

    /// Opens `path` for appending (creating it with mode 0640), or uses standard output for `-`.
    ///
    /// A FIFO is opened without waiting for its reader: lines wait in it until one comes.
    ///
    /// A symbolic link, at the end of the path or in one of its directories, is followed only when it belongs to
    /// this process's user or to root, as the kernel's `protected_symlinks` does in sticky directories (here in every
    /// directory): a link another user planted does not choose where a root daemon writes (``OutputPath``).
    ///
    /// - Throws: ``OutputError`` naming the path and the reason.
    /// Losses are summarised in the time of `clock`: the registry's.
    package convenience init(path: String, logger: LogWriter, clock: any Clock<Duration>) throws(OutputError) {
        try self.init(path: path, logger: logger, clock: clock) { fd, bytes throws(Errno) in
            try System.write(fd, bytes)
        }
    }

    /// Opens `path` as ``init(path:logger:clock:)`` does, and writes through `writer` instead of `write(2)`.
    package init(path: String, logger: LogWriter, clock: any Clock<Duration>, writer: @escaping Writer)
        throws(OutputError)
    {
        self.path = path
        self.logger = logger
        self.timeline = Timeline(clock)
        self.writeBytes = writer
        let losses = OutputLossLog(name: path == "-" ? "standard output" : path)
        let fd = path == "-" ? 1 : try OutputPath.open(path)
        if path != "-" { System.setNonBlocking(fd) }
        do throws(Errno) {
            closing = try System.nonBlockingPipe()
        } catch {
            if path != "-" { System.close(fd) }
            throw OutputError(path: path, reason: "cannot create a pipe: \(error)")
        }
        state = SanitizerVisibleMutex(State(fd: fd, losses: losses))
    }

    deinit {
        System.close(closing.read)
        System.close(closing.write)
    }

    /// Queues `line` (which ends with a newline) for writing; drops it if too much is waiting. Returns whether more
    /// than ``roomMark`` bytes wait: a writer that can wait should then call ``waitForRoom()``.
    @discardableResult
    package func write(_ line: [UInt8]) -> Bool {
        let now = timeline.now
        let (accepted, full, report) = state.withLock { state -> (Bool, Bool, (level: LogLevel, text: String)?) in
            guard state.pendingBytes + line.count <= Self.maximumPendingBytes else {
                return (false, true, state.losses.lost(.slowReader, at: now))
            }
            state.pendingBytes += line.count
            return (true, state.pendingBytes > Self.roomMark && !state.closing, nil)
        }
        if let report { logger.log(report.level, report.text) }
        if accepted { queue.async { self.writeNow(line) } }
        return full
    }

    /// Waits until no more than half of ``roomMark`` bytes wait, the output is closing, or the calling task is
    /// cancelled. One writer waits at a time.
    package func waitForRoom() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state in
                    guard !state.closing, state.pendingBytes > Self.roomMark / 2, !Task.isCancelled else { return true }
                    state.roomWaiter = continuation
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            letWriterGo()
        }
    }

    /// Resumes the writer waiting for room, if any.
    private func letWriterGo() {
        state.withLock { state in
            defer { state.roomWaiter = nil }
            return state.roomWaiter
        }?.resume()
    }

    private func writeNow(_ line: [UInt8]) {
        let fd = state.withLock { $0.fd }
        let failure = writeLine(line, to: fd)
        let now = timeline.now
        let (report, waiter) = state.withLock {
            state -> ((level: LogLevel, text: String)?, CheckedContinuation<Void, Never>?) in
            state.pendingBytes -= line.count
            let report: (level: LogLevel, text: String)?
            switch failure {
            case nil: report = state.losses.wrote()
            case EAGAIN?: report = state.losses.notTakenAtTheStop()
            case let code?: report = state.losses.lost(.writeError(code), at: now)
            }
            guard state.pendingBytes <= Self.roomMark / 2 else { return (report, nil) }
            defer { state.roomWaiter = nil }
            return (report, state.roomWaiter)
        }
        waiter?.resume()
        if let report { logger.log(report.level, report.text) }
    }

    /// Writes all of `line` once `fd` has room, going on after short writes; returns the failure's `errno`, `EAGAIN`
    /// when the output is closing and has no room now, or `nil`.
    ///
    /// After a failure that left part of the line in a regular file, that part is taken back: the file is cut to
    /// its length before the line (the daemon alone appends to it). Completing the line instead would have to wait
    /// for free space, holding every later line in the queue; a pipe or a FIFO needs neither, since a line shorter
    /// than `PIPE_BUF` goes into it whole or not at all.
    private func writeLine(_ line: [UInt8], to fd: Int32) -> Int32? {
        var done = 0
        while true {
            guard hasRoom(fd) else { return EAGAIN }
            var written = 0
            do throws(Errno) {
                try System.writeAll(fd, Array(line[done...]), written: &written, using: writeBytes)
                return nil
            } catch {
                done += written
                if error.code == EAGAIN || error.code == EWOULDBLOCK { continue }
                if done > 0, let file = try? System.status(of: fd), file.st_mode & S_IFMT == S_IFREG {
                    try? System.truncate(fd, to: file.st_size - off_t(done))
                }
                return error.code
            }
        }
    }

    /// Waits until `fd` has room for a line, or is in a state that `write(2)` reports (an error, a hang-up); `false`
    /// when ``close()`` has begun and `fd` has no room now.
    private func hasRoom(_ fd: Int32) -> Bool {
        var descriptors = [
            pollfd(fd: fd, events: Int16(POLLOUT), revents: 0),
            pollfd(fd: closing.read, events: Int16(POLLIN), revents: 0),
        ]
        // A failed poll leaves it to the write to say what is wrong.
        guard (try? System.poll(&descriptors, timeout: -1)) != nil else { return true }
        return descriptors[0].revents != 0
    }

    /// Closes and reopens the file (after log rotation moved it); does nothing for standard output.
    ///
    /// If the file cannot be reopened, the old descriptor stays in use and the failure is logged.
    package func reopen() {
        guard path != "-" else { return }
        queue.async {
            do {
                let newFD = try OutputPath.open(self.path)
                System.setNonBlocking(newFD)
                let oldFD = self.state.withLock { state in
                    defer { state.fd = newFD }
                    return state.fd
                }
                System.close(oldFD)
                self.logger.info("reopened output \(self.path)")
            } catch {
                self.logger.error("cannot reopen output: \(error); still writing to the old file")
            }
        }
    }

    /// Waits until every queued line has been written.
    package func flush() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async { continuation.resume() }
        }
    }

    /// Writes what is queued and the output takes at once, logs the lines lost since the last line about them and
    /// those it did not take, then the totals (lines written, lines lost), and closes the file (standard output
    /// stays open). A writer waiting for room goes on.
    package func close() async {
        state.withLock { $0.closing = true }
        letWriterGo()
        _ = withUnsafeBytes(of: UInt8(1)) { try? System.write(closing.write, $0) }
        await flush()
        let reports = state.withLock { $0.losses.finish() + [$0.losses.totals()] }
        for report in reports { logger.log(report.level, report.text) }
        guard path != "-" else { return }
        let fd = state.withLock { state in
            defer { state.fd = -1 }
            return state.fd
        }
        if fd >= 0 { System.close(fd) }
    }
}
