import Dispatch
import Foundation
import Glibc
import Synchronization

/// Reads a ``ByteChannel`` on a dedicated thread and hands each chunk to a callback, until the source ends, fails,
/// stays silent for ``idleTimeout``, or ``stop()`` is called.
///
/// The thread sleeps in `poll(2)` on the channel and on a wake-up pipe, so an idle source costs no CPU and ``stop()``
/// takes effect at once, even when no byte ever arrives. The callback runs on the reader thread, one event at a
/// time; while it runs nothing is read, so it should hand the bytes on (to an actor, a stream) rather than process
/// them there. ``events(bufferLimit:)`` does that with flow control.
public final class ByteReader: Sendable {
    /// The channel being read; the reader keeps it open while it runs.
    public let channel: ByteChannel
    /// The most bytes one ``ByteReaderEvent/data(_:)`` carries.
    public let chunkSize: Int
    private let wake = WakePipe()
    private let state = ObservedMutex(State())

    private struct State {
        var started = false
        var stopRequested = false
        /// The flow control of ``events(bufferLimit:)``, released by ``stop()`` so that it is prompt.
        var credits: DispatchSemaphore?
        var idleTimeout: Duration?
        /// When ``idleTimeout`` was last set: silence counts from then at the earliest.
        var idleTimeoutSince = ContinuousClock.now
        /// ``events(bufferLimit:)`` only: chunks handed to the stream that the consumer has not finished with.
        var unfinishedChunks = 0
        /// When the consumer last finished a chunk: silence counts from then at the earliest.
        var finishedChunkAt = ContinuousClock.now
    }

    /// Creates a reader for `channel`; nothing is read until ``start(_:)``. With an `idleTimeout`, see
    /// ``idleTimeout``.
    public init(channel: ByteChannel, chunkSize: Int = 4_096, idleTimeout: Duration? = nil) {
        self.channel = channel
        self.chunkSize = max(1, chunkSize)
        state.withLock { $0.idleTimeout = idleTimeout }
    }

    /// How long the source may stay silent: when no byte arrives for this long, the reader ends with
    /// ``ByteReaderEnd/idle(_:)``; `nil` (the default) waits for ever.
    ///
    /// Silence is time in which the consumer waits for bytes and none come: it counts from the later of the moment
    /// the consumer finished its last chunk (the handler returned; with ``events(bufferLimit:)``, the iterator
    /// asked for the next event) and the moment this was set, and never while chunks wait for the consumer. So a
    /// consumer that decides on the timeout after looking at a chunk is never overtaken by it. It may be changed
    /// from any thread while the reader runs; the change wakes the reader, which then waits with the new value.
    /// Waiting costs nothing either way: the thread sleeps in `poll(2)` with the remaining time as its timeout.
    public var idleTimeout: Duration? {
        get { state.withLock { $0.idleTimeout } }
        set {
            state.withLock { state in
                state.idleTimeout = newValue
                state.idleTimeoutSince = .now
            }
            wake.signal()
        }
    }

    /// Starts the reader thread, which calls `handler` with every chunk and finally with one
    /// ``ByteReaderEvent/finished(_:)``. A reader starts once: call this or ``events(bufferLimit:)``, once; later
    /// calls do nothing.
    public func start(_ handler: @escaping @Sendable (ByteReaderEvent) -> Void) {
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
        let thread = Thread { [self] in run(handler) }
        thread.name = "ByteReader \(channel.source)"
        thread.start()
        return true
    }

    /// Asks the reader to stop; it delivers ``ByteReaderEnd/stopped`` promptly unless it has already finished.
    /// Safe to call from any thread, any number of times, before or after ``start(_:)``.
    public func stop() {
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
    public func events(bufferLimit: Int = 64) -> ByteReaderEvents {
        // Start at 0 and add credits: libdispatch traps when a semaphore is freed below its initial value.
        let credits = DispatchSemaphore(value: 0)
        for _ in 0..<max(1, bufferLimit) { credits.signal() }
        let (stream, continuation) = AsyncStream.makeStream(of: ByteReaderEvent.self)
        let started = startThread(credits: credits) { [self] event in
            if case .data = event {
                credits.wait()
                state.withLock { $0.unfinishedChunks += 1 }
            }
            continuation.yield(event)
            if case .finished = event { continuation.finish() }
        }
        if started {
            continuation.onTermination = { [self] _ in stop() }
        } else {
            continuation.finish()
        }
        return ByteReaderEvents(stream: stream, credits: credits, reader: self)
    }

    /// The consumer of ``events(bufferLimit:)`` is done with a chunk.
    func finishedChunk() {
        state.withLock { state in
            state.unfinishedChunks -= 1
            state.finishedChunkAt = .now
        }
    }

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
        // When the handler last gave the thread back: a consumer that holds the reader back is not the source's
        // silence.
        var readySince = ContinuousClock.now
        while true {
            let (stopRequested, idleTimeout, silentSince, consumerBusy) = state.withLock {
                (
                    $0.stopRequested, $0.idleTimeout, max(readySince, $0.idleTimeoutSince, $0.finishedChunkAt),
                    $0.unfinishedChunks > 0
                )
            }
            if stopRequested { return .stopped }
            var pollTimeout: Int32 = -1
            if let idleTimeout {
                let remaining = ContinuousClock.now.duration(to: silentSince + idleTimeout)
                if remaining > .zero {
                    pollTimeout = PollTimeout.milliseconds(remaining)
                } else if consumerBusy {
                    // Not silence: the consumer has yet to finish what came. Look again once it could have.
                    pollTimeout = PollTimeout.milliseconds(idleTimeout)
                } else {
                    return .idle(idleTimeout)
                }
            }
            fds[0].revents = 0
            fds[1].revents = 0
            let ready = poll(&fds, 2, pollTimeout)
            if ready < 0 {
                if errno == EINTR { continue }
                return .failed(SourceError(.read, source: name, errorNumber: errno))
            }
            if fds[1].revents != 0 {
                // stop() or a new idle timeout; the top of the loop tells which (the flag is set before the signal).
                wake.drain()
                continue
            }
            let events = Int32(fds[0].revents)
            if events == 0 { continue }
            if events & Int32(POLLNVAL) != 0 { return .failed(SourceError(.read, source: name, errorNumber: EBADF)) }
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                handler(.data(Array(buffer[0..<count])))
                readySince = .now
                continue
            }
            if count == 0 { return isSerial ? .hangUp : .endOfFile }
            let code = errno
            switch code {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK:
                // Readiness without data; a hang-up or error flag here would otherwise spin.
                if events & Int32(POLLHUP | POLLERR) != 0 { return isSerial ? .hangUp : .endOfFile }
            case EIO where isSerial: return .hangUp
            default: return .failed(SourceError(.read, source: name, errorNumber: code))
            }
        }
    }
}
