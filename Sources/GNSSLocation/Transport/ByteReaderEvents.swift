import Dispatch

/// The events of a ``ByteReader`` as an async sequence with flow control; see ``ByteReader/events(bufferLimit:)``.
package struct ByteReaderEvents: AsyncSequence, Sendable {
    /// Each chunk, then one ``ByteReaderEvent/finished(_:)``.
    package typealias Element = ByteReaderEvent

    private let stream: AsyncStream<ByteReaderEvent>
    private let credits: DispatchSemaphore

    init(stream: AsyncStream<ByteReaderEvent>, credits: DispatchSemaphore) {
        self.stream = stream
        self.credits = credits
    }

    /// Iterates the events; each chunk taken lets the reader deliver one more.
    package struct AsyncIterator: AsyncIteratorProtocol {
        private var base: AsyncStream<ByteReaderEvent>.Iterator
        private let credits: DispatchSemaphore

        init(base: AsyncStream<ByteReaderEvent>.Iterator, credits: DispatchSemaphore) {
            self.base = base
            self.credits = credits
        }

        /// The next event, or `nil` after ``ByteReaderEvent/finished(_:)``.
        package mutating func next() async -> ByteReaderEvent? {
            let event = await base.next()
            if case .data? = event { credits.signal() }
            return event
        }
    }

    /// Creates the iterator; iterate once.
    package func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: stream.makeAsyncIterator(), credits: credits)
    }
}
