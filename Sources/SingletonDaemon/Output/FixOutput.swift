import Dispatch
import SingletonRegistry
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the daemon writes its TPV lines: standard output or a file, one `write(2)` per line.
///
/// Writes happen on a serial queue of their own so that a slow reader of standard output (a stopped pipe) never
/// blocks the cooperative pool; at most ``maximumPendingBytes`` wait, and lines beyond that are dropped and
/// counted. A failing write is logged once, lines are dropped while it fails, and the recovery is logged:
/// the daemon keeps running. ``reopen()`` (on SIGHUP) closes and reopens a file, for log rotation.
public final class FixOutput: Sendable {
    /// How many bytes may wait to be written before new lines are dropped.
    public static let maximumPendingBytes = 1 << 20

    private struct State {
        var fd: Int32
        var pendingBytes = 0
        var droppedLines = 0
        var failing = false
    }

    /// The file path, or `-` for standard output.
    public let path: String
    private let logger: Logger
    private let queue = DispatchQueue(label: "singletond.output")
    private let state: ObservedMutex<State>

    /// Opens `path` for appending (creating it with mode 0644), or uses standard output for `-`.
    ///
    /// - Throws: ``OutputError`` naming the path and the reason.
    public init(path: String, logger: Logger) throws(OutputError) {
        self.path = path
        self.logger = logger
        if path == "-" {
            state = ObservedMutex(State(fd: 1))
        } else {
            state = ObservedMutex(State(fd: try Self.open(path)))
        }
    }

    private static func open(_ path: String) throws(OutputError) -> Int32 {
        let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw OutputError(path: path, reason: String(cString: strerror(errno))) }
        return fd
    }

    /// Queues `line` (which ends with a newline) for writing; drops it if too much is waiting.
    public func write(_ line: [UInt8]) {
        let accepted = state.withLock { state -> Bool in
            guard state.pendingBytes + line.count <= Self.maximumPendingBytes else {
                state.droppedLines += 1
                return false
            }
            state.pendingBytes += line.count
            return true
        }
        guard accepted else { return }
        queue.async { self.writeNow(line) }
    }

    private func writeNow(_ line: [UInt8]) {
        let fd = state.withLock { $0.fd }
        var failure: Int32?
        line.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        let (report, dropped) = state.withLock { state -> (Bool?, Int) in
            state.pendingBytes -= line.count
            let dropped = state.droppedLines
            if failure != nil {
                state.droppedLines += 1
                defer { state.failing = true }
                return (state.failing ? nil : true, dropped)
            }
            state.droppedLines = 0
            defer { state.failing = false }
            return (state.failing ? false : nil, dropped)
        }
        let name = path == "-" ? "standard output" : path
        switch (report, failure) {
        case (true?, let error?):
            logger.error(
                "cannot write TPV lines to \(name): \(String(cString: strerror(error))); dropping lines until it works again"
            )
        case (false?, _):
            logger.notice("writing TPV lines to \(name) again (\(dropped) lines dropped)")
        default:
            if dropped > 0 { logger.warning("output \(name) too slow: \(dropped) TPV lines dropped") }
        }
    }

    /// Closes and reopens the file (after log rotation moved it); does nothing for standard output.
    ///
    /// If the file cannot be reopened, the old descriptor stays in use and the failure is logged.
    public func reopen() {
        guard path != "-" else { return }
        queue.async {
            do {
                let newFD = try Self.open(self.path)
                let oldFD = self.state.withLock { state in
                    defer { state.fd = newFD }
                    return state.fd
                }
                Glibc.close(oldFD)
                self.logger.info("reopened output \(self.path)")
            } catch {
                self.logger.error("cannot reopen output: \(error); still writing to the old file")
            }
        }
    }

    /// Waits until every queued line has been written.
    public func flush() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async { continuation.resume() }
        }
    }

    /// Writes what is queued and closes the file (standard output stays open).
    public func close() async {
        await flush()
        guard path != "-" else { return }
        let fd = state.withLock { state in
            defer { state.fd = -1 }
            return state.fd
        }
        if fd >= 0 { Glibc.close(fd) }
    }
}
