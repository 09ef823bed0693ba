import Dispatch
import Synchronization

/// Carries a ``ByteReader``'s events to one async consumer with backpressure.
///
/// At most `capacity` chunks are in flight: when the consumer falls behind, the reader thread waits instead of
/// dropping bytes, so a file replays completely however slowly it is paced, and a socket's peer sees TCP flow
/// control. ``close()`` stops the reader and releases a waiting reader thread.
final class ChunkPipe: Sendable {
    let events: AsyncStream<ByteReaderEvent>
    private let continuation: AsyncStream<ByteReaderEvent>.Continuation
    private let slots: DispatchSemaphore
    private let capacity: Int
    private let closed = Atomic<Bool>(false)
    private let reader: ByteReader

    init(reader: ByteReader, capacity: Int = 16) {
        self.reader = reader
        self.capacity = max(1, capacity)
        self.slots = DispatchSemaphore(value: self.capacity)
        (events, continuation) = AsyncStream.makeStream(of: ByteReaderEvent.self)
        reader.start { [self] event in
            if case .data = event {
                slots.wait()
                guard !closed.load(ordering: .acquiring) else { return }
            }
            continuation.yield(event)
            if case .finished = event { continuation.finish() }
        }
    }

    /// Tells the reader that the consumer has taken a chunk, freeing its slot.
    func consumed() {
        slots.signal()
    }

    /// Stops the reader and ends the stream; safe to call more than once, from any thread.
    func close() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        reader.stop()
        for _ in 0...capacity { slots.signal() }
        continuation.finish()
    }
}
