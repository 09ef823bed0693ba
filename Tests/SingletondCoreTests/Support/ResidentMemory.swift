import Foundation

/// A process's memory as `/proc/PID/status` reports it: resident now (`VmRSS`) and at its peak (`VmHWM`), in
/// bytes.
struct ResidentMemory {
    var current: Int
    var peak: Int

    /// The memory of `pid`; `nil` where there is no such file.
    init?(of pid: pid_t) {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        func bytes(_ key: String) -> Int? {
            // "VmRSS:	   12345 kB"
            for line in status.split(separator: "\n") where line.hasPrefix(key) {
                return Int(line.dropFirst(key.count).split(whereSeparator: \.isWhitespace).first ?? "").map {
                    $0 * 1_024
                }
            }
            return nil
        }
        guard let current = bytes("VmRSS:"), let peak = bytes("VmHWM:") else { return nil }
        self.current = current
        self.peak = peak
    }

    /// Resets the peak of `pid` to its current size (`5` to `/proc/PID/clear_refs`); `false` where that is not allowed.
    static func resetPeak(of pid: pid_t) -> Bool {
        let fd = open("/proc/\(pid)/clear_refs", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return write(fd, "5", 1) == 1
    }

    /// `bytes` in MB with one decimal.
    static func megabytes(_ bytes: Int) -> String {
        String(format: "%.1f MB", Double(bytes) / 1_048_576)
    }
}
