import Glibc
import SystemCalls
import TestSupport
import Testing

/// `System.writeAll`, the package's one write-everything loop, against pipes and sockets.
@Suite(.hangBound) struct WriteAllTests {
    /// More than a pipe holds (64 KiB on Linux), so that writes come up short and the descriptor fills.
    static let bytes = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }

    @Test func aNonBlockingPipeWithAReaderTakesEverythingInOrder() async throws {
        let pipe = try System.nonBlockingPipe()
        defer { System.close(pipe.read) }
        async let received = Self.drain(pipe.read)
        let written = try System.writeAll(pipe.write, Self.bytes, waitingForRoom: .seconds(30))
        System.close(pipe.write)
        #expect(written == Self.bytes.count)
        #expect(try await received == Self.bytes)
    }

    @Test func aFullPipeWithoutAWaitThrowsEAGAIN() throws {
        let pipe = try System.nonBlockingPipe()
        defer {
            System.close(pipe.read)
            System.close(pipe.write)
        }
        #expect(throws: Errno(code: EAGAIN)) { try System.writeAll(pipe.write, Self.bytes) }
    }

    @Test func aWaitThatTimesOutReturnsWhatWentOut() throws {
        let pipe = try System.nonBlockingPipe()
        defer {
            System.close(pipe.read)
            System.close(pipe.write)
        }
        let written = try System.writeAll(pipe.write, Self.bytes, waitingForRoom: .milliseconds(20))
        #expect(written > 0)
        #expect(written < Self.bytes.count)
    }

    @Test func aSocketWhosePeerLeftThrowsEPIPEInsteadOfRaisingSIGPIPE() throws {
        var ends: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        System.close(ends[1])
        defer { System.close(ends[0]) }
        #expect(throws: Errno(code: EPIPE)) { try System.writeAll(ends[0], Array("gone\n".utf8), socket: true) }
    }

    @Test func nothingToWriteWritesNothing() throws {
        let pipe = try System.nonBlockingPipe()
        defer {
            System.close(pipe.read)
            System.close(pipe.write)
        }
        #expect(try System.writeAll(pipe.write, []) == 0)
    }

    /// Everything read from the non-blocking `fd` until its writer closes it, read on a thread of its own.
    private static func drain(_ fd: Int32) async throws -> [UInt8] {
        try await withCheckedThrowingContinuation { continuation in
            do throws(Errno) {
                try System.startThread(named: "drain") {
                    var received: [UInt8] = []
                    var chunk = [UInt8](repeating: 0, count: 4_096)
                    while true {
                        var descriptors = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
                        _ = try? System.poll(&descriptors, timeout: -1)
                        let count = (try? chunk.withUnsafeMutableBytes { try System.read(fd, into: $0) }) ?? -1
                        if count == 0 { break }
                        if count > 0 { received += chunk[..<count] }
                    }
                    continuation.resume(returning: received)
                }
            } catch {
                continuation.resume(throwing: error)
            }
        }
    }
}
