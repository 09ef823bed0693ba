import SystemCalls

/// A self-pipe that wakes a thread blocked in `poll(2)`: the read end becomes readable once ``signal()`` is called.
final class WakePipe: Sendable {
    /// The end to poll for `POLLIN`; -1 when the pipe could not be created.
    let readEnd: Int32
    private let writeEnd: Int32
    /// `errno` of a failed creation, else 0.
    let creationError: Int32

    init() {
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

    /// Makes the read end readable; idempotent (the byte stays until the pipe is closed).
    func signal() {
        guard writeEnd >= 0 else { return }
        let byte: [UInt8] = [1]
        _ = byte.withUnsafeBytes { try? System.write(writeEnd, $0) }
    }
}
