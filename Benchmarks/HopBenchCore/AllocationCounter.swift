import Foundation

@_silgen_name("mtrace") private func glibcMtrace()

/// Counts heap allocations with glibc's own tracer, `mtrace(3)`.
///
/// Since glibc 2.34 `mtrace` does something only when `libc_malloc_debug.so` is preloaded; it then logs every
/// `malloc`, `calloc`, `realloc` and `memalign` of every thread to the file named by `MALLOC_TRACE`. That hook
/// slows allocation, so the suite never counts while timing: `AllocationProbe` runs the cases again in a child
/// process with the library preloaded, and this type, in that child, turns tracing on once and marks where each
/// counted pass begins and ends with an allocation of a size nothing else asks for. Tracing is never turned off:
/// `muntrace()` closes the log while other threads may still be writing to it, which crashes.
///
/// `mallinfo2()` is not used: the Glibc module does not export it, and it reports bytes *in use*, which a
/// transient allocation freed within the operation leaves unchanged.
public struct AllocationCounter: Sendable {
    /// Marker allocations are `markerBase + 2 × pass` bytes (begin) and one more (end): odd sizes near 760 KB.
    static let markerBase = 777_777

    /// The trace file glibc writes.
    public let tracePath: String

    /// Turns tracing on and returns the counter, or nil when this process does not run under `libc_malloc_debug`
    /// with `MALLOC_TRACE` set.
    public static func start(environment: [String: String]) -> AllocationCounter? {
        guard let path = environment["MALLOC_TRACE"], !path.isEmpty,
            environment["LD_PRELOAD"]?.contains("libc_malloc_debug") == true
        else { return nil }
        glibcMtrace()
        return AllocationCounter(tracePath: path)
    }

    /// Runs `work` between the begin and end markers of pass number `pass`.
    public func count(pass: Int, _ work: () async -> Void) async {
        Self.mark(Self.markerBase + 2 * pass)
        await work()
        Self.mark(Self.markerBase + 2 * pass + 1)
    }

    /// What each pass allocated, read from the log once every pass is done.
    ///
    /// The log is read into one buffer and scanned without allocating per line: tracing is still on, and every
    /// traced allocation costs glibc a symbol lookup for its caller.
    public func tallies() -> [Int: (allocations: Int, bytes: Int)] {
        fflush(nil)
        guard let data = FileManager.default.contents(atPath: tracePath) else { return [:] }
        return data.withUnsafeBytes { Self.tally(bytes: $0.bindMemory(to: UInt8.self)) }
    }

    private static func mark(_ size: Int) {
        free(blackHoleReturning(malloc(size)))
    }

    @inline(never)
    private static func blackHoleReturning(_ pointer: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
        blackHole(pointer)
        return pointer
    }

    /// Counts, per pass, the allocations in an mtrace log between a pass's markers: `+` lines (malloc and
    /// friends) and `>` lines (the new block of a realloc), with their sizes. Every thread's allocations count.
    public static func tally(_ log: String) -> [Int: (allocations: Int, bytes: Int)] {
        var text = log
        return text.withUTF8 { tally(bytes: $0) }
    }

    static func tally(bytes log: UnsafeBufferPointer<UInt8>) -> [Int: (allocations: Int, bytes: Int)] {
        var result: [Int: (allocations: Int, bytes: Int)] = [:]
        var current: (pass: Int, allocations: Int, bytes: Int)?
        var lineStart = 0
        while lineStart < log.count {
            var lineEnd = lineStart
            while lineEnd < log.count && log[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
            defer { lineStart = lineEnd + 1 }
            guard let (kind, size) = allocation(in: log, from: lineStart, to: lineEnd) else { continue }
            let offset = size - markerBase
            if kind == UInt8(ascii: "+"), offset >= 0, offset < 1_000_000 {
                if offset % 2 == 0 {
                    current = (offset / 2, 0, 0)
                } else if let finished = current, finished.pass == offset / 2 {
                    result[finished.pass] = (finished.allocations, finished.bytes)
                    current = nil
                }
                continue
            }
            if current != nil {
                current!.allocations += 1
                current!.bytes += size
            }
        }
        return result
    }

    /// The marker (`+` or `>`) and size of an allocation line `@ caller + 0xADDRESS 0xSIZE`, or nil for any other.
    private static func allocation(
        in log: UnsafeBufferPointer<UInt8>,
        from start: Int,
        to end: Int
    ) -> (kind: UInt8, size: Int)? {
        let space = UInt8(ascii: " ")
        var index = start
        while index + 2 < end {
            let byte = log[index + 1]
            if log[index] == space && (byte == UInt8(ascii: "+") || byte == UInt8(ascii: ">"))
                && log[index + 2] == space
            {
                var cursor = index + 3
                while cursor < end && log[cursor] != space { cursor += 1 }
                cursor += 3  // the space and "0x"
                guard cursor < end else { return nil }
                var size = 0
                while cursor < end, let digit = hexDigit(log[cursor]) {
                    size = size &* 16 &+ digit
                    cursor += 1
                }
                return (byte, size)
            }
            index += 1
        }
        return nil
    }

    private static func hexDigit(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a") + 10)
        default: nil
        }
    }
}
