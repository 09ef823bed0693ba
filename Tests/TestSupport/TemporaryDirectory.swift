import Foundation

/// A fresh directory under /tmp for one test's sockets and files, removed by ``remove()``.
///
/// Paths stay short because a Unix socket path may hold at most 107 bytes.
package struct TemporaryDirectory: Sendable {
    /// The directory's absolute path.
    package let path: String

    /// Makes the directory (mode 0700); a machine that cannot make one in /tmp stops the tests.
    package init() {
        var template = Array("/tmp/sdt-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "mkdtemp: \(String(cString: strerror(errno)))")
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The path of `name` inside the directory (nothing is created).
    package func file(_ name: String) -> String { path + "/" + name }

    /// Removes the directory and everything in it.
    package func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// A path under /tmp that names no file yet and is unique to this call: the process ID and a random number,
    /// then `name`. Nothing is created; the caller removes what it makes there.
    package static func uniquePath(_ name: String) -> String {
        "/tmp/singleton-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))-\(name)"
    }
}
