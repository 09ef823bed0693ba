import Foundation

/// Runs the allocation-counting pass of the suite in a child process under `libc_malloc_debug`.
///
/// The child is this executable with `--allocation-probe`; it prints one line per case,
/// `allocations<TAB>name<TAB>allocs-per-op<TAB>bytes-per-op`.
public enum AllocationProbe {
    /// Where Debian, Ubuntu and Fedora put glibc's malloc debugging library.
    static let libraryCandidates = [
        "/lib/x86_64-linux-gnu/libc_malloc_debug.so.0",
        "/usr/lib/x86_64-linux-gnu/libc_malloc_debug.so.0",
        "/lib/aarch64-linux-gnu/libc_malloc_debug.so.0",
        "/usr/lib/aarch64-linux-gnu/libc_malloc_debug.so.0",
        "/lib64/libc_malloc_debug.so.0",
        "/usr/lib64/libc_malloc_debug.so.0",
    ]

    /// The line prefix of the child's output.
    static let linePrefix = "allocations"

    /// Counts per-operation allocations of the cases `passThrough` selects; empty when the library is missing
    /// or the child fails (the table then shows "n/a").
    public static func run(passThrough: [String]) -> [String: (allocations: Double, bytes: Double)] {
        let files = FileManager.default
        guard let library = libraryCandidates.first(where: { files.fileExists(atPath: $0) }),
            let executable = try? files.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        else { return [:] }
        let trace = NSTemporaryDirectory() + "hop-bench-mtrace-\(ProcessInfo.processInfo.processIdentifier).log"
        defer { try? files.removeItem(atPath: trace) }
        var environment = ProcessInfo.processInfo.environment
        environment["LD_PRELOAD"] = [library, environment["LD_PRELOAD"]].compactMap { $0 }.joined(separator: ":")
        environment["MALLOC_TRACE"] = trace
        let child = Process()
        child.executableURL = URL(fileURLWithPath: executable)
        child.arguments = ["--allocation-probe"] + passThrough
        child.environment = environment
        let output = Pipe()
        child.standardOutput = output
        do { try child.run() } catch { return [:] }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        child.waitUntilExit()
        guard child.terminationStatus == 0 else { return [:] }
        return parse(String(decoding: data, as: UTF8.self))
    }

    /// The line the child prints for one case.
    public static func line(name: String, allocations: Double, bytes: Double) -> String {
        "\(linePrefix)\t\(name)\t\(allocations)\t\(bytes)"
    }

    /// Reads the child's lines back.
    public static func parse(_ output: String) -> [String: (allocations: Double, bytes: Double)] {
        var result: [String: (allocations: Double, bytes: Double)] = [:]
        for line in output.split(separator: "\n") {
            let fields = line.split(separator: "\t")
            guard fields.count == 4, fields[0] == linePrefix, let allocations = Double(fields[2]),
                let bytes = Double(fields[3])
            else { continue }
            result[String(fields[1])] = (allocations, bytes)
        }
        return result
    }
}
