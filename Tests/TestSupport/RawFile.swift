import Glibc

/// A file read whole with `open` and `read`: a `/proc` file, or one another process is writing.
///
/// Foundation's `String(contentsOfFile:)` leaks its buffer on a file that reports a size of 0 (a `/proc` file, an
/// empty file still being written): LeakSanitizer reported it under `--sanitize=address`.
package enum RawFile {
    /// The bytes of `path`, or `nil` when it cannot be opened or read (a `/proc` file whose process has ended).
    package static func bytes(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count == 0 { return bytes }
            if count < 0 {
                if errno == EINTR { continue }
                return nil
            }
            bytes += buffer[0..<count]
        }
    }

    /// The text of `path` (UTF-8), or `nil` as for ``bytes(_:)``.
    package static func text(_ path: String) -> String? {
        bytes(path).map { String(decoding: $0, as: UTF8.self) }
    }
}
