import Foundation

@_silgen_name("mtrace") private func glibcMtrace()
@_silgen_name("muntrace") private func glibcMuntrace()

/// Counts heap allocations with glibc's own tracer, `mtrace(3)`.
///
/// Since glibc 2.34 `mtrace` does something only when `libc_malloc_debug.so` is preloaded; it then logs every
/// `malloc`, `calloc`, `realloc` and `memalign` of every thread to the file named by `MALLOC_TRACE`. That hook
/// slows allocation, so the suite never counts while timing: `AllocationProbe` runs the cases again in a child
/// process with the library preloaded, and this type, in that child, brackets each pass with
/// `mtrace()`/`muntrace()` and reads the log.
///
/// `mallinfo2()` is not used: the Glibc module does not export it, and it reports bytes *in use*, which a
/// transient allocation freed within the operation leaves unchanged.
public struct AllocationCounter: Sendable {
    /// The trace file glibc writes.
    public let tracePath: String

    /// The counter for this process, or nil when it does not run under `libc_malloc_debug` with `MALLOC_TRACE`.
    public static func fromEnvironment(_ environment: [String: String]) -> AllocationCounter? {
        guard let path = environment["MALLOC_TRACE"], !path.isEmpty,
            environment["LD_PRELOAD"]?.contains("libc_malloc_debug") == true
        else { return nil }
        return AllocationCounter(tracePath: path)
    }

    /// Runs `work` with tracing on and returns what it allocated (every thread's allocations count).
    public func count(_ work: () async -> Void) async -> (allocations: Int, bytes: Int)? {
        glibcMtrace()
        await work()
        glibcMuntrace()
        guard let log = try? String(contentsOfFile: tracePath, encoding: .utf8) else { return nil }
        return Self.tally(log)
    }

    /// Counts the allocations in an mtrace log: `+` lines (malloc and friends) and `>` lines (the new block of a
    /// realloc), summing their sizes.
    public static func tally(_ log: String) -> (allocations: Int, bytes: Int) {
        var allocations = 0
        var bytes = 0
        for line in log.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard let marker = fields.firstIndex(where: { $0 == "+" || $0 == ">" }), marker + 2 < fields.count
            else { continue }
            allocations += 1
            bytes += Int(fields[marker + 2].dropFirst(2), radix: 16) ?? 0
        }
        return (allocations, bytes)
    }
}
