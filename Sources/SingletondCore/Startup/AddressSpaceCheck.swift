import SystemCalls

/// Whether the address space limit (`RLIMIT_AS`: `ulimit -v`, `LimitAS=` in a systemd unit) leaves the daemon room
/// for its threads, checked on the main thread before any other thread exists.
///
/// Under a limit too small, Dispatch and the Swift runtime cannot start the threads of the cooperative pool and
/// retry for ever: the daemon would not start, log nothing, and not end on SIGTERM, which only its threads handle.
/// The check reserves (`mmap(2)`, `PROT_NONE`, nothing committed) the address space of ``threads`` thread stacks
/// plus ``heapBytes``, and gives it back.
package enum AddressSpaceCheck {
    /// Threads a running daemon may have at once: 9 with `--listen`, a TCP source, a watcher and a survey (the main
    /// thread, Dispatch's manager, the cooperative pool, the signal and output queues, the control socket's and the
    /// gpsd listener's poll threads, the source's reader), and room for Dispatch to add some for queues that block.
    static let threads = 12

    /// Room for the heap besides the stacks.
    static let heapBytes = 32 << 20

    /// The stack Glibc gives a thread started without a stack size: the stack limit, 8 MB when unlimited.
    static func stackBytes(limit: Int? = System.stackLimit()) -> Int {
        min(max(limit ?? 8 << 20, 1 << 20), 64 << 20)
    }

    /// Why the daemon cannot run under the process's address space limit; `nil` when it can.
    package static func problem() -> String? {
        let bytes = threads * stackBytes() + heapBytes
        do throws(Errno) {
            let reserved = try System.mmap(reserving: bytes)
            System.munmap(reserved, bytes: bytes)
            return nil
        } catch {
            return "the address space limit (ulimit -v, LimitAS=) leaves no room for the daemon's threads: "
                + "reserving \(bytes >> 20) MB for \(threads) thread stacks and the heap failed (\(error))"
        }
    }
}
