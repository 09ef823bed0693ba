import Foundation
import GNSSLocation
import GNSSProtocol
import SingletonRegistry
import SingletonRegistryTesting
import SystemCalls
import TestSupport
import Testing

@testable import SingletondCore

/// A disk that fills and frees again under the output file: every line left in the file is a whole TPV line.
///
/// The disk is a writer that takes as many bytes as its free space allows and then fails with `ENOSPC`, as
/// `write(2)` does on a full file system: the first write of a line that does not fit goes out in part. Before the
/// fix, that part stayed, and the next line was glued to it.
@Suite struct FixOutputDiskFullTests {
    static let logger = LogWriter(minimumLevel: .error, journalFormat: false, fd: -1, clock: ContinuousClock())

    /// A file system with `free` bytes left.
    final class Disk: Sendable {
        let free: SanitizerVisibleMutex<Int>

        init(free: Int) { self.free = SanitizerVisibleMutex(free) }

        /// Writes what fits of `bytes` to `fd`; `ENOSPC` when nothing does.
        func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int {
            let room = free.withLock { free in
                defer { free -= min(free, bytes.count) }
                return min(free, bytes.count)
            }
            guard room > 0 else { throw Errno(code: ENOSPC) }
            return Glibc.write(fd, bytes.baseAddress, room)
        }
    }

    @Test func aFullDiskLeavesWholeLinesOnly() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("tpv.jsonl")
        let disk = Disk(free: 1_500)
        let output = try FixOutput(path: path, logger: Self.logger, clock: TestClock(), writer: disk.write)
        var lines: [[UInt8]] = []
        for second in 0..<62 {
            var line: [UInt8] = []
            GPSDJSONWriter.appendTPV(
                Fix(
                    mode: .threeD, time: GNSSTime(millisecondsSince1970: 1_700_000_000_000 + Int64(second) * 1_000),
                    latitude: 52, longitude: 5), to: &line)
            lines.append(line)
        }
        for (index, line) in lines.enumerated() {
            output.write(line)
            // Half way, the disk is full; space is freed and the rest fits.
            if index == 30 {
                await output.flush()
                disk.free.withLock { $0 += 16_384 }
            }
        }
        await output.close()
        let bytes = try #require(FileManager.default.contents(atPath: path))
        #expect(bytes.last == 0x0A, "the file ends with a whole line")
        let written = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast()
        for line in written where !lines.contains(Array(line) + [0x0A]) {
            Issue.record("not a whole line: \(String(decoding: line, as: UTF8.self))")
        }
        #expect(written.count < 62, "the full disk lost lines")
        #expect(written.count > 31, "lines after the space was freed were written")
    }
}
