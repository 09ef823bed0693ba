import Testing

extension Trait where Self == TimeLimitTrait {
    /// The time limit of every suite: a bound that catches a hang, and nothing else.
    ///
    /// Swift Testing starts every test of the run at once on a cooperative pool as wide as the machine has cores
    /// (two in CI), and the registry's tests share one global actor. Under the sanitizers, or on a loaded CI machine,
    /// a test that takes a millisecond alone has been seen to wait over a minute for its turn behind the daemon floods
    /// of other suites (the whole run takes about three minutes under the address sanitizer). Ten minutes is far past
    /// any wait for a turn, so a test that exceeds it is hung, whatever else the run does.
    package static var hangBound: Self { .timeLimit(.minutes(10)) }
}

/// The longest, in seconds, that one wait of a test helper (a line from a child or a socket, a datagram, a child's
/// exit) lasts before it gives up: a bound that catches a hang, as ``Testing/Trait/hangBound`` does for a test.
package let waitHangBound: Double = 120
