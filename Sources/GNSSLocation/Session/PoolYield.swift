/// How a session's decoding leaves its thread of the cooperative pool to others: after every ``chunksPerYield``
/// chunks, a `Task.yield()`.
///
/// A source that always has bytes waiting (a flooding TCP peer, a file read as fast as possible) never makes the
/// session suspend: the reader's buffered chunk is taken at once, and the hop to the manager's actor and back runs on
/// the same thread when the actor is free. The pool has a thread per core (two on a 2-core machine, one under
/// `taskset -c 0`), so without a yield the decoding could hold it while the control socket's `status`, the stop
/// and everything else waited. Counted in chunks, not timed: 16 KiB, a few hundred sentences, well under a
/// millisecond of decoding in a release build.
struct PoolYield: Sendable {
    /// Chunks of at most the reader's 4 KiB decoded between two yields.
    static let chunksPerYield = 4

    private var chunks = 0

    /// Counts a decoded chunk and yields the thread after every ``chunksPerYield``.
    mutating func afterChunk() async {
        chunks += 1
        guard chunks >= Self.chunksPerYield else { return }
        chunks = 0
        await Task.yield()
    }
}
