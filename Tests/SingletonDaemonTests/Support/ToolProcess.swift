import Foundation

/// A helper program (gpsfake, gpspipe) run as a child process, with its standard output as lines.
final class ToolProcess {
    let process = Process()
    let stdout: LineReader
    private let exit = ExitRecord()
    private let pipes: (Pipe, Pipe)

    init(_ path: String, _ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        stdout = LineReader(fd: out.fileHandleForReading.fileDescriptor)
        pipes = (out, err)
        let exit = exit
        process.terminationHandler = { process in
            exit.status.withLock { $0 = process.terminationStatus }
            exit.exited.signal()
        }
        try process.run()
    }

    /// The exit status once the process has ended, or `nil` if it did not within `timeout` seconds.
    func exitStatus(timeout: Double = 30) async -> Int32? {
        let exit = exit
        return await blocking {
            guard exit.exited.wait(timeout: .now() + timeout) == .success else { return nil }
            exit.exited.signal()
            return exit.status.withLock { $0 }
        }
    }

    /// Stops the process if it still runs.
    func kill() {
        if process.isRunning { process.terminate() }
    }
}
