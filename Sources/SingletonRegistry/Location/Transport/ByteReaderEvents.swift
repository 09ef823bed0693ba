import Dispatch

/// The events of a ``ByteReader`` as an async sequence with flow control; see ``ByteReader/events(bufferLimit:)``.
public struct ByteReaderEvents: AsyncSequence, Sendable {
    /// Each chunk, then one ``ByteReaderEvent/finished(_:)``.
    public typealias Element = ByteReaderEvent

    private let stream: AsyncStream<ByteReaderEvent>
    private let credits: DispatchSemaphore
    private let reader: ByteReader

    init(stream: AsyncStream<ByteReaderEvent>, credits: DispatchSemaphore, reader: ByteReader) {
        self.stream = stream
        self.credits = credits
        self.reader = reader
    }

    /// Iterates the events; each chunk taken lets the reader deliver one more.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private var base: AsyncStream<ByteReaderEvent>.Iterator
        private let credits: DispatchSemaphore
        private let reader: ByteReader
        /// Whether the last event was a chunk: asking for the next event means the consumer is done with it.
        private var holdsChunk = false

        init(base: AsyncStream<ByteReaderEvent>.Iterator, credits: DispatchSemaphore, reader: ByteReader) {
            self.base = base
            self.credits = credits
            self.reader = reader
        }

        /// The next event, or `nil` after ``ByteReaderEvent/finished(_:)``.
        public mutating func next() async -> ByteReaderEvent? {
            if holdsChunk { reader.finishedChunk() }
            let event = await base.next()
            holdsChunk = if case .data? = event { true } else { false }
            if holdsChunk { credits.signal() }
            return event
        }
    }

    /// Creates the iterator; iterate once.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: stream.makeAsyncIterator(), credits: credits, reader: reader)
    }
}
