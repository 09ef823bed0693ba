import Glibc
import Synchronization

/// A TCP port on 127.0.0.1 for a server the test starts (gpsd, the daemon), that nothing listens on now and that no
/// other call in this process has been given.
///
/// The port is released before the server binds it, so it must not be one the kernel hands out meanwhile: the
/// kernel's ephemeral ports (`ip_local_port_range`, 32768–60999 by default) go to every outgoing connection and to
/// every other test's `bind` to port 0, and a second gpsd that cannot bind makes its gpsfake's client connect to the
/// first test's gpsd. So the ports come from below that range, each handed out once per process, starting at a
/// place that depends on the process ID (a sanitizer run beside a plain one starts elsewhere), and skipping any
/// that cannot be bound. Where the range leaves no room below it, the kernel chooses.
package func freePort() throws -> UInt16 {
    if let range = FreePorts.range {
        for _ in 0..<range.count {
            let port = FreePorts.next(in: range)
            if (try? LoopbackPeer(port: port, listening: false)) != nil { return port }
        }
    }
    return try LoopbackPeer(listening: false).port
}

/// The ports ``freePort()`` hands out.
enum FreePorts {
    /// Ports 10000 up to the kernel's ephemeral range; `nil` when that leaves fewer than 1,000.
    static let range: Range<Int>? = {
        guard let text = RawFile.text("/proc/sys/net/ipv4/ip_local_port_range") else { return nil }
        let fields = text.split(whereSeparator: \.isWhitespace)
        guard let low = fields.first.flatMap({ Int($0) }), low - 10_000 >= 1_000 else { return nil }
        return 10_000..<low
    }()

    private static let handedOut = Atomic<Int>(0)
    private static let start = Int(getpid()) &* 7_919

    /// The next port of `range`, a different one for each call until the range wraps around.
    static func next(in range: Range<Int>) -> UInt16 {
        let index = handedOut.add(1, ordering: .relaxed).oldValue
        return UInt16(range.lowerBound + (start &+ index) % range.count)
    }
}
