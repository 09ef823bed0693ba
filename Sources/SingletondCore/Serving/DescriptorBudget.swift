import SystemCalls

/// How the daemon shares its file descriptors (the soft `RLIMIT_NOFILE`, `ulimit -n`) between its clients and
/// everything else.
///
/// Clients of the control socket and the gpsd listener never hold the top ``reserve`` descriptors: a client whose
/// descriptor would be numbered at or above ``clientCeiling(limit:)`` is refused as when descriptors run out. Linux
/// gives every new descriptor the lowest free number, so the reserve stays free for what the daemon and its runtime
/// open while it runs: libdispatch's worker monitor reads `/proc/self/stat` once a second and stops the process
/// when that open fails, the position source reconnects, the output is reopened on SIGHUP, threads are named through
/// `/proc/thread-self/comm`. Below ``floor`` the daemon does not start.
package enum DescriptorBudget {
    /// Descriptors clients may not take. While it runs, the daemon and its runtime open a few at once for a moment
    /// (the worker monitor's `/proc/self/stat`, a thread's name, the output reopened, the source's new connection
    /// with its wake pipe); 16 leaves room for all of them at once with a margin.
    package static let reserve = 16

    /// The lowest limit the daemon starts with: the descriptors it holds once running (20 with the demo and
    /// `--listen`: the standard streams, the output, both listening sockets with their spare descriptors and wake
    /// pipes, Dispatch's epoll, event, timer and signal descriptors; 28 in `GPSFakeEndToEndTests` with a gpsd
    /// source) plus the ``reserve`` plus room for a few clients, so that `status` and `cancel` still get through.
    package static let floor = 48

    /// The lowest descriptor number a client may not have, for a limit of `limit` descriptors; `Int32.max` without
    /// a limit.
    static func clientCeiling(limit: Int? = System.descriptorLimit()) -> Int32 {
        guard let limit else { return .max }
        return Int32(clamping: limit - reserve)
    }

    /// Why the daemon cannot run with a limit of `limit` descriptors; `nil` when it can.
    package static func startProblem(limit: Int? = System.descriptorLimit()) -> String? {
        guard let limit, limit < floor else { return nil }
        return "the file descriptor limit is \(limit), below the \(floor) the daemon needs (\(reserve) of them kept "
            + "for its runtime); raise it (ulimit -n, LimitNOFILE= in a systemd unit)"
    }
}
