import Dispatch
import Glibc
import SingletonRegistry
import Synchronization
import SystemCalls

/// Where the daemon writes its TPV lines: standard output or a file, one `write(2)` per line.
///
/// Every line in a file is whole or absent: a write that fails after part of a line went out (a full disk) takes
/// that part back, truncating the file to where the line started, before the next line is written.
///
/// Writes happen on a serial queue of their own so that a slow reader of standard output (a stopped pipe) never
/// blocks the cooperative pool; at most ``maximumPendingBytes`` wait, and lines beyond that are dropped and
/// counted. A failing write is logged once, lines are dropped while it fails, and the recovery is logged:
/// the daemon keeps running. What is lost is summarised at most once a minute of the registry's clock, and once
/// more when the output closes (``OutputLossLog``). ``reopen()`` (on SIGHUP) closes and reopens a file, for log rotation.
package final class FixOutput: Sendable {
    /// How many bytes may wait to be written before new lines are dropped.
    package static let maximumPendingBytes = 1 << 20

    /// Writes bytes to a descriptor as `write(2)` does: how many it took, or the failure.
    package typealias Writer = @Sendable (Int32, UnsafeRawBufferPointer) throws(Errno) -> Int

    private struct State {
        var fd: Int32
        var pendingBytes = 0
        var losses: OutputLossLog
    }

    /// The file path, or `-` for standard output.
    package let path: String
    private let logger: LogWriter
    private let queue = DispatchQueue(label: "singletond.output")
    private let state: SanitizerVisibleMutex<State>
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
        if path == "-" {
            state = SanitizerVisibleMutex(State(fd: 1, losses: losses))
        } else {
            state = SanitizerVisibleMutex(State(fd: try OutputPath.open(path), losses: losses))
        }
    }

    /// Queues `line` (which ends with a newline) for writing; drops it if too much is waiting.
    package func write(_ line: [UInt8]) {
        let now = timeline.now
        let (accepted, report) = state.withLock { state -> (Bool, (level: LogLevel, text: String)?) in
            guard state.pendingBytes + line.count <= Self.maximumPendingBytes else {
                return (false, state.losses.lost(.slowReader, at: now))
            }
            state.pendingBytes += line.count
            return (true, nil)
        }
        if let report { logger.log(report.level, report.text) }
        guard accepted else { return }
        queue.async { self.writeNow(line) }
    }

    private func writeNow(_ line: [UInt8]) {
        let fd = state.withLock { $0.fd }
        let failure = writeLine(line, to: fd)
        let now = timeline.now
        let report = state.withLock { state in
            state.pendingBytes -= line.count
            return if let failure { state.losses.lost(.writeError(failure), at: now) } else { state.losses.wrote() }
        }
        if let report { logger.log(report.level, report.text) }
    }

    /// Writes all of `line`, going on after short writes; returns the failure's `errno`, or `nil`.
    ///
    /// After a failure that left part of the line in a regular file, that part is taken back: the file is cut to
    /// its length before the line (the daemon alone appends to it). Completing the line instead would have to wait
    /// for free space, holding every later line in the queue; a pipe or a FIFO needs neither, since a line shorter
    /// than `PIPE_BUF` goes into it whole or not at all.
    private func writeLine(_ line: [UInt8], to fd: Int32) -> Int32? {
        var written = 0
        do throws(Errno) {
            try System.writeAll(fd, line, written: &written, using: writeBytes)
            return nil
        } catch {
            if written > 0, let file = try? System.status(of: fd), file.st_mode & S_IFMT == S_IFREG {
                try? System.truncate(fd, to: file.st_size - off_t(written))
            }
            return error.code
        }
    }

    /// Closes and reopens the file (after log rotation moved it); does nothing for standard output.
    ///
    /// If the file cannot be reopened, the old descriptor stays in use and the failure is logged.
    package func reopen() {
        guard path != "-" else { return }
        queue.async {
            do {
                let newFD = try OutputPath.open(self.path)
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

    /// Writes what is queued, logs the lines lost since the last line about them, and closes the file (standard
    /// output stays open).
    package func close() async {
        await flush()
        for report in state.withLock({ $0.losses.finish() }) { logger.log(report.level, report.text) }
        guard path != "-" else { return }
        let fd = state.withLock { state in
            defer { state.fd = -1 }
            return state.fd
        }
        if fd >= 0 { System.close(fd) }
    }
}
