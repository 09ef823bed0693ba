import Glibc

extension System {
    /// `stat(2)`: what `path` leads to, following a symbolic link.
    package static func status(ofPath path: String) throws(Errno) -> stat {
        var info = stat()
        _ = try retrying { stat(path, &info) }
        return info
    }

    /// `lstat(2)`: `path` itself, a symbolic link not followed.
    package static func linkStatus(ofPath path: String) throws(Errno) -> stat {
        var info = stat()
        _ = try retrying { lstat(path, &info) }
        return info
    }

    /// `fstatat(2)` with `AT_SYMLINK_NOFOLLOW`: `name` in the directory `directory` itself, a link not followed.
    package static func linkStatus(relativeTo directory: Int32, _ name: String) throws(Errno) -> stat {
        var info = stat()
        _ = try retrying { fstatat(directory, name, &info, AT_SYMLINK_NOFOLLOW) }
        return info
    }

    /// `readlinkat(2)`: the target of the symbolic link `name` in `directory` (an empty `name` reads the link that
    /// `directory` itself is, opened with `O_PATH | O_NOFOLLOW`). A target longer than `PATH_MAX` is
    /// `ENAMETOOLONG`.
    package static func readLink(relativeTo directory: Int32, _ name: String) throws(Errno) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = try buffer.withUnsafeMutableBufferPointer { bytes throws(Errno) in
            try retrying { readlinkat(directory, name, bytes.baseAddress!, bytes.count) }
        }
        guard count < buffer.count else { throw Errno(code: ENAMETOOLONG) }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `mkdir(2)`.
    package static func makeDirectory(_ path: String, mode: mode_t) throws(Errno) {
        _ = try retrying { mkdir(path, mode) }
    }

    /// `chmod(2)`.
    package static func changeMode(_ path: String, _ mode: mode_t) throws(Errno) {
        _ = try retrying { chmod(path, mode) }
    }

    /// `unlink(2)`.
    package static func unlink(_ path: String) throws(Errno) {
        _ = try retrying { Glibc.unlink(path) }
    }
}
