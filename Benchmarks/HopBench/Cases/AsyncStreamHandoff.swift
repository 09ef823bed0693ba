import HopBenchCore

extension Cases {
    /// One-way latency from `yield` to a waiting consumer's `next()`, the path a fix takes to its subscribers.
    ///
    /// The producer stamps each element with the clock; the consumer subtracts on receipt. The producer waits for
    /// an acknowledgement before the next element, so the consumer is always parked when an element arrives
    /// (the latency, not the throughput of a full buffer).
    static let asyncStreamHandoff = BenchmarkCase(
        perOperation: "asyncstream.handoff",
        summary: "AsyncStream.yield -> waiting consumer receives (one way, timestamp in the element)"
    ) { operations in
        let (stamps, stampSink) = AsyncStream.makeStream(of: UInt64.self, bufferingPolicy: .unbounded)
        let (acks, ackSink) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .unbounded)
        let consumer = Task {
            var durations: [UInt64] = []
            durations.reserveCapacity(operations)
            for await stamp in stamps {
                durations.append(MonotonicClock.now() &- stamp)
                ackSink.yield()
            }
            ackSink.finish()
            return durations
        }
        let producer = identity(stampSink)
        var pendingAcks = acks.makeAsyncIterator()
        for _ in 0..<operations {
            producer.yield(MonotonicClock.now())
            _ = await pendingAcks.next()
        }
        producer.finish()
        return await consumer.value
    }
}
