import Foundation
import SingletondCore
import TestSupport
import Testing

/// A daemon `LogWriter` that writes into a file of a test's own, and the lines written so far.
struct CapturedLog: ~Copyable {
    /// The logger to hand to the code under test (info and above).
    let logger: LogWriter
    private let path: String
    private let fd: Int32

    /// A log in `directory`, that times repeated lines on `clock`.
    init(in directory: TemporaryDirectory, clock: any Clock<Duration> = ContinuousClock()) throws {
        path = directory.file("log")
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        try #require(fd >= 0, "open \(path): errno \(errno)")
        logger = LogWriter(minimumLevel: .info, journalFormat: false, fd: fd, clock: clock)
    }

    deinit { close(fd) }

    /// The lines logged so far.
    func lines() throws -> [Substring] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
    }
}
