import Dispatch
import Glibc
import SingletonRegistry
import SystemCalls

/// Reads a ``ByteChannel`` on a dedicated thread and hands each chunk to a callback, until the source ends, fails,
/// or ``stop()`` is called.
///
/// The thread sleeps in `poll(2)` on the channel and on a wake-up pipe, so an idle source costs no CPU and ``stop()``
/// takes effect at once, even when no byte ever arrives. The callback runs on the reader thread, one event at a
/// time; while it runs nothing is read, so it should hand the bytes on (to an actor, a stream) rather than process
/// them there. ``events(bufferLimit:)`` does that with flow control.
package final class ByteReader: Sendable {
    /// The channel being read; the reader keeps it open while it runs.
    package let channel: ByteChannel
    /// The most bytes one ``ByteReaderEvent/data(_:)`` carries.
    package let chunkSize: Int
    private let wake = WakePipe()
    private let state = SanitizerVisibleMutex(State())
    /// Told, on the reader thread, when it starts waiting in `poll(2)` for the peer and when bytes arrive.
    private let silenceWatch: SilenceWatch?

    private struct State {
        var started = false
        var stopRequested = false
        /// The flow control of ``events(bufferLimit:)``, released by ``stop()`` so that it is prompt.
        var credits: DispatchSemaphore?
    }

    /// Creates a reader for `channel`; nothing is read until ``start(_:)``.
    package convenience init(channel: ByteChannel, chunkSize: Int = 4_096) {
        self.init(channel: channel, chunkSize: chunkSize, silenceWatch: nil)
    }

    /// A reader that tells `silenceWatch` when the peer is silent: from the moment it waits in `poll(2)` with room
    /// for more until bytes arrive. Timed on this thread, a silence ends when the bytes reach the reader, however
    /// long the tasks that decode them wait for a thread of the cooperative pool.
    init(channel: ByteChannel, chunkSize: Int = 4_096, silenceWatch: SilenceWatch?) {
        self.channel = channel
        self.chunkSize = max(1, chunkSize)
        self.silenceWatch = silenceWatch
    }

    /// Starts the reader thread, which calls `handler` with every chunk and finally with one
    /// ``ByteReaderEvent/finished(_:)``. A reader starts once: call this or ``events(bufferLimit:)``, once; later
    /// calls do nothing.
    package func start(_ handler: @escaping @Sendable (ByteReaderEvent) -> Void) {
        _ = startThread(handler)
    }

    /// Starts the thread unless it was started before; returns whether it did.
    private func startThread(
        credits: DispatchSemaphore? = nil, _ handler: @escaping @Sendable (ByteReaderEvent) -> Void
    ) -> Bool {
        let first = state.withLock { state in
            guard !state.started else { return false }
            state.started = true
            state.credits = credits
            return true
        }
        guard first else { return false }
        do throws(Errno) {
            try System.startThread(named: "ByteReader \(channel.source)") { [self] in run(handler) }
        } catch {
            handler(.finished(.failed(SourceError(.read, source: channel.source.description, errorNumber: error.code))))
        }
        return true
    }

    /// Asks the reader to stop; it delivers ``ByteReaderEnd/stopped`` promptly unless it has already finished.
    /// Safe to call from any thread, any number of times, before or after ``start(_:)``.
    package func stop() {
        let credits = state.withLock { state in
            state.stopRequested = true
            return state.credits
        }
        wake.signal()
        credits?.signal()
    }

    /// Starts the reader and returns its events as an async sequence that ends after
    /// ``ByteReaderEvent/finished(_:)``.
    ///
    /// At most `bufferLimit` chunks wait for the consumer: when it falls behind, the reader thread waits too, so
    /// nothing is lost and memory stays bounded; the kernel's buffers then fill and the source slows down (a gpsd
    /// server eventually drops a client that stays behind). Ending the iteration early (or cancelling its task)
    /// stops the reader. When the reader was started before, the sequence is empty.
    package func events(bufferLimit: Int = 64) -> ByteReaderEvents {
        // Start at 0 and add credits: libdispatch traps when a semaphore is freed below its initial value.
        let credits = DispatchSemaphore(value: 0)
        for _ in 0..<max(1, bufferLimit) { credits.signal() }
        let (stream, continuation) = AsyncStream.makeStream(of: ByteReaderEvent.self)
        let started = startThread(credits: credits) { event in
            if case .data = event { credits.wait() }
            continuation.yield(event)
            if case .finished = event { continuation.finish() }
        }
        if started {
            continuation.onTermination = { [self] _ in stop() }
        } else {
            continuation.finish()
        }
        return ByteReaderEvents(stream: stream, credits: credits)
    }

    private var stopRequested: Bool { state.withLock { $0.stopRequested } }

    private func run(_ handler: @Sendable (ByteReaderEvent) -> Void) {
        handler(.finished(readLoop(handler)))
    }

    private func readLoop(_ handler: @Sendable (ByteReaderEvent) -> Void) -> ByteReaderEnd {
        let fd = channel.fileDescriptor
        let name = channel.source.description
        guard wake.readEnd >= 0 else {
            return .failed(SourceError(.read, source: name, errorNumber: wake.creationError))
        }
        let isSerial = if case .serial = channel.source { true } else { false }
        var buffer = [UInt8](repeating: 0, count: chunkSize)
        var fds = [
            pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wake.readEnd, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            if stopRequested { return .stopped }
            fds[0].revents = 0
            fds[1].revents = 0
            silenceWatch?.waiting()
            do throws(Errno) {
                _ = try System.poll(&fds, timeout: -1)
            } catch {
                return .failed(SourceError(.read, source: name, errorNumber: error.code))
            }
            if fds[1].revents != 0 { return .stopped }
            let events = Int32(fds[0].revents)
            if events == 0 { continue }
            if events & Int32(POLLNVAL) != 0 { return .failed(SourceError(.read, source: name, errorNumber: EBADF)) }
            let count: Int
            do throws(Errno) {
                count = try buffer.withUnsafeMutableBytes { raw in
                    Result { () throws(Errno) -> Int in try System.read(fd, into: raw) }
                }.get()
            } catch {
                switch error.code {
                case EAGAIN, EWOULDBLOCK:
                    // Readiness without data; a hang-up or error flag here would otherwise spin.
                    if events & Int32(POLLHUP | POLLERR) != 0 { return isSerial ? .hangUp : .endOfFile }
                    continue
                case EIO where isSerial: return .hangUp
                default: return .failed(SourceError(.read, source: name, errorNumber: error.code))
                }
            }
            if count > 0 {
                silenceWatch?.received()
                handler(.data(Array(buffer[0..<count])))
                continue
            }
            return isSerial ? .hangUp : .endOfFile
        }
    }
}
