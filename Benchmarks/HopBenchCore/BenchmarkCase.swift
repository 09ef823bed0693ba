/// One named measurement: how to perform `n` operations and time them.
///
/// The case owns its loop, so the loop runs in the isolation domain it measures (inside an actor, on the main
/// actor, in a cooperative task). A batched case times the whole loop once; a per-operation case times each
/// operation and returns every duration, so the runner sees the tail a batch mean would hide.
public struct BenchmarkCase: Sendable {
    /// How a case times its operations.
    public enum Kind: String, Sendable, Codable {
        /// One timestamp pair around a scaled inner loop; the per-op figure is the loop time divided by `n`.
        case batched
        /// One timestamp pair around each operation (includes one clock read, see `clock.now`).
        case perOperation
    }

    /// The body of a case, as the runner calls it.
    public enum Body: Sendable {
        /// Performs `n` operations and returns the nanoseconds the whole loop took.
        case batched(@concurrent @Sendable (_ operations: Int) async -> UInt64)
        /// Performs `n` operations and returns the nanoseconds each took.
        case perOperation(@concurrent @Sendable (_ operations: Int) async -> [UInt64])
    }

    /// The stable name, such as `actor.call`; baselines and ratio rows refer to it.
    public let name: String
    /// One line saying what one operation is.
    public let summary: String
    /// What one operation processes, if the case reports a rate.
    public let throughput: Throughput?
    /// The measured code.
    public let body: Body

    /// How the case times its operations.
    public var kind: Kind {
        switch body {
        case .batched: .batched
        case .perOperation: .perOperation
        }
    }

    /// A fast case, timed as a scaled loop: `body(n)` runs `n` operations and returns the loop's nanoseconds.
    public init(
        batched name: String,
        summary: String,
        throughput: Throughput? = nil,
        body: @escaping @concurrent @Sendable (_ operations: Int) async -> UInt64
    ) {
        self.name = name
        self.summary = summary
        self.throughput = throughput
        self.body = .batched(body)
    }

    /// A slow case, timed per operation: `body(n)` runs `n` operations and returns each one's nanoseconds.
    public init(
        perOperation name: String,
        summary: String,
        throughput: Throughput? = nil,
        body: @escaping @concurrent @Sendable (_ operations: Int) async -> [UInt64]
    ) {
        self.name = name
        self.summary = summary
        self.throughput = throughput
        self.body = .perOperation(body)
    }
}
