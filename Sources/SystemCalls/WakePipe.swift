/// A self-pipe that wakes a thread blocked in `poll(2)`: the read end becomes readable once ``signal()`` is called,
/// and stays readable until ``drain()``.
///
/// The one wake-up of the package's poll threads: the readers of the position sources and the servers of the
/// daemon's sockets.
package final class WakePipe: Sendable {
    /// The end to poll for `POLLIN`; -1 when the pipe could not be created.
    package let readEnd: Int32
    private let writeEnd: Int32
    /// `errno` of a failed creation, else 0.
    package let creationError: Int32

    /// Creates the pipe, both ends non-blocking and close-on-exec; on failure ``readEnd`` is -1 and
    /// ``creationError`` says why.
    package init() {
        do {
            (readEnd, writeEnd) = try System.nonBlockingPipe()
            creationError = 0
        } catch {
            (readEnd, writeEnd) = (-1, -1)
            creationError = error.code
        }
    }

    deinit {
        if readEnd >= 0 { System.close(readEnd) }
        if writeEnd >= 0 { System.close(writeEnd) }
    }

    /// Makes the read end readable; safe from any thread, any number of times (a full pipe is readable already).
    package func signal() {
        guard writeEnd >= 0 else { return }
        _ = withUnsafeBytes(of: UInt8(1)) { try? System.write(writeEnd, $0) }
    }

    /// Reads every byte ``signal()`` wrote, so that the next `poll(2)` sleeps until the next signal.
    package func drain() {
        guard readEnd >= 0 else { return }
        var bytes = [UInt8](repeating: 0, count: 256)
        while bytes.withUnsafeMutableBytes({ try? System.read(readEnd, into: $0) }) == 256 {}
    }
}
