import GNSSProtocol

/// What a session decoded since its last hop to the manager, in stream order with the raw sentences, and what it
/// learned of the connection meanwhile; ``flush()`` delivers it in one hop.
///
/// A paced replay waits before each fix: what came before the fix goes out before the wait, and the fix at once
/// after it, so that a sentence reaches the subscribers ahead of the pause and a fix is not held back a cycle.
struct DeliveryBatch {
    let manager: LocationManager
    /// The source's name, for the state that a device gone brings.
    let source: String
    /// Whether the source can wait for slow subscribers (``LocationSource/canWait``).
    let canWait: Bool
    /// Paces a replay by its timestamps; `nil` delivers as fast as the subscribers take it.
    var pacer: ReplayPacer?
    /// The connection's last problem since its last fix: a connection that ends after garbage names it.
    private(set) var problem: String?
    /// Whether the connection delivered a fix or a satellite view.
    private(set) var delivered = false
    /// Whether a fix or a satellite view was added since the session last cleared it.
    var reported = false
    private var outputs: [StreamDecoder.Output] = []

    init(manager: LocationManager, source: String, pacer: ReplayPacer?, canWait: Bool) {
        self.manager = manager
        self.source = source
        self.canWait = canWait
        self.pacer = pacer
    }

    /// Adds `sentence`, which goes out before the outputs added after it.
    mutating func add(sentence: [UInt8]) {
        outputs.append(.sentence(sentence))
    }

    /// Adds `output`; a fix of a paced replay waits for its time and goes out at once. Throws when the task is
    /// cancelled during that wait, and the fix is not delivered.
    mutating func add(_ output: StreamDecoder.Output) async throws {
        problem = output.problemAfter(problem)
        if output.isReport {
            delivered = true
            reported = true
        }
        guard case .fix(let fix) = output, pacer != nil else {
            outputs.append(output)
            return
        }
        await flush()
        try await pacer?.wait(for: fix.time)
        outputs.append(output)
        await flush()
    }

    /// Delivers what was added since the last flush, in one hop to the manager's actor; for a source that can wait,
    /// then waits until the subscribers that hold the source have room (``LocationSource/canWait``).
    mutating func flush() async {
        guard !outputs.isEmpty else { return }
        let batch = outputs
        outputs = []
        let behind = await manager.deliver(batch, from: source)
        guard canWait else { return }
        for subscription in behind { await subscription.waitForRoom() }
    }
}
