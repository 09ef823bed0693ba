import HopBenchCore

/// The callee of `call.baseline`: a plain function the optimizer may not inline.
@inline(never)
func plainCall(_ value: Int) -> Int { value &* 3 &+ 1 }

extension Cases {
    /// The floor every other case is read against: a non-inlinable synchronous call.
    static let callBaseline = BenchmarkCase(
        batched: "call.baseline",
        summary: "a non-inlinable plain function call"
    ) { operations in
        let seed = identity(0)
        var sum = 0
        let start = MonotonicClock.now()
        for index in 0..<operations { sum &+= plainCall(seed &+ index) }
        let end = MonotonicClock.now()
        blackHole(sum)
        return end &- start
    }
}
