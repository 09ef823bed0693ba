/// Consumes a value so the optimizer must compute it.
///
/// `@_optimize(none)` and `@inline(never)` keep the body opaque even under cross-module optimization: the caller
/// cannot prove the value unused, and the call may read or write memory, so work feeding it (and any actor hop
/// around it) stays.
@inline(never)
@_optimize(none)
public func blackHole<T>(_ value: T) {}

/// Returns its argument through a call the optimizer cannot see into.
///
/// Pass a case's subject (an actor, a lock, a stream) through it once before the timed loop, so the optimizer
/// cannot prove which instance is used and fold the work away.
@inline(never)
@_optimize(none)
public func identity<T>(_ value: T) -> T { value }
